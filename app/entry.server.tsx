/**
 * Server rendering of documents: streams the React tree, waits for everything for bots and for
 * JavaScript-off shoppers alike (isbot), and sets the Content-Security-Policy with this request's
 * nonce, which the root passes to every script it renders.
 *
 * A render for the page cache (app/.server/page-cache.ts) is different: the page will be sent to
 * many visitors, so it carries no nonce; it is rendered whole, and its policy lists the hashes of
 * its inline scripts (app/.server/csp.ts, docs/decisions/0018-page-cache.md).
 *
 * Either way the page's JavaScript is fetched after its first paint: the route modules' script and
 * its modulepreload links are rewritten on the way out (app/.server/scripts-after-paint.ts,
 * docs/decisions/0077-scripts-after-first-paint.md).
 */
import { createHash } from 'node:crypto'
import { PassThrough } from 'node:stream'
import { createReadableStreamFromReadable } from '@react-router/node'
import { isbot } from 'isbot'
import { LRUCache } from 'lru-cache'
import { Fragment, createContext, useContext } from 'react'
import { renderToPipeableStream, renderToString } from 'react-dom/server'
import {
  createStaticHandler,
  createStaticRouter,
  isRouteErrorResponse,
  ServerRouter,
  StaticRouterProvider,
  type EntryContext,
  type HandleErrorFunction,
} from 'react-router'
import { logger } from '../server-shared/logger.ts'
import { env } from './.server/env.ts'
import { contentSecurityPolicy, createNonce, hashedContentSecurityPolicy, inlineScriptHashes } from './.server/csp.ts'
import { isPageCacheRender, PAGE_LOCATION_HEADER, PERSONAL_SLOTS_HEADER } from './.server/page-cache.ts'
import { scriptsAfterPaint, scriptsAfterPaintStream } from './.server/scripts-after-paint.ts'
import { NonceProvider } from './components/nonce.tsx'
import { CartControl } from './components/add-to-cart.tsx'
import { CartBarContent } from './components/cart-panel.tsx'
import { CartPageBody } from './components/cart-page-body.tsx'
import { emptyCart } from './.server/api/cart.ts'
import { HeaderAccount } from './components/header.tsx'
import { BuyAgainRow } from './components/buy-again-row.tsx'
import { PersonalOverride, type Personal } from './lib/personal.ts'
import { SLOT_SEPARATOR, type PersonalSlotDescriptor } from './lib/personal-slots.ts'

export const streamTimeout = 5_000

// The bundle's own copy of the logger (server-shared/logger.ts) takes the BFF's configured level.
logger.level = env.logLevel

/**
 * Errors React Router reports while answering. A client's mistake (a 4xx such as a POST to a page
 * without a form, 405) is one warning line with its status, method and path (no query string: it
 * may carry personal data), not a stack trace; a request the client abandoned is not logged; anything
 * else is a fault, logged in full.
 */
export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return
  if (isRouteErrorResponse(error) && error.status < 500) {
    logger.warn({ status: error.status, method: request.method, path: new URL(request.url).pathname }, 'request refused')
    return
  }
  console.error(isRouteErrorResponse(error) && (error as { error?: unknown }).error ? (error as { error?: unknown }).error : error)
}

/** True when the deepest route of this render declares `handle.personalSlots` (see `renderPersonalSlots`). */
function hasOnlyPersonalSlots(routerContext: EntryContext): boolean {
  const leaf = routerContext.staticHandlerContext.matches.at(-1)
  const handle = leaf ? (routerContext.routeModules[leaf.route.id]?.handle as { personalSlots?: boolean } | undefined) : undefined
  return handle?.personalSlots === true
}

export default function handleRequest(request: Request, responseStatusCode: number, responseHeaders: Headers, routerContext: EntryContext) {
  const forCache = isPageCacheRender(request)
  // A page that differs between visitors only in its personal slots says so to the page cache.
  if (forCache && hasOnlyPersonalSlots(routerContext)) {
    responseHeaders.set(PERSONAL_SLOTS_HEADER, '1')
    // The page's location, for slots that read it when rendered for a visitor (`renderPersonalSlots`).
    const location = (routerContext.staticHandlerContext.loaderData?.root as { location?: unknown } | undefined)?.location
    if (location) responseHeaders.set(PAGE_LOCATION_HEADER, encodeURIComponent(JSON.stringify(location)))
  }
  const nonce = forCache ? undefined : createNonce()
  if (nonce) responseHeaders.set('Content-Security-Policy', contentSecurityPolicy(nonce))
  // Who is signed in, the cart and flash messages all come from the cookie (RFC 9110 section 12.5.5).
  responseHeaders.append('Vary', 'Cookie')
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false
    const userAgent = request.headers.get('user-agent')
    const readyOption = forCache || (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? 'onAllReady' : 'onShellReady'
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        [readyOption]() {
          shellRendered = true
          const body = new PassThrough()
          responseHeaders.set('Content-Type', 'text/html; charset=utf-8')
          if (forCache) {
            // The whole page first: the policy names the hashes of scripts anywhere in it.
            const chunks: Buffer[] = []
            body.on('data', (chunk: Buffer) => chunks.push(chunk))
            body.on('error', reject)
            body.on('end', () => {
              const html = scriptsAfterPaint(Buffer.concat(chunks).toString('utf8'))
              responseHeaders.set('Content-Security-Policy', hashedContentSecurityPolicy(inlineScriptHashes(html)))
              resolve(new Response(html, { headers: responseHeaders, status: responseStatusCode }))
            })
            pipe(body)
          } else {
            // The page's modules are fetched after its first paint (app/.server/scripts-after-paint.ts).
            const afterPaint = scriptsAfterPaintStream()
            afterPaint.on('error', (error) => body.destroy(error))
            resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }))
            afterPaint.pipe(body)
            pipe(afterPaint)
          }
        },
        onShellError(error: unknown) {
          reject(error)
        },
        onError(error: unknown) {
          responseStatusCode = 500
          if (shellRendered) console.error(error)
        },
      },
    )
    setTimeout(abort, streamTimeout + 1000)
  })
}

/** The slot's HTML for a visitor: the component the slot wraps (app/lib/personal-slots.ts). */
function SlotContent({ slot }: { slot: PersonalSlotDescriptor }) {
  switch (slot.kind) {
    case 'account':
      return <HeaderAccount />
    case 'cart-bar':
      return <CartBarContent />
    case 'add':
      return <CartControl productId={slot.productId} name={slot.name} stock={slot.stock} size={slot.size} />
    case 'cart-page':
      // The visitor's whole cart comes from `personal.wholeCart`; the empty cart stands for none.
      return <CartPageBody cart={emptyCart()} signedIn={false} />
    case 'buy-again':
      // The shopper's products come from `personal.buyAgain`.
      return <BuyAgainRow />
  }
}

const SlotsToRender = createContext<PersonalSlotDescriptor[]>([])

function SlotsRoute() {
  const slots = useContext(SlotsToRender)
  return (
    <>
      {slots.map((slot, i) => (
        <Fragment key={i}>
          {SLOT_SEPARATOR}
          <SlotContent slot={slot} />
        </Fragment>
      ))}
      {SLOT_SEPARATOR}
    </>
  )
}

// One route matching any path: the slots read the page's URL (the cart bar hides on /cart); under a
// root whose data is the page's own root `location` (the cart page's stock notes name the store).
const slotsHandler = createStaticHandler([
  {
    id: 'root',
    loader: ({ request }) => {
      const location = request.headers.get(PAGE_LOCATION_HEADER)
      return { location: location ? (JSON.parse(decodeURIComponent(location)) as unknown) : undefined }
    },
    children: [{ id: 'personal-slots', path: '*', Component: SlotsRoute }],
  },
])

/**
 * The HTML of each of `slots` as `personal` sees it on the page at `url` (docs/decisions/0032-personal-parts-spliced.md):
 * exactly what the browser's first render of the spliced page produces there, since both render the
 * same components from the same `Personal` (app/lib/personal.ts). Called by the page cache
 * (app/.server/page-cache.ts, through server.ts) for the slots a visitor's data changes.
 *
 * @param url the page's absolute URL
 * @returns one HTML string per slot, in order
 */
export async function renderPersonalSlots(
  url: string,
  personal: Personal,
  slots: PersonalSlotDescriptor[],
  pageLocation: string | null = null,
): Promise<string[]> {
  const pathname = new URL(url).pathname
  const keys = slots.map((slot) => slotKey(slot, personal, pathname, pageLocation))
  const missing = slots.filter((_, i) => !renderedSlots.has(keys[i]!))
  if (missing.length > 0) {
    const html = await renderSlots(url, personal, missing, pageLocation)
    let at = 0
    slots.forEach((_, i) => {
      if (!renderedSlots.has(keys[i]!)) renderedSlots.set(keys[i]!, html[at++] ?? '')
    })
  }
  return keys.map((key) => renderedSlots.get(key) ?? '')
}

/**
 * What a slot's HTML depends on: the slot and the visitor's data it reads (a product's line and the
 * per-line maximum; the user and the cart's count and total; for the cart bar, whether the page is
 * one it stays off). Equal keys render equal HTML, so a
 * slot already rendered for one key is reused (`renderedSlots`).
 */
function slotKey(slot: PersonalSlotDescriptor, personal: Personal, pathname: string, pageLocation: string | null): string {
  const { cart, user } = personal
  switch (slot.kind) {
    case 'add':
      return JSON.stringify([slot, cart.lines[slot.productId] ?? null, cart.maxQtyPerLine])
    case 'account':
      return JSON.stringify([slot, user, cart.count, cart.total])
    case 'cart-bar':
      // The bar is left out on the cart and checkout pages (app/components/cart-panel.tsx).
      return JSON.stringify([slot, cart.count, cart.total, pathname === '/cart' || pathname === '/checkout'])
    case 'buy-again':
      // Its cards' steppers read the cart's lines.
      return `buy-again:${createHash('sha256')
        .update(JSON.stringify([personal.buyAgain ?? null, user !== null, cart.lines, cart.maxQtyPerLine, pageLocation]))
        .digest('base64url')}`
    case 'cart-page':
      // A whole cart is long: its digest keeps the key short.
      return `cart-page:${createHash('sha256')
        .update(
          JSON.stringify([personal.wholeCart ?? null, personal.missed ?? null, personal.offers ?? null, user !== null, cart, pageLocation]),
        )
        .digest('base64url')}`
  }
}

/** Slot HTML by `slotKey`: a shopper's header and steppers are the same on every page they open. */
const renderedSlots = new LRUCache<string, string>({ max: 20_000 })

/** Renders `slots` for `personal` in one pass (see `renderPersonalSlots`). */
async function renderSlots(
  url: string,
  personal: Personal,
  slots: PersonalSlotDescriptor[],
  pageLocation: string | null,
): Promise<string[]> {
  const context = await slotsHandler.query(new Request(url, { headers: pageLocation ? { [PAGE_LOCATION_HEADER]: pageLocation } : {} }))
  if (context instanceof Response) throw new Error('personal slots: the slot route answered a response')
  const router = createStaticRouter(slotsHandler.dataRoutes, context)
  const html = renderToString(
    <PersonalOverride value={personal}>
      <SlotsToRender value={slots}>
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </SlotsToRender>
    </PersonalOverride>,
  )
  return html
    .split(SLOT_SEPARATOR)
    .slice(1, -1)
    .map((part) => (part === '<!-- -->' ? '' : part))
}
