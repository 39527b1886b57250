/** The part of fontkit (pdfkit's font reader) app/.server/pdf-fonts.ts uses; it ships no types. */
declare module 'fontkit' {
  interface Font {
    /** Ascent above the baseline and the em, in font units (fontkit README, "Metrics"). */
    ascent: number
    unitsPerEm: number
    /** True when the font's cmap maps the code point to a glyph (fontkit README, "font.hasGlyphForCodePoint"). */
    hasGlyphForCodePoint(codePoint: number): boolean
    /** Shapes a string with OpenType features on or off (fontkit README, "font.layout"); throws on some broken tables. */
    layout(text: string, features?: Record<string, boolean>): unknown
  }
  export function create(buffer: Buffer): Font
}
