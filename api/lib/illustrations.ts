/**
 * A picture per product (docs/decisions/0030-drawn-product-pictures.md; docs/product.md, "Pictures"):
 * a packshot-style illustration drawn from the product's own data. The pack's shape comes from its
 * form (bottle, pouch, box, jar, tube, packet or loose produce, `packFormFor`), its colours from the
 * brand name (`brandColours`, the same brand always the same colours), and the brand, a shortened
 * name and the pack size are printed on its label. The picture is an SVG (`illustrationSvg`) that
 * sharp (librsvg) renders to the WebP widths every stored image has (contract/images.ts).
 *
 * Pure functions: no database, no storage. Drawing on first request and storing the files is
 * api/lib/illustration-store.ts.
 */
import sharp from 'sharp'
import { contentHash, WEBP_QUALITY } from './images.ts'
import { IMAGE_VARIANT_WIDTHS, illustrationStem } from '../../contract/images.ts'

/** The pack shapes drawn. `produce` is loose fruit, vegetables, eggs, meat or fish (no pack). */
export const PACK_FORMS = ['bottle', 'pouch', 'box', 'jar', 'tube', 'packet', 'produce'] as const
export type PackForm = (typeof PACK_FORMS)[number]

/** Side of the square drawing in pixels; the main file's width (the widest stored). */
export const ILLUSTRATION_SIZE = 512

/**
 * Bumped when the drawing changes, so a changed drawing gets new file names (stored files are
 * immutable and cached for a year).
 */
export const DRAWING_VERSION = 1

/** What one product's picture is drawn from (all text as the catalogue has it). */
export interface IllustrationSubject {
  brand: string
  name: string
  /** The pack size as sold ("500 ml", "2x200 g"). */
  unit: string
  form: PackForm
  /** The product's own code (its SKU): two products with the same text still get two pictures. */
  seed: string
}

// Each rule: a pattern over lower-case text and the form it means; the first match wins. Words
// naming the pack itself come first ("Honey Jar", "Ketchup Pouch"), then what the product is.
const PACK_WORDS: [RegExp, PackForm][] = [
  [/\b(bottles?|spray|pump)\b/, 'bottle'],
  [/\b(pouch(es)?|refill|doypack|sachets?)\b/, 'pouch'],
  [/\b(jars?|tubs?|tins?|cans?)\b/, 'jar'],
  [/\btubes?\b/, 'tube'],
  [/\b(boxe?s?|cartons?|cases?|kits?|gift sets?)\b/, 'box'],
]
const PRODUCT_WORDS: [RegExp, PackForm][] = [
  [/\b(talc|baby powder|body powder|dusting powder|prickly heat powder)\b/, 'bottle'],
  [/\b(lipstick|lip crayon|kajal|eyeliner|eye liner|lip liner)\b/, 'tube'],
  [
    /\b(toothpaste|tooth paste|face ?wash|cleanser|ointment|balm|lip|gel|scrub|sunscreen|foundation|concealer|primer|hair colou?r|mascara)\b/,
    'tube',
  ],
  [
    /\b(jam|honey|ghee|pickle|spread|peanut butter|mayonnaise|marmalade|paste|pastes|vaseline|cream|butter|curd|yogurt|yoghurt|dahi|shrikhand)\b/,
    'jar',
  ],
  [
    /\b(oil|shampoo|conditioner|juice|drink|sauce|ketchup|vinegar|syrup|wash|liquid|spray|deo|deodorant|perfume|parfum|toilette|cologne|mist|serum|lotion|saniti[sz]er|cleaner|mouthwash|water|milk|squash|sharbat|soda|toner|shower)\b/,
    'bottle',
  ],
  [
    /\b(chips|crisps|biscuits?|cookies|noodles|pasta|wafers?|candy|toffee|chocolates?|snacks?|nachos|rusk|bread|cake|khari|papad|chikki|bar|bars)\b/,
    'packet',
  ],
  [
    /\b(atta|flour|dal|dhal|rice|sugar|jaggery|salt|besan|sooji|rava|maida|poha|powder|masala|namkeen|bhujia|mixture|detergent|seeds|nuts|almonds|cashews?|raisins|dry fruits?|pulses|millets?|oats|muesli|granola|murmura|sabudana)\b/,
    'pouch',
  ],
  [/\b(soap|tea bags|diapers?|pants|tissues?|napkins?|wipes|cereal|flakes|kit|set|bulb|battery|batteries)\b/, 'box'],
]
// Sub categories (and categories) as the catalogue names them, when the product name says nothing.
const SHELF_WORDS: [RegExp, PackForm][] = [
  [
    /\b(fresh (chicken|mutton|water fish)|marine water fish|prawns|other seafood|farm eggs|protein eggs|fruits?|vegetables|veggies|herbs|brinjals|okra|gourd|capsicum|cucumber|potato|onion|tomato|lemon|ginger|coconut|apples?)\b/,
    'produce',
  ],
  ...PRODUCT_WORDS,
  [/\b(dals?|spices|grains|sweeteners|mukhwas)\b/, 'pouch'],
]

/**
 * The pack form of a product, from (in order) words naming a pack in its name, what its name says
 * it is, its sub category, its category, and last its unit: a volume ("ml", "l", "ltr") is a bottle,
 * a weight ("g", "kg") a pouch, anything else a box. Loose produce only comes from the shelf
 * (Fruits & Vegetables, fresh meat, fish and eggs), never from a word of the name: "Tomato Ketchup"
 * is a bottle.
 */
export function packFormFor(product: { name: string; unit: string; subCategory?: string; category?: string }): PackForm {
  const name = product.name.toLowerCase()
  const sub = (product.subCategory ?? '').toLowerCase()
  const category = (product.category ?? '').toLowerCase()
  // Cut vegetables come in a tray or bag; a "curry cut" of chicken is still sold loose.
  const packed = /\b(peeled|frozen|marinated|sausages?|canned|tinned|dried|powder|pickle|chips|juice)\b/.test(`${name} ${sub}`)
  const cutProduce = category === 'fruits & vegetables' && /\bcut\b/.test(`${name} ${sub}`)
  const cutOrPacked = packed || cutProduce
  const loose =
    (category === 'fruits & vegetables' || /\b(fresh|farm eggs|protein eggs|seafood|prawns|water fish)\b/.test(sub)) && !cutOrPacked
  if (loose) return 'produce'
  for (const [pattern, form] of [...PACK_WORDS, ...PRODUCT_WORDS]) if (pattern.test(name)) return form
  // The sub category before the category: "Toor, Channa & Moong Dal" says more than "Foodgrains, Oil & Masala".
  for (const shelf of [sub, category]) for (const [pattern, form] of SHELF_WORDS) if (form !== 'produce' && pattern.test(shelf)) return form
  const unit = product.unit.toLowerCase()
  if (/\d\s*(ml|l|ltr|litre|liter)s?\b/.test(unit)) return 'bottle'
  if (/\d\s*(g|gm|gms|kg)s?\b/.test(unit)) return 'pouch'
  return 'box'
}

/** A brand's colours (CSS hex): the pack `fill`, a darker `shade`, an `accent` and the light `background`. */
export interface BrandColours {
  fill: string
  shade: string
  accent: string
  background: string
}

/** HSL (hue in degrees, saturation and lightness 0-100) as `#rrggbb` (CSS Color 4, "HSL to RGB"). */
function hsl(h: number, s: number, l: number): string {
  const sat = s / 100
  const light = l / 100
  const f = (n: number) => {
    const k = (n + h / 30) % 12
    const c = light - sat * Math.min(light, 1 - light) * Math.max(-1, Math.min(k - 3, 9 - k, 1))
    return Math.round(c * 255)
      .toString(16)
      .padStart(2, '0')
  }
  return `#${f(0)}${f(8)}${f(4)}`
}

/**
 * The colours of a brand, fixed by its name (trimmed, case ignored): a hue from the name's hash, dark
 * enough that white type on the pack stays readable (yellows and greens, light by nature, are drawn
 * darker). An empty brand gets a neutral grey-blue.
 */
export function brandColours(brand: string): BrandColours {
  const key = brand.trim().toLowerCase()
  if (!key) return { fill: hsl(215, 20, 40), shade: hsl(215, 20, 28), accent: hsl(35, 80, 60), background: hsl(215, 20, 95) }
  const hash = Number.parseInt(contentHash(Buffer.from(key)).slice(0, 8), 16)
  const hue = hash % 360
  const saturation = 50 + ((hash >>> 9) % 30)
  // Hues 45-200 (yellow to cyan) look light at the same lightness: draw them darker.
  const lightness = (hue >= 45 && hue <= 200 ? 30 : 40) + ((hash >>> 17) % 8)
  return {
    fill: hsl(hue, saturation, lightness),
    shade: hsl(hue, saturation, lightness - 12),
    accent: hsl((hue + 150) % 360, 75, 62),
    background: hsl(hue, 35, 95),
  }
}

/** `text` with the five XML special characters escaped (XML 1.0, "Character and Entity References"). */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[ch]!)
}

/**
 * The font every picture names: a generic family that Debian's fontconfig resolves to DejaVu Sans
 * (fonts-dejavu-core, present wherever librsvg is), with DejaVu Sans named first so the width
 * estimate below holds.
 */
export const FONT_FAMILY = "'DejaVu Sans', sans-serif"
// Advance widths of DejaVu Sans (regular, bold), in hundredths of the font size, of the printable
// ASCII characters from the space (32) to "~" (126), measured by rendering each with librsvg. Any
// other character counts as 1.1 (wider than every glyph here but bold "W"), so a line measured with
// these fits its box.
const ADVANCES = {
  regular: [
    32, 40, 46, 84, 64, 95, 78, 28, 39, 39, 50, 84, 32, 36, 32, 34, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 34, 34, 84, 84, 84, 53, 100, 71,
    69, 70, 77, 63, 58, 78, 75, 30, 30, 66, 56, 86, 75, 79, 60, 79, 70, 64, 59, 73, 68, 99, 69, 61, 69, 39, 34, 39, 84, 50, 50, 61, 64, 55,
    63, 62, 35, 63, 63, 28, 28, 58, 28, 97, 63, 61, 64, 63, 39, 52, 39, 63, 59, 82, 59, 59, 52, 64, 34, 64, 84,
  ],
  bold: [
    35, 46, 52, 84, 70, 100, 87, 31, 46, 46, 52, 84, 38, 42, 38, 37, 70, 70, 70, 70, 70, 70, 70, 70, 70, 70, 40, 40, 84, 84, 84, 58, 100,
    77, 76, 73, 83, 68, 68, 82, 84, 37, 37, 78, 64, 100, 84, 85, 73, 85, 77, 68, 71, 81, 77, 110, 77, 72, 73, 46, 37, 46, 84, 50, 50, 68,
    72, 59, 72, 68, 44, 72, 71, 34, 34, 67, 34, 104, 71, 69, 72, 72, 49, 60, 48, 71, 65, 92, 65, 65, 58, 71, 37, 71, 84,
  ],
}

/** Width in pixels of `text` set at `size` px in DejaVu Sans (see ADVANCES; kerning only narrows it). */
export function textWidth(text: string, size: number, bold: boolean): number {
  const table = bold ? ADVANCES.bold : ADVANCES.regular
  let hundredths = 0
  for (const ch of text) {
    const code = ch.codePointAt(0)!
    hundredths += code >= 32 && code <= 126 ? table[code - 32]! : 110
  }
  return (hundredths / 100) * size
}

/** One line of type on the label: its text (already shortened), font size in pixels and weight. */
export interface TextLine {
  text: string
  /** Centre x in drawing pixels (the label's middle). */
  x: number
  size: number
  bold: boolean
  /** Baseline y in drawing pixels. */
  y: number
}

type Measure = (text: string) => number

/** `text` cut to fit `width` (by `measure`), at a word boundary when one is near, with "…" when cut. */
function shorten(text: string, width: number, measure: Measure): string {
  if (measure(text) <= width) return text
  const chars = [...text]
  let n = chars.length
  while (n > 0 && measure(`${chars.slice(0, n).join('').trimEnd()}…`) > width) n--
  const cut = chars.slice(0, n).join('')
  const space = cut.lastIndexOf(' ')
  return `${(space >= cut.length * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`
}

/**
 * `text` wrapped at spaces into at most `lines` lines each fitting `width`; a word wider than a line
 * is cut, and the last line is shortened with "…" when text remains.
 */
function wrap(text: string, width: number, lines: number, measure: Measure): string[] {
  const words = text.trim().split(/\s+/).filter(Boolean)
  const out: string[] = []
  let line = ''
  for (let i = 0; i < words.length; i++) {
    const candidate = line ? `${line} ${words[i]}` : words[i]!
    if (measure(candidate) <= width) {
      line = candidate
      continue
    }
    if (out.length === lines - 1) {
      out.push(shorten([line, ...words.slice(i)].filter(Boolean).join(' '), width, measure))
      return out
    }
    if (line) {
      out.push(line)
      line = ''
      i--
    } else {
      out.push(shorten(words[i]!, width, measure))
    }
  }
  if (line) out.push(line)
  return out
}

/** The label box of each form: where the type goes (x, y, width, height in drawing pixels). */
export const LABEL_BOX: Record<PackForm, { x: number; y: number; width: number; height: number }> = {
  bottle: { x: 172, y: 228, width: 168, height: 190 },
  pouch: { x: 138, y: 180, width: 236, height: 226 },
  box: { x: 124, y: 150, width: 224, height: 250 },
  jar: { x: 134, y: 222, width: 244, height: 176 },
  tube: { x: 168, y: 150, width: 176, height: 246 },
  packet: { x: 112, y: 164, width: 288, height: 206 },
  produce: { x: 112, y: 346, width: 288, height: 134 },
}

/**
 * The type on a label: the brand (bold, upper case, one line), the name (up to three lines, one on
 * the short produce label) and the pack size (bold, one line), each measured with DejaVu Sans's
 * advance widths (`textWidth`) to fit the box less a margin. Sizes shrink for long text down to a
 * floor; below it the text is cut with "…". Never breaks a word at the larger name sizes.
 */
export function labelLines(
  subject: Pick<IllustrationSubject, 'brand' | 'name' | 'unit'>,
  box: { x: number; y: number; width: number; height: number },
): TextLine[] {
  const inner = box.width - 20
  const fit = (text: string, sizes: number[], bold: boolean) => {
    for (const size of sizes) if (textWidth(text, size, bold) <= inner) return { text, size }
    const size = sizes[sizes.length - 1]!
    return { text: shorten(text, inner, (t) => textWidth(t, size, bold)), size }
  }
  const maxLines = box.height < 150 ? 1 : 3
  const brand = fit(subject.brand.toUpperCase(), [26, 22, 18, 15], true)
  const unit = fit(subject.unit, [22, 18, 15], true)
  // The largest size at which the whole name wraps into the lines there are without cutting a
  // word; else the smallest, cut.
  const nameSizes = [24, 20, 17]
  const measureAt = (size: number) => (t: string) => textWidth(t, size, false)
  const nameSize =
    nameSizes.find((size) => {
      const lines = wrap(subject.name, inner, maxLines, measureAt(size))
      return lines.join(' ') === subject.name.trim().split(/\s+/).join(' ')
    }) ?? nameSizes[nameSizes.length - 1]!
  const names = wrap(subject.name, inner, maxLines, measureAt(nameSize))
  const lines: TextLine[] = []
  const x = box.x + box.width / 2
  let y = box.y + 14
  if (brand.text) {
    y += brand.size
    lines.push({ text: brand.text, x, size: brand.size, bold: true, y })
    y += 10
  }
  for (const text of names) {
    y += nameSize + 4
    lines.push({ text, x, size: nameSize, bold: false, y })
  }
  if (unit.text) lines.push({ text: unit.text, x, size: unit.size, bold: true, y: box.y + box.height - 14 })
  return lines
}

// Pack silhouettes on a 512 × 512 canvas, centred, the label drawn over them.
function packShape(form: PackForm, c: BrandColours, seed: number): string {
  switch (form) {
    case 'bottle':
      return `<rect x="226" y="36" width="60" height="40" rx="6" fill="${c.shade}"/>
<path d="M232 76h48v34c0 22 66 40 66 96v246c0 16-12 28-28 28H194c-16 0-28-12-28-28V206c0-56 66-74 66-96z" fill="${c.fill}"/>
<path d="M190 200c8-30 30-44 42-52" stroke="#fff" stroke-opacity=".35" stroke-width="10" fill="none" stroke-linecap="round"/>`
    case 'pouch':
      return `<path d="M136 92h240l6 22c-8 30 22 60 22 120v214c0 10-8 18-18 18H126c-10 0-18-8-18-18V234c0-60 30-90 22-120z" fill="${c.fill}"/>
<rect x="136" y="92" width="240" height="20" fill="${c.shade}"/>
<path d="M150 122h212" stroke="#fff" stroke-opacity=".5" stroke-width="3" stroke-dasharray="8 6"/>`
    case 'box':
      return `<path d="M112 120l40-44h248l-40 44z" fill="${c.shade}"/>
<path d="M360 120l40-44v338l-40 44z" fill="${c.shade}" fill-opacity=".8"/>
<rect x="112" y="120" width="248" height="338" fill="${c.fill}"/>`
    case 'jar':
      return `<rect x="150" y="120" width="212" height="70" rx="12" fill="${c.shade}"/>
<path d="M162 190h188c22 0 40 18 40 40v206c0 22-18 40-40 40H162c-22 0-40-18-40-40V230c0-22 18-40 40-40z" fill="${c.fill}"/>
<path d="M150 140h212M150 160h212" stroke="#000" stroke-opacity=".15" stroke-width="4"/>`
    case 'tube':
      return `<path d="M150 60h212l-8 360c0 10-10 16-20 16H178c-10 0-20-6-20-16z" fill="${c.fill}"/>
<rect x="146" y="48" width="220" height="20" rx="4" fill="${c.shade}"/>
<rect x="220" y="436" width="72" height="50" rx="8" fill="${c.shade}"/>`
    case 'packet':
      return `<path d="M96 110l16-16 16 16 16-16 16 16 16-16 16 16 16-16 16 16 16-16 16 16 16-16 16 16 16-16 16 16 16-16 16 16 16-16 16 16 16-16 16 16v292l-16 16-16-16-16 16-16-16-16 16-16-16-16 16-16-16-16 16-16-16-16 16-16-16-16 16-16-16-16 16-16-16-16 16-16-16-16 16-16-16-16 16z" fill="${c.fill}"/>
<rect x="96" y="126" width="320" height="16" fill="${c.shade}"/>
<rect x="96" y="384" width="320" height="16" fill="${c.shade}"/>`
    case 'produce': {
      // A heap of three rounded shapes, tilted by the seed so neighbouring products differ.
      const tilt = (seed % 40) - 20
      return `<g transform="rotate(${tilt} 256 220)">
<ellipse cx="190" cy="250" rx="96" ry="88" fill="${c.shade}"/>
<ellipse cx="322" cy="246" rx="100" ry="92" fill="${c.fill}"/>
<ellipse cx="256" cy="190" rx="104" ry="96" fill="${c.fill}"/>
<ellipse cx="222" cy="150" rx="28" ry="16" fill="#fff" fill-opacity=".4"/>
<path d="M256 96c0-30 14-44 34-52" stroke="${c.accent}" stroke-width="12" fill="none" stroke-linecap="round"/>
</g>`
    }
  }
}

/**
 * The SVG of a product's picture (512 × 512): background, pack silhouette in the brand's colours,
 * and a white label with the brand, the name and the pack size, every text XML-escaped and fitted
 * inside the label (`labelLines`).
 */
export function illustrationSvg(subject: IllustrationSubject): string {
  const c = brandColours(subject.brand)
  const box = LABEL_BOX[subject.form]
  const seed = Number.parseInt(contentHash(Buffer.from(subject.seed)).slice(0, 6), 16)
  const text = labelLines(subject, box)
    .map(
      (line) =>
        `<text x="${line.x}" y="${line.y}" font-size="${line.size}"${line.bold ? ' font-weight="bold"' : ''}>${escapeXml(line.text)}</text>`,
    )
    .join('\n')
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${ILLUSTRATION_SIZE}" height="${ILLUSTRATION_SIZE}" viewBox="0 0 512 512">
<rect width="512" height="512" fill="${c.background}"/>
<ellipse cx="256" cy="482" rx="170" ry="16" fill="#000" fill-opacity=".08"/>
${packShape(subject.form, c, seed)}
<rect x="${box.x}" y="${box.y}" width="${box.width}" height="${box.height}" rx="14" fill="#fff" fill-opacity=".94"/>
<rect x="${box.x}" y="${box.y + box.height - 6}" width="${box.width}" height="6" fill="${c.accent}"/>
<g font-family="${FONT_FAMILY}" text-anchor="middle" fill="#1f2328">
${text}
</g>
</svg>`
}

/**
 * The name of a product's picture: `<24 hex>-il`, the hash of what it is drawn from and the drawing
 * version; the files are `<name>.webp` and its `-w128/-w256/-w512` variants (contract/images.ts).
 */
export function illustrationName(subject: IllustrationSubject): string {
  const source = JSON.stringify([DRAWING_VERSION, subject.form, subject.brand, subject.name, subject.unit, subject.seed])
  return illustrationStem(contentHash(Buffer.from(source)))
}

/**
 * Renders a product's picture as WebP in every stored width: the main file at 512 px (also the
 * `-w512` variant) and 256 and 128 px, each rendered from the SVG at its own size (not scaled down
 * from a bitmap), so small type stays sharp. The same subject gives the same bytes on one machine
 * (fonts and libvips fixed).
 * @param name the stored name (default `illustrationName(subject)`; a stored row's own id when redrawn)
 * @returns storage key → WebP bytes, main first (`<name>.webp`, then `-w128`, `-w256`, `-w512`)
 */
export async function renderIllustration(subject: IllustrationSubject, name = illustrationName(subject)): Promise<Map<string, Buffer>> {
  const svg = Buffer.from(illustrationSvg(subject))
  const encode = (width: number) =>
    sharp(svg, { density: (72 * width) / ILLUSTRATION_SIZE })
      .resize(width, width)
      .webp({ quality: WEBP_QUALITY })
      .toBuffer()
  const widths = [...new Set<number>([ILLUSTRATION_SIZE, ...IMAGE_VARIANT_WIDTHS.map((w) => Math.min(w, ILLUSTRATION_SIZE))])]
  const encoded = new Map(await Promise.all(widths.map(async (w) => [w, await encode(w)] as const)))
  const files = new Map<string, Buffer>([[`${name}.webp`, encoded.get(ILLUSTRATION_SIZE)!]])
  for (const w of IMAGE_VARIANT_WIDTHS) files.set(`${name}-w${w}.webp`, encoded.get(Math.min(w, ILLUSTRATION_SIZE))!)
  return files
}

/** True when `value` is a subject this module can draw (a row read back from the database). */
export function isIllustrationSubject(value: unknown): value is IllustrationSubject {
  if (!value || typeof value !== 'object') return false
  const v = value as Record<string, unknown>
  return ['brand', 'name', 'unit', 'seed'].every((k) => typeof v[k] === 'string') && (PACK_FORMS as readonly unknown[]).includes(v.form)
}
