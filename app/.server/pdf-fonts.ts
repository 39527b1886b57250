/**
 * Text in every Indian script for pdfkit documents (the invoice, a credit note): a string is split
 * into runs by script, each drawn in a font that has its glyphs, so a name or an address typed in
 * Devanagari, Bengali, Gurmukhi, Gujarati, Odia, Tamil, Telugu, Kannada or Malayalam prints shaped
 * (conjuncts, reordered vowel signs), and the ₹ sign prints.
 *
 * - Latin text stays in the standard Helvetica (its WinAnsi encoding: no ₹, no Indic letters).
 * - Each Indic script is drawn in its Noto Sans font from `@fontsource/noto-sans-<script>` (the
 *   script's subset: its letters, space, danda, ZWJ/ZWNJ, mostly ₹), regular 400 or bold 700.
 *   The WOFF files, not WOFF2: fontkit 2.0.4 fails subsetting a WOFF2 font with composite glyphs
 *   ("Offset is outside the bounds of the DataView"); pdfkit embeds only the glyphs used (pdfkit
 *   docs, "Fonts": embedded fonts are subset).
 * - Characters of no script (digits, punctuation, spaces, ₹, combining marks) follow the run before
 *   them when its font has the glyph, else Helvetica when WinAnsi has it, else the next script's
 *   font, else the first Indic font that has it (₹ after Latin text: Devanagari's).
 * - Shaped text reorders glyphs (the vowel sign of "कि" is drawn before its consonant), so a glyph's
 *   ToUnicode entry alone would extract "िक": each Indic run is marked content with its typed text
 *   as /ActualText (ISO 32000-1 §14.9.4, "Replacement Text"), which text extraction (poppler's
 *   pdftotext, copy and paste) returns instead.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import * as fontkit from 'fontkit'

/** The pdfkit document as this module uses it (a `PDFKit.PDFDocument`). */
type Doc = PDFKit.PDFDocument
type Features = PDFKit.Mixins.OpenTypeFeatures[]
/** pdfkit's text options, plus `bold`: the bold face of each script. */
export type ScriptTextOptions = PDFKit.Mixins.TextOptions & { bold?: boolean }

/** A run of text in one font: `font` is a standard font name or an Indic font's file path. */
export interface TextRun {
  text: string
  font: string
  /** The script's name for an Indic font (marked with /ActualText when drawn), null for Helvetica. */
  script: string | null
}

/** Indic scripts as Unicode names them (Unicode Standard Annex #24) and their fontsource package's script. */
const INDIC_SCRIPTS = [
  { script: 'Devanagari', pkg: 'devanagari', pattern: /\p{Script=Devanagari}/u },
  { script: 'Bengali', pkg: 'bengali', pattern: /\p{Script=Bengali}/u },
  { script: 'Gurmukhi', pkg: 'gurmukhi', pattern: /\p{Script=Gurmukhi}/u },
  { script: 'Gujarati', pkg: 'gujarati', pattern: /\p{Script=Gujarati}/u },
  { script: 'Oriya', pkg: 'oriya', pattern: /\p{Script=Oriya}/u },
  { script: 'Tamil', pkg: 'tamil', pattern: /\p{Script=Tamil}/u },
  { script: 'Telugu', pkg: 'telugu', pattern: /\p{Script=Telugu}/u },
  { script: 'Kannada', pkg: 'kannada', pattern: /\p{Script=Kannada}/u },
  { script: 'Malayalam', pkg: 'malayalam', pattern: /\p{Script=Malayalam}/u },
] as const

type IndicScript = (typeof INDIC_SCRIPTS)[number]

const require = createRequire(import.meta.url)

/** The WOFF file of a script's Noto Sans at a weight (an absolute path, resolved through the package's exports). */
function fontFile(s: IndicScript, bold: boolean): string {
  const weight = bold ? 700 : 400
  return require.resolve(`@fontsource/noto-sans-${s.pkg}/files/noto-sans-${s.pkg}-${s.pkg}-${weight}-normal.woff`)
}

/** Each Indic font's cmap, read once per process (the files never change while it runs). */
const cmaps = new Map<string, fontkit.Font>()
function cmapOf(file: string): fontkit.Font {
  let font = cmaps.get(file)
  if (!font) {
    font = fontkit.create(readFileSync(file))
    cmaps.set(file, font)
  }
  return font
}

/** WinAnsiEncoding's characters above 0x7E outside Latin-1 (ISO 32000-1 Annex D.2): what Helvetica can print besides Latin-1. */
const WIN_ANSI_EXTRA = new Set([...'€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ'].map((c) => c.codePointAt(0)!))

/** True when a standard 14 font (WinAnsi encoded by pdfkit) can print the code point. */
function winAnsiHas(cp: number): boolean {
  return (cp >= 0x20 && cp <= 0x7e) || (cp >= 0xa0 && cp <= 0xff) || cp === 0x0a || cp === 0x0d || cp === 0x09 || WIN_ANSI_EXTRA.has(cp)
}

function latinFont(bold: boolean): string {
  return bold ? 'Helvetica-Bold' : 'Helvetica'
}

function scriptOf(ch: string): IndicScript | null {
  return INDIC_SCRIPTS.find((s) => s.pattern.test(ch)) ?? null
}

/** True when the character belongs to a script (a letter of it), false for digits, punctuation, marks and symbols. */
function isStrong(ch: string): boolean {
  return /[\p{L}]/u.test(ch) && !/\p{Script=Common}|\p{Script=Inherited}/u.test(ch)
}

/**
 * Splits `text` into runs by script (see the module's comment for the rule): consecutive characters
 * in the same font form one run. Newlines stay in their run (pdfkit breaks lines on them).
 */
export function textRuns(text: string, opts: { bold?: boolean } = {}): TextRun[] {
  const bold = opts.bold ?? false
  const chars = [...text]
  const scripts = chars.map(scriptOf)
  const runs: TextRun[] = []
  const push = (ch: string, font: string, script: string | null) => {
    const last = runs.at(-1)
    if (last && last.font === font) last.text += ch
    else runs.push({ text: ch, font, script })
  }
  chars.forEach((ch, i) => {
    const script = scripts[i]
    if (script) return push(ch, fontFile(script, bold), script.script)
    const cp = ch.codePointAt(0)!
    if (isStrong(ch) || ch === '\n') return push(ch, latinFont(bold), null)
    const prev = runs.at(-1)
    if (prev?.script && cmapOf(prev.font).hasGlyphForCodePoint(cp)) return push(ch, prev.font, prev.script)
    if (winAnsiHas(cp)) return push(ch, latinFont(bold), null)
    const next = scripts.slice(i + 1).find((s) => s !== null)
    const candidates = next ? [next, ...INDIC_SCRIPTS] : INDIC_SCRIPTS
    const holder = candidates.find((s) => cmapOf(fontFile(s, bold)).hasGlyphForCodePoint(cp))
    if (holder) return push(ch, fontFile(holder, bold), holder.script)
    push(ch, latinFont(bold), null)
  })
  return runs
}

/** Helvetica's and Helvetica-Bold's ascender, per 1000 of the size (their AFM files, "Ascender 718"). */
const HELVETICA_ASCENDER = 718

/** The ascender of a run's font per 1000 of the size, as pdfkit places the top of a line by it. */
function ascenderOf(run: TextRun): number {
  if (!run.script) return HELVETICA_ASCENDER
  const font = cmapOf(run.font)
  return (font.ascent * 1000) / font.unitsPerEm
}

/**
 * pdfkit's `baseline` for every run of a line: by default each font puts its baseline its own
 * ascender below the line's top, so runs in different fonts would sit at different heights (and
 * text extraction would read them as different lines); a number puts them all at the tallest one's.
 */
function sharedBaseline(doc: Doc, runs: TextRun[]): number {
  return -(Math.max(...runs.map(ascenderOf)) / 1000) * pdfkitState(doc)._fontSize
}

/** Selects a run's font on the document (an Indic font is cached by the document under its path). */
function selectFont(doc: Doc, run: TextRun): void {
  doc.font(run.font)
}

/**
 * The OpenType features to shape a run with: the font's defaults, unless fontkit fails on them.
 * Noto Sans Gurmukhi's above-base mark positioning (`abvm`) has anchors fontkit 2.0.4 reads as
 * null ("Cannot read properties of null (reading 'xCoordinate')", e.g. ਪੰ, ਸ੍ਰੀ); without it the
 * tippi and bindi keep their drawn place over the letter, a little less exact, instead of no PDF.
 */
function featuresOf(run: TextRun): Features | undefined {
  if (!run.script) return undefined
  try {
    cmapOf(run.font).layout(run.text)
    return undefined
  } catch {
    // pdfkit hands `features` to fontkit's layout, which takes an object of features on and off too
    // (fontkit README, "font.layout"); @types/pdfkit knows only the list form.
    return { abvm: false } as unknown as Features
  }
}

/** Draws one run, an Indic one inside a Span whose /ActualText is the typed text. */
function drawRun(doc: Doc, run: TextRun, draw: (features: { features?: Features }) => void): void {
  selectFont(doc, run)
  const features = featuresOf(run)
  if (!run.script) return draw(features ? { features } : {})
  const setFont = `/${pdfkitState(doc)._font.id} ${pdfkitState(doc)._fontSize} Tf`
  doc.addContent(setFont).markContent('Span', { actual: run.text.replace(/\n/g, ' ') })
  draw(features ? { features } : {})
  // pdfkit draws each piece of text inside `q <flip> cm … /F Tf … Q`, so around it the page's state
  // has neither the glyphs' transformation nor their font; a reader placing the replacement text
  // by the state at BDC and EMC (poppler does) would put it elsewhere, zero high, and pdftotext
  // would read it as another line. So BDC and EMC get the run's font (text state may be set
  // outside a text object, ISO 32000-1 §9.3.1; every piece of text sets its own), and EMC the same
  // flip, applied again after it (a flip is its own inverse).
  const flip = `1 0 0 -1 0 ${doc.page.height} cm`
  doc.addContent(`${flip} ${setFont}`).endMarkedContent().addContent(flip)
}

/** pdfkit's current font and size, which it keeps in fields and has no getters for. */
function pdfkitState(doc: Doc): { _font: { id: string }; _fontSize: number } {
  return doc as unknown as { _font: { id: string }; _fontSize: number }
}

/**
 * Draws `text` as pdfkit's `doc.text(text, x, y, options)` does, each script in its font
 * (`textRuns`); `options.bold` picks the bold faces. Left-aligned text of several runs wraps as one
 * paragraph (pdfkit's `continued`); right-aligned or centred text of several runs is laid out on one
 * line (amounts, short labels). Leaves Helvetica (bold when `bold`) selected.
 * @returns the document, for chaining
 */
export function drawText(doc: Doc, text: string, x?: number, y?: number, options: ScriptTextOptions = {}): Doc {
  const { bold = false, ...textOptions } = options
  // An Indic run is drawn word by word, each its own /ActualText, so a run wrapped onto two lines
  // extracts as two lines, each in its place.
  const runs = textRuns(text, { bold }).flatMap((r) => (r.script ? r.text.split(/(?<=\s)/).map((t) => ({ ...r, text: t })) : [r]))
  const align = textOptions.align ?? 'left'
  if (runs.length <= 1) {
    const run = runs[0] ?? { text, font: latinFont(bold), script: null }
    drawRun(doc, run, (f) => doc.text(run.text, x, y, { ...textOptions, ...f }))
  } else if (align === 'left' || align === 'justify') {
    const baseline = sharedBaseline(doc, runs)
    runs.forEach((run, i) => {
      const more = i < runs.length - 1
      drawRun(doc, run, (f) => {
        if (i === 0) doc.text(run.text, x, y, { ...textOptions, ...f, baseline, continued: more })
        else doc.text(run.text, { ...textOptions, ...f, baseline, continued: more })
      })
    })
  } else {
    // One line placed by its whole width: pdfkit aligns each `continued` piece on its own.
    const left = x ?? doc.x
    const top = y ?? doc.y
    const widths = runs.map((run) => (selectFont(doc, run), doc.widthOfString(run.text, { features: featuresOf(run) })))
    const total = widths.reduce((a, b) => a + b, 0)
    const box = textOptions.width ?? doc.page.width - doc.page.margins.right - left
    let at = left + Math.max(0, align === 'right' ? box - total : (box - total) / 2)
    let bottom = top
    const baseline = sharedBaseline(doc, runs)
    runs.forEach((run, i) => {
      drawRun(doc, run, (f) => doc.text(run.text, at, top, { ...f, baseline, lineBreak: false }))
      bottom = Math.max(bottom, doc.y)
      at += widths[i]!
    })
    doc.x = left
    doc.y = bottom
  }
  return doc.font(latinFont(bold))
}

/**
 * The height `drawText` gives `text` in `options.width` (points): the greatest of the heights
 * pdfkit measures for the whole text in each of its runs' fonts, so a table row drawn with it is
 * never too short. Leaves Helvetica (bold when `bold`) selected.
 */
export function heightOfText(doc: Doc, text: string, options: ScriptTextOptions = {}): number {
  const { bold = false, ...textOptions } = options
  const runs = textRuns(text, { bold })
  let height = 0
  for (const run of runs.length > 0 ? runs : [{ text, font: latinFont(bold), script: null }]) {
    selectFont(doc, run)
    height = Math.max(height, doc.heightOfString(text, { ...textOptions, features: featuresOf({ ...run, text }) }))
  }
  doc.font(latinFont(bold))
  return height
}
