/**
 * The ADD button of a product card or page, and the `−  qty  +` stepper it becomes once the product
 * is in the cart (docs/commerce-api.md, "Cart"). "Out of stock" and no button at stock 0.
 *
 * Without JavaScript each control is a small POST form to `/cart` that answers with a redirect back to
 * this page at the card (`#p-<id>`) and a flash toast. With JavaScript the same forms are sent by a
 * fetcher (marked `js=1`, so the action answers data instead of a redirect), the count changes at
 * once (optimistic), and a refusal ("Only 2 left in stock") comes back as an error toast. The button
 * and the stepper have the same size, so nothing moves when one replaces the other.
 *
 * Focus is never dropped (docs/accessibility.md, "Keyboard and focus"): when ADD becomes the stepper
 * the focus moves to its "+", and back to ADD when "−" takes the last one out. The count is an
 * `<output>` (a polite live region) whose text is "1 in cart", the words visually hidden, so a screen
 * reader says what changed.
 *
 * Cheap until used (docs/decisions/0046-cheap-product-cards.md): a product card's control (`lazy`)
 * holds no fetcher and runs no effect while the shopper has not used it. A home page shows 66 cards,
 * and a fetcher per card re-rendered every card at each change of the router's state. The first
 * submit mounts the card's `CartFetcherBridge` (the fetcher, its error toast and the focus that
 * follows a swap), which sends that first form; the markup is the same before and after, so nothing
 * is re-created and the focus stays put.
 */
import { useEffect, useLayoutEffect, useRef, useState, type FormEvent, type ReactNode, type RefObject } from 'react'
import { useFetcher } from 'react-router'
import { CART_ACTION_PATH } from '../lib/cart.ts'
import { useCartSummary } from '../lib/personal.ts'
import { MinusIcon, PlusIcon } from './icons.tsx'
import { PersonalSlot } from './personal-slot.tsx'
import { showToast } from './toasts.tsx'

/** What the action answers a fetcher: success or the message to show. */
export interface CartActionData {
  ok: boolean
  message: string
}

/** The quantity shown while a cart fetcher is under way (what the shopper just asked for). */
export function optimisticQty(current: number, formData: FormData | undefined): number {
  if (!formData) return current
  const intent = formData.get('intent')
  if (intent === 'add') return current + 1
  if (intent === 'remove') return 0
  if (intent === 'set') {
    const qty = Number(formData.get('qty'))
    return Number.isInteger(qty) && qty >= 0 ? qty : current
  }
  return current
}

/**
 * The cart's form sender for one product: a fetcher keyed by the product (so the card, the product
 * page and the cart panel share it) and the submit handler that sends a form through it.
 */
export function useCartFetcher(productId: string) {
  const fetcher = useFetcher<CartActionData>({ key: `cart-${productId}` })
  useEffect(() => {
    if (fetcher.state === 'idle' && fetcher.data && !fetcher.data.ok)
      void showToast({ type: 'error', message: fetcher.data.message, id: `cart-${productId}` })
  }, [fetcher.state, fetcher.data, productId])
  const send = (formData: FormData) => void fetcher.submit(formData, { method: 'post', action: CART_ACTION_PATH })
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    send(cartFormData(event.currentTarget, productId))
  }
  return { fetcher, onSubmit, send }
}

/** A cart form's fields as a fetcher sends them: the product and `js=1` (the action then answers data). */
function cartFormData(form: HTMLFormElement, productId: string): FormData {
  const formData = new FormData(form)
  formData.set('productId', productId)
  formData.set('js', '1')
  return formData
}

/**
 * The submit button of a cart form: it carries the product id (the card to come back to) as its
 * value. The page to come back to is not repeated in every one of the home page's 165 cards: the
 * action reads it from the same-origin `Referer` (sent for same-origin posts under our
 * `strict-origin-when-cross-origin` policy), falling back to the product's page.
 */
function CartSubmit({
  productId,
  label,
  className,
  children,
  disabled,
  buttonRef,
}: {
  productId: string
  label: string
  className: string
  children: ReactNode
  disabled?: boolean
  buttonRef?: RefObject<HTMLButtonElement | null>
}) {
  return (
    <button
      ref={buttonRef}
      type="submit"
      name="productId"
      value={productId}
      aria-label={label}
      aria-disabled={disabled || undefined}
      className={className}
    >
      {children}
    </button>
  )
}

/**
 * Keeps the keyboard focus on the product's controls while ADD and the stepper replace each other
 * (the focused button leaves the page, which would drop the focus to the document's start: WCAG 2.2
 * SC 2.4.3 Focus Order). `inCart` is whether the stepper shows, `isIdle` whether the cart fetcher is
 * done, `focus` the refs of the two buttons that take the focus (ADD and the stepper's "+") and
 * `followRef` whether the form just sent held the focus (set as a form is sent: only then does the
 * focus move afterwards, so a mouse or a change elsewhere, the drawer or another tab, never takes it).
 */
function useFocusAcrossSwap(inCart: boolean, isIdle: boolean, { addRef, plusRef, followRef }: FocusRefs) {
  useEffect(() => {
    if (!followRef.current) return
    const target = inCart ? plusRef.current : addRef.current
    if (target && (document.activeElement === document.body || document.activeElement === null)) target.focus()
  }, [inCart, addRef, plusRef, followRef])
  // Kept until the answer is in: a refused ADD turns the stepper back into ADD, and the focus follows.
  const wasBusy = useRef(false)
  useEffect(() => {
    if (isIdle && wasBusy.current) followRef.current = false
    wasBusy.current = !isIdle
  }, [isIdle, followRef])
}

/** The buttons that take the focus across a swap, and whether the form just sent held it. */
interface FocusRefs {
  addRef: RefObject<HTMLButtonElement | null>
  plusRef: RefObject<HTMLButtonElement | null>
  followRef: RefObject<boolean>
}

/** What a control shows of its fetcher: the form under way (optimistic count), whether it is done, and the presses waiting. */
interface FetcherView {
  formData: FormData | undefined
  idle: boolean
  /** Presses of "+" waiting for the answer under way (see `CartFetcherBridge`). */
  queued: number
}

/**
 * The live part of a lazy control (see the module comment), mounted by its first submit: the
 * product's fetcher (`useCartFetcher`: the error toast), the focus across swaps, and `sendRef`, set
 * to the fetcher's sender. Sends `firstRef` once mounted, and reports the fetcher's form and state to
 * the control through `onView` before the browser paints. Renders nothing.
 */
function CartFetcherBridge({
  productId,
  inCart,
  firstRef,
  sendRef,
  enqueueRef,
  onView,
  focus,
}: {
  productId: string
  inCart: boolean
  firstRef: RefObject<FormData | null>
  sendRef: RefObject<((formData: FormData) => void) | null>
  enqueueRef: RefObject<(() => void) | null>
  onView: (view: FetcherView) => void
  focus: FocusRefs
}) {
  const { fetcher, send } = useCartFetcher(productId)
  const idle = fetcher.state === 'idle'
  const refused = idle && fetcher.data !== undefined && !fetcher.data.ok
  // "+" pressed while the cart's answer to the last press is still under way: a second submit through
  // the same fetcher would abort the first request, and the server may never see it (a quick double
  // tap would add one, not two). Such presses wait here (counted in the shown quantity) and are sent
  // one by one as each answer comes in; a refusal ("Only 2 left") drops the rest. Kept in the bridge,
  // so a card untouched runs no effect for it (docs/decisions/0046-cheap-product-cards.md).
  const [queued, setQueued] = useState(0)
  // Set as a waiting press is sent, cleared once the fetcher is busy with it: until then the fetcher
  // still reads idle, and a second send would abort the first.
  const sentRef = useRef(false)
  useLayoutEffect(() => {
    sendRef.current = send
    enqueueRef.current = () => setQueued((n) => n + 1)
  })
  useEffect(() => {
    if (!idle) sentRef.current = false
    if (queued === 0 || !idle || sentRef.current) return
    if (refused) {
      // The fetcher (an external system) answered: the queue follows its answer once per answer.
      // eslint-disable-next-line react-hooks/set-state-in-effect
      setQueued(0)
      return
    }
    sentRef.current = true
    setQueued(queued - 1)
    const formData = new FormData()
    formData.set('intent', 'add')
    formData.set('productId', productId)
    formData.set('js', '1')
    send(formData)
    // `send` is a new function at each render; the queue moves on the fetcher's answers alone.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [queued, idle, refused, productId])
  useLayoutEffect(() => onView({ formData: fetcher.formData, idle, queued }), [fetcher.formData, idle, queued, onView])
  useFocusAcrossSwap(inCart, idle, focus)
  useEffect(() => {
    const formData = firstRef.current
    firstRef.current = null
    if (formData) send(formData)
    // Once, at mount: the form whose submit mounted this bridge.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])
  return null
}

/**
 * ADD / stepper for one product. `name` labels the controls for screen readers ("Add Toned Milk to
 * cart"); `size` "lg" is the product page's; `lazy` (a product card's) holds no fetcher until first
 * used (see the module comment). A personal slot (app/lib/personal-slots.ts): the page cache splices
 * in each visitor's own stepper (the same markup, lazy or not).
 */
export function AddToCart({
  productId,
  name,
  stock,
  size = 'sm',
  lazy = false,
}: {
  productId: string
  name: string
  stock: number
  size?: 'sm' | 'lg'
  lazy?: boolean
}) {
  return (
    <PersonalSlot slot={{ kind: 'add', productId, name, stock, size }}>
      <CartControl productId={productId} name={name} stock={stock} size={size} lazy={lazy} />
    </PersonalSlot>
  )
}

/** A lazy control's fetcher before it is mounted: nothing under way. */
const NO_FETCHER: FetcherView = { formData: undefined, idle: true, queued: 0 }

/**
 * The ADD button or stepper itself (what a personal slot of kind `add` holds). Not `lazy`, its
 * fetcher is live from the start (the product page, the cart), as the bridge of a lazy one is after
 * its first submit.
 */
export function CartControl({
  productId,
  name,
  stock,
  size,
  lazy = false,
}: {
  productId: string
  name: string
  stock: number
  size: 'sm' | 'lg'
  lazy?: boolean
}) {
  const summary = useCartSummary()
  const line = summary.lines[productId]
  const [live, setLive] = useState(!lazy)
  const [view, setView] = useState(NO_FETCHER)
  const addRef = useRef<HTMLButtonElement>(null)
  const plusRef = useRef<HTMLButtonElement>(null)
  const followRef = useRef(false)
  const sendRef = useRef<((formData: FormData) => void) | null>(null)
  const firstRef = useRef<FormData | null>(null)
  const enqueueRef = useRef<(() => void) | null>(null)
  const qty = optimisticQty(line?.qty ?? 0, view.formData) + view.queued
  const box = size === 'lg' ? 'cart-box cart-box-lg' : 'cart-box'
  const send = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    followRef.current = event.currentTarget.contains(document.activeElement)
    const formData = cartFormData(event.currentTarget, productId)
    if (!view.idle && formData.get('intent') === 'add' && enqueueRef.current) enqueueRef.current()
    else if (sendRef.current) sendRef.current(formData)
    else {
      firstRef.current = formData
      setLive(true)
    }
  }
  const bridge = live ? (
    <CartFetcherBridge
      productId={productId}
      inCart={qty > 0}
      firstRef={firstRef}
      sendRef={sendRef}
      enqueueRef={enqueueRef}
      onView={setView}
      focus={{ addRef, plusRef, followRef }}
    />
  ) : null

  // The bridge keeps its place (first child) in every branch, so a swap does not remount it.
  if (qty === 0 && stock <= 0) {
    return (
      <>
        {bridge}
        <p className={`${box} cart-none`}>Out of stock</p>
      </>
    )
  }
  if (qty === 0) {
    return (
      <>
        {bridge}
        <form method="post" action="/cart" onSubmit={send} className="cart-form">
          <input type="hidden" name="intent" value="add" />
          <CartSubmit productId={productId} label={`Add ${name} to cart`} className={`${box} cart-add`} buttonRef={addRef}>
            ADD
          </CartSubmit>
        </form>
      </>
    )
  }
  const atMax = qty >= summary.maxQtyPerLine || qty >= stock
  return (
    <>
      {bridge}
      {/* Busy while the count shown is not yet the cart's (an answer under way, presses waiting). */}
      <div className={`${box} cart-stepper`} aria-busy={!view.idle || view.queued > 0 || undefined}>
        {line ? (
          <form method="post" action="/cart" onSubmit={send} className="h-full">
            <input type="hidden" name="intent" value="set" />
            <input type="hidden" name="lineId" value={line.lineId} />
            <input type="hidden" name="qty" value={qty - 1} />
            <CartSubmit productId={productId} label={`Remove one ${name}`} className="cart-step rounded-l-lg">
              <MinusIcon size={16} strokeWidth={3} />
            </CartSubmit>
          </form>
        ) : (
          <span className="w-8" />
        )}
        {/* `<output>` is a status live region (HTML-AAM): the new count is said when it changes. */}
        <output aria-live="polite">
          <span>{qty}</span>
          <span className="sr-only"> in cart</span>
        </output>
        <form method="post" action="/cart" onSubmit={send} className="h-full">
          <input type="hidden" name="intent" value="add" />
          <CartSubmit
            productId={productId}
            label={`Add one more ${name}`}
            className="cart-step rounded-r-lg"
            disabled={atMax}
            buttonRef={plusRef}
          >
            <PlusIcon size={16} strokeWidth={3} />
          </CartSubmit>
        </form>
      </div>
    </>
  )
}
