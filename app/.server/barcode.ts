/**
 * Barcodes on printed slips, drawn on the server as SVG with bwip-js (its `toSVG`, synchronous; the
 * library's README, "SVG (All Platforms)"; docs/decisions/0062-bulk-packing-slips-and-barcodes.md).
 *
 * Code 128 (ISO/IEC 15417) of the order number: every hand scanner reads it, and it packs the
 * number's digit pairs densely. Bars are 2 px a module (bwip-js's default scale 2: about 0.53 mm at
 * 96 px per inch, above the 0.25 mm a common scanner resolves), 12 mm tall, with the quiet zone of
 * 10 modules on each side ISO/IEC 15417 asks for. The number is printed under it as text by the page,
 * not drawn into the SVG, so it stays selectable and read by screen readers.
 */
import bwipjs from 'bwip-js/node'

/** The natural size of a barcode's SVG, px (its viewBox). */
export interface BarcodeSvg {
  svg: string
  width: number
  height: number
}

/** What an order number may hold: Code 128 set B's printable ASCII, at most 40 characters (ours: "OD" and digits). */
const ENCODABLE = /^[\x20-\x7e]{1,40}$/

/**
 * The Code 128 barcode of `text` as an SVG document string (no script, no text: bars only) and its
 * natural width and height in px.
 * @throws Error when `text` is empty, longer than 40 characters or not printable ASCII
 */
export function code128Svg(text: string): BarcodeSvg {
  if (!ENCODABLE.test(text)) throw new Error(`Cannot draw a Code 128 barcode of ${JSON.stringify(text)}`)
  const svg = bwipjs.toSVG({ bcid: 'code128', text, height: 12, paddingwidth: 10 })
  const [, width, height] = /viewBox="0 0 (\d+) (\d+)"/.exec(svg) ?? []
  return { svg, width: Number(width), height: Number(height) }
}
