/**
 * The personal slots of a page (docs/decisions/0032-personal-parts-spliced.md): the places whose HTML
 * depends on the visitor (app/lib/personal.ts), marked in a render for the page cache so that the
 * cache can splice each visitor's own HTML into the shared page.
 *
 * A marked slot is `OPEN + JSON(slot) + MID + <the slot's HTML for nobody> + CLOSE`, the marks being
 * characters of Unicode's Private Use Area (U+E000 to U+E003: no text of the catalogue uses
 * them, and a page holding one anyway is refused by `parseSlotTemplate`). The marks are React text
 * nodes, so React escapes the JSON as it escapes any text (`&`, `<`, `>`, `"`, `'`), and
 * `parseSlotTemplate` reads it back.
 */

/** Starts a slot's mark. */
export const SLOT_OPEN = '\uE000'
/** Ends a slot's descriptor and starts its HTML. */
export const SLOT_MID = '\uE001'
/** Ends a slot's HTML. */
export const SLOT_CLOSE = '\uE002'
/** Separates the slots of one render of several for a visitor (app/entry.server.tsx `renderPersonalSlots`). */
export const SLOT_SEPARATOR = '\uE003'

/** A slot and what its HTML depends on besides the visitor. */
export type PersonalSlotDescriptor =
  /** The header's account link or menu and "My Cart". */
  | { kind: 'account' }
  /** The phone's cart bar (nothing while the cart is empty). */
  | { kind: 'cart-bar' }
  /** A product's ADD button or stepper; `size` "lg" on the product page. */
  | { kind: 'add'; productId: string; name: string; stock: number; size: 'sm' | 'lg' }
  /** The cart page's heading and contents: the whole cart's lines, steppers and bill. */
  | { kind: 'cart-page' }
  /** The home page's "Buy again" row (app/components/buy-again-row.tsx): empty for nobody. */
  | { kind: 'buy-again' }

/** The text that opens `slot` in a page cache render. */
export function slotOpenText(slot: PersonalSlotDescriptor): string {
  return `${SLOT_OPEN}${JSON.stringify(slot)}${SLOT_MID}`
}

/** A page cut at its slots: `parts[i]` comes before `slots[i]`, and one more part ends the page. */
export interface SlotTemplate {
  parts: string[]
  slots: Array<{ slot: PersonalSlotDescriptor; html: string }>
}

/** React's escapes of text (react-dom's `escapeTextForBrowser`), undone. */
function unescapeText(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#x27);/g, (_, name: string) =>
    name === 'amp' ? '&' : name === 'lt' ? '<' : name === 'gt' ? '>' : name === 'quot' ? '"' : "'",
  )
}

/** React's separator between two text nodes, which an empty slot's two marks get between them. */
const TEXT_SEPARATOR = '<!-- -->'

/**
 * Cuts a marked page into its template, or answers null when the marks are malformed (unbalanced,
 * nested, or a descriptor that does not parse): such a page is not spliced. A page without marks is a
 * template of one part.
 */
export function parseSlotTemplate(html: string): SlotTemplate | null {
  const parts: string[] = []
  const slots: SlotTemplate['slots'] = []
  let at = 0
  for (;;) {
    const open = html.indexOf(SLOT_OPEN, at)
    if (open === -1) break
    const mid = html.indexOf(SLOT_MID, open)
    const close = html.indexOf(SLOT_CLOSE, mid)
    if (mid === -1 || close === -1) return null
    const descriptor = html.slice(open + 1, mid)
    let content = html.slice(mid + 1, close)
    if (descriptor.includes(SLOT_CLOSE) || content.includes(SLOT_OPEN) || content.includes(SLOT_MID)) return null
    let slot: PersonalSlotDescriptor
    try {
      slot = JSON.parse(unescapeText(descriptor)) as PersonalSlotDescriptor
    } catch {
      return null
    }
    if (!slot || typeof slot.kind !== 'string') return null
    if (content === TEXT_SEPARATOR) content = ''
    parts.push(html.slice(at, open))
    slots.push({ slot, html: content })
    at = close + 1
  }
  const rest = html.slice(at)
  if (rest.includes(SLOT_MID) || rest.includes(SLOT_CLOSE)) return null
  parts.push(rest)
  return { parts, slots }
}

/** The page of a template with each slot's HTML taken from `htmlOf` (its own HTML when it answers undefined). */
export function fillSlotTemplate(template: SlotTemplate, htmlOf: (index: number) => string | undefined = () => undefined): string {
  let out = template.parts[0]!
  for (let i = 0; i < template.slots.length; i++) out += (htmlOf(i) ?? template.slots[i]!.html) + template.parts[i + 1]!
  return out
}

/**
 * A route's `handle` saying that its page differs between visitors only in personal slots (and the
 * root's): the page cache may then answer a shopper with a cart or an account from the shared page
 * with their slots spliced in. Routes whose page shows anything else of the visitor (checkout, the
 * dashboard) must not declare it; the cart page declares it, its whole body being one slot.
 */
export const PERSONAL_SLOTS_HANDLE = { personalSlots: true } as const
