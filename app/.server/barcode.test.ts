/**
 * The slips' barcode (app/.server/barcode.ts) read back as a scanner reads it: the SVG's bars are
 * measured into module widths and decoded with the Code 128 symbol table of ISO/IEC 15417 (sets B
 * and C, the shifts between them, the modulo-103 check symbol and the stop pattern), so the test
 * proves the bars carry the order number, not merely that an SVG was drawn.
 */
import { describe, expect, it } from 'vitest'
import { code128Svg } from './barcode.ts'

/** Code 128's bar/space width patterns by symbol value, 0..106 (ISO/IEC 15417, table 1; 106 is the stop). */
const PATTERNS = `212222 222122 222221 121223 121322 131222 122213 122312 132212 221213 221312 231212 112232 122132 122231
113222 123122 123221 223211 221132 221231 213212 223112 312131 311222 321122 321221 312212 322112 322211 212123 212321
232121 111323 131123 131321 112313 132113 132311 211313 231113 231311 112133 112331 132131 113123 113321 133121 313121
211331 231131 213113 213311 213131 311123 311321 331121 312113 312311 332111 314111 221411 431111 111224 111422 121124
121421 141122 141221 112214 112412 122114 122411 142112 142211 241211 221114 413111 241112 134111 111242 121142 121241
114212 124112 124211 411212 421112 421211 212141 214121 412121 111143 111341 131141 114113 114311 411113 411311 113141
114131 311141 411131 211412 211214 211232 2331112`.split(/\s+/)

/** The bars of a bwip-js SVG as [left, right] edges in px, left to right. */
function bars(svg: string): [number, number][] {
  const found: [number, number][] = []
  for (const [, width, d] of svg.matchAll(/<path[^>]*stroke-width="([\d.]+)"[^>]*d="([^"]+)"/g)) {
    for (const [, x] of d!.matchAll(/M([\d.]+) [\d.]+L/g)) found.push([Number(x) - Number(width) / 2, Number(x) + Number(width) / 2])
  }
  return found.sort((a, b) => a[0] - b[0])
}

/** Decodes the symbol: the text of sets B and C, after checking the start, the check symbol and the stop. */
function decode(svg: string): string {
  const edges = bars(svg)
  const module = Math.min(...edges.map(([l, r]) => r - l))
  // Widths in modules: bar, space, bar, … from the first bar to the last.
  const widths: number[] = []
  edges.forEach(([l, r], i) => {
    if (i > 0) widths.push(Math.round((l - edges[i - 1]![1]) / module))
    widths.push(Math.round((r - l) / module))
  })
  const symbols: number[] = []
  for (let i = 0; i + 6 <= widths.length - 7; i += 6) symbols.push(PATTERNS.indexOf(widths.slice(i, i + 6).join('')))
  expect(widths.slice(-7).join('')).toBe(PATTERNS[106])
  expect(symbols).not.toContain(-1)
  const [start, ...rest] = symbols
  const check = rest.pop()!
  expect(rest.reduce((sum, v, i) => sum + v * (i + 1), start!) % 103).toBe(check)
  let set = start === 105 ? 'C' : start === 104 ? 'B' : 'A'
  let text = ''
  for (const v of rest) {
    if (v === 99) set = 'C'
    else if (v === 100) set = 'B'
    else if (set === 'C') text += String(v).padStart(2, '0')
    else text += String.fromCharCode(v + 32)
  }
  return text
}

describe('the order number barcode', () => {
  it('is a Code 128 symbol a scanner decodes to the order number', () => {
    for (const number of ['OD2611290001', 'OD2611290123', 'OD261129000001']) {
      const { svg, width, height } = code128Svg(number)
      expect(svg.startsWith('<svg')).toBe(true)
      expect(decode(svg)).toBe(number)
      expect(width).toBeGreaterThan(100)
      expect(height).toBeGreaterThan(30)
    }
  })

  it('has a quiet zone of at least 10 modules on each side, and neither text nor script', () => {
    const { svg, width } = code128Svg('OD2611290001')
    const edges = bars(svg)
    const module = Math.min(...edges.map(([l, r]) => r - l))
    expect(edges[0]![0] / module).toBeGreaterThanOrEqual(10)
    expect((width - edges.at(-1)![1]) / module).toBeGreaterThanOrEqual(10)
    expect(svg).not.toMatch(/<text|<script|on\w+=/i)
  })

  it('refuses what Code 128 cannot carry', () => {
    expect(() => code128Svg('')).toThrow()
    expect(() => code128Svg('OD\u0000')).toThrow()
    expect(() => code128Svg('ऑर्डर')).toThrow()
  })
})
