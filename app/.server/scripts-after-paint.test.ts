/**
 * The page's modules fetched after its first paint (app/.server/scripts-after-paint.ts): the
 * modulepreload links leave the head, the route modules' script waits for the first contentful paint
 * and then preloads and imports the same modules in the same order; streamed in pieces cut anywhere
 * (inside a tag, inside a UTF-8 character) the answer is the same; anything it does not know passes
 * unchanged. The fixture is React Router's own `<Scripts />` output (7.18, a production build).
 */
import { runInNewContext } from 'node:vm'
import { Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { deferRouteModulesScript, PAINT_WAIT_MAX_MS, scriptsAfterPaint, scriptsAfterPaintStream } from './scripts-after-paint.ts'
import { inlineScriptHashes } from './csp.ts'

const ROUTE_MODULES_CODE = `;
import * as route0 from "/assets/root-BPcM1PGi.js";
import * as route1_clientLoader from "/assets/index-1VgDIEr0.js";
import * as route1_main from "/assets/index-DCaa7KI6.js";
const route1 = {...route1_clientLoader,...route1_main};
  window.__reactRouterManifest = {
  "entry": { "module": "/assets/entry.client-CrSbw-Od.js" },
  "url": "/assets/manifest-e6f8a5c4.js",
  "version": "e6f8a5c4"
};
  window.__reactRouterRouteModules = {"root":route0,"routes/index":route1};

import("/assets/entry.client-CrSbw-Od.js");`

const MODULES = [
  '/assets/entry.client-CrSbw-Od.js',
  '/assets/rolldown-runtime-XKyaHtl9.js',
  '/assets/shell-DxEbIzLI.js',
  '/assets/root-BPcM1PGi.js',
  '/assets/index-DCaa7KI6.js',
  '/assets/index-1VgDIEr0.js',
]

/** A document as the server renders it: `nonce` for a streamed page, none for a cached one. */
function documentOf(nonce?: string) {
  const n = nonce ? ` nonce="${nonce}"` : ''
  return [
    '<!DOCTYPE html><html lang="en-IN"><head><meta charSet="utf-8"/>',
    '<link rel="preload" href="/banner/banner-mobile.svg" as="image" fetchPriority="high" media="(max-width: 767px)"/>',
    '<title>Grocery | Groceries delivered in minutes</title><link rel="icon" href="/favicon.ico"/>',
    ...MODULES.map((href) => `<link rel="modulepreload" href="${href}"${n}/>`),
    '<link rel="stylesheet" href="/assets/shell-Df6k2daM.css"/></head>',
    '<body><main><h1>Atta, rice &amp; dal</h1><p>₹361 <s>₹399</s> — 5 kg</p>',
    '<script type="application/json" id="x">{"a":"\\u003clink rel=\\"modulepreload\\" href=\\"/no\\"/>"}</script></main>',
    `<script${n}>window.__reactRouterContext = {"basename":"/"};</script>`,
    `<script${n} type="module" async="">${ROUTE_MODULES_CODE}</script>`,
    `<script${n}>window.__reactRouterContext.streamController.enqueue("[]");</script>`,
    '</body></html>',
  ].join('')
}

/** The rewritten route-modules script's text in `html`. */
function routeModulesScript(html: string): string {
  const match = /<script[^>]*type="module"[^>]*>([\s\S]*?)<\/script>/.exec(html)
  if (!match) throw new Error('no module script')
  return match[1]!
}

/**
 * Runs the rewritten script against a stand-in browser: `import()` recorded, the paint reported when
 * the test says. Answers what the script did, in order.
 */
async function run(code: string, { paintTiming = true, hidden = false } = {}) {
  const events: string[] = []
  const paintObservers: Array<(list: { getEntriesByName: (name: string) => unknown[] }, observer: { disconnect: () => void }) => void> = []
  const timers: Array<{ fn: () => void; ms: number }> = []
  const frames: Array<() => void> = []
  const window: Record<string, unknown> = {}
  const head = {
    appendChild: (link: { rel: string; href: string; nonce?: string }) =>
      events.push(`preload ${link.href}${link.nonce ? ` nonce=${link.nonce}` : ''}`),
  }
  class PerformanceObserver {
    static supportedEntryTypes = paintTiming ? ['paint', 'longtask'] : ['longtask']
    constructor(private readonly callback: (typeof paintObservers)[number]) {}
    observe(options: { type: string; buffered: boolean }) {
      events.push(`observe ${options.type}${options.buffered ? ' buffered' : ''}`)
      paintObservers.push(this.callback)
    }
  }
  const context = {
    window,
    self: { PerformanceObserver },
    PerformanceObserver,
    document: { visibilityState: hidden ? 'hidden' : 'visible', head, createElement: () => ({}) },
    requestAnimationFrame: (fn: () => void) => frames.push(fn),
    setTimeout: (fn: () => void, ms = 0) => timers.push({ fn, ms }),
    load: (specifier: string) => {
      events.push(`import ${specifier}${window.__reactRouterRouteModules ? ' (route modules set)' : ''}`)
      return Promise.resolve({ [specifier]: true })
    },
  }
  const settle = () => new Promise((resolve) => setImmediate(resolve))
  // `import()` is syntax, not a function a context can give: the stand-in is named `load`.
  runInNewContext(code.replace(/\bimport\(/g, 'load('), context)
  await settle()
  const step = {
    events,
    timers,
    /** The browser reports a paint entry named `name`. */
    async paint(name: string) {
      for (const callback of paintObservers)
        callback({ getEntriesByName: (n) => (n === name ? [{}] : []) }, { disconnect: () => events.push('disconnect') })
      await settle()
    },
    /** The next frame's callbacks run. */
    async frame() {
      for (const fn of frames.splice(0)) fn()
      await settle()
    },
    /** Every zero-delay timer runs (a task after the current one). */
    async tasks() {
      const due = timers.filter((t) => t.ms === 0)
      timers.splice(0, timers.length, ...timers.filter((t) => t.ms !== 0))
      for (const timer of due) timer.fn()
      await settle()
      await settle()
    },
  }
  return step
}

describe('scriptsAfterPaint', () => {
  it('takes the modulepreload links out of the head and leaves everything else as it was', () => {
    const before = documentOf()
    const after = scriptsAfterPaint(before)
    expect(after).not.toMatch(/<link rel="modulepreload"/)
    // The rest of the document is byte for byte the same.
    const withoutLinks = before.replace(/<link rel="modulepreload"[^>]*>/g, '')
    const script = /<script type="module" async="">[\s\S]*?<\/script>/
    expect(after.replace(script, '')).toBe(withoutLinks.replace(script, ''))
    // The other inline scripts (and so their CSP hashes) are unchanged.
    expect(inlineScriptHashes(after).filter((h) => inlineScriptHashes(before).includes(h))).toHaveLength(
      inlineScriptHashes(before).length - 1,
    )
  })

  it('fetches nothing before the first contentful paint, then preloads every module and imports the route modules before the entry', async () => {
    const browser = await run(routeModulesScript(scriptsAfterPaint(documentOf())))
    expect(browser.events).toEqual(['observe paint buffered'])
    // A first paint with nothing contentful in it is not the one waited for.
    await browser.paint('first-paint')
    await browser.tasks()
    expect(browser.events).toEqual(['observe paint buffered'])
    await browser.paint('first-contentful-paint')
    expect(browser.events).toEqual(['observe paint buffered', 'disconnect'])
    await browser.tasks()
    expect(browser.events).toEqual([
      'observe paint buffered',
      'disconnect',
      ...MODULES.map((href) => `preload ${href}`),
      'import /assets/root-BPcM1PGi.js',
      'import /assets/index-1VgDIEr0.js',
      'import /assets/index-DCaa7KI6.js',
      'import /assets/entry.client-CrSbw-Od.js (route modules set)',
    ])
    expect(browser.timers.map((t) => t.ms)).toEqual([PAINT_WAIT_MAX_MS])
  })

  it('gives each preload the nonce of the link it replaces on a streamed page', async () => {
    const html = scriptsAfterPaint(documentOf('n0Nce+/='))
    expect(html).toContain('<script nonce="n0Nce+/=" type="module" async="">')
    const browser = await run(routeModulesScript(html))
    await browser.paint('first-contentful-paint')
    await browser.tasks()
    expect(browser.events.filter((e) => e.startsWith('preload'))).toEqual(MODULES.map((href) => `preload ${href} nonce=n0Nce+/=`))
  })

  it('goes at once in a hidden document, after two frames without Paint Timing, and after 3 s whatever happens', async () => {
    const hidden = await run(routeModulesScript(scriptsAfterPaint(documentOf())), { hidden: true })
    expect(hidden.events).toHaveLength(MODULES.length + 4)

    const old = await run(routeModulesScript(scriptsAfterPaint(documentOf())), { paintTiming: false })
    expect(old.events).toEqual([])
    await old.frame()
    await old.tasks()
    expect(old.events).toEqual([])
    await old.frame()
    await old.tasks()
    expect(old.events.at(-1)).toBe('import /assets/entry.client-CrSbw-Od.js (route modules set)')

    const never = await run(routeModulesScript(scriptsAfterPaint(documentOf())))
    expect(never.timers).toEqual([{ fn: expect.any(Function), ms: PAINT_WAIT_MAX_MS }])
    never.timers[0]!.fn()
    await never.tasks()
    expect(never.events.at(-1)).toBe('import /assets/entry.client-CrSbw-Od.js (route modules set)')
  })

  it('gives the same document streamed in pieces cut at every place, inside tags and inside characters', async () => {
    const html = documentOf('abc')
    const whole = scriptsAfterPaint(html)
    const bytes = Buffer.from(html, 'utf8')
    for (let cut = 1; cut < bytes.length; cut += 7) {
      const pieces = [bytes.subarray(0, cut), bytes.subarray(cut, cut + 3), bytes.subarray(cut + 3)]
      const out: Buffer[] = []
      for await (const chunk of Readable.from(pieces).pipe(scriptsAfterPaintStream())) out.push(chunk as Buffer)
      expect(Buffer.concat(out).toString('utf8'), `cut at byte ${cut}`).toBe(whole)
    }
  })

  it('leaves a script of a shape it does not know as it was, with the links written back before it', () => {
    const html = documentOf().replace('import * as route0 from "/assets/root-BPcM1PGi.js"', 'import route0 from "/assets/root-BPcM1PGi.js"')
    const after = scriptsAfterPaint(html)
    expect(after).toContain(html.slice(html.indexOf('<script type="module"')))
    expect(after.match(/<link rel="modulepreload" href="[^"]+"\/>/g)).toEqual(
      MODULES.map((href) => `<link rel="modulepreload" href="${href}"/>`),
    )
  })

  it('passes a document without the route modules’ script through, and links after that script too', () => {
    const plain = '<html><head><link rel="stylesheet" href="/a.css"/></head><body><p>a < b</p><script>1</script></body></html>'
    expect(scriptsAfterPaint(plain)).toBe(plain)
    const late = `${documentOf()}<link rel="modulepreload" href="/late.js"/>`
    expect(scriptsAfterPaint(late)).toMatch(/<\/html><link rel="modulepreload" href="\/late.js"\/>$/)
  })
})

describe('deferRouteModulesScript', () => {
  it('takes a side-effect import (the dev server’s runtime) in its place: each module is imported in the order written', () => {
    const code = deferRouteModulesScript(`import "/@id/__x00__virtual:react-router/inject-hmr-runtime";${ROUTE_MODULES_CODE}`, [])!
    expect(code).toContain(
      'await import("/@id/__x00__virtual:react-router/inject-hmr-runtime");const route0=await import("/assets/root-BPcM1PGi.js");const route1_clientLoader=await import("/assets/index-1VgDIEr0.js");const route1_main=await import("/assets/index-DCaa7KI6.js");',
    )
    expect(code).not.toMatch(/(^|[;\n])\s*import\s*["*{]/)
  })

  it('writes URLs and nonces as JavaScript strings that cannot close the script', () => {
    const code = deferRouteModulesScript(ROUTE_MODULES_CODE, [{ href: '/a.js?x=&lt;/script&gt;&amp;&quot;', nonce: null }])!
    expect(code).toContain('["/a.js?x=\\u003c/script>&\\"",null]')
    expect(code).not.toContain('</script')
  })
})
