/**
 * The plain diagram of live tracking (docs/delivery.md, "Live tracking"): the store, the rider and
 * the address drawn to scale in an SVG box, server-rendered, so it shows without JavaScript and
 * without a tile server. Points are projected equirectangularly around their mean latitude (east =
 * right, north = up, one scale for both axes: at a city's size the error is far below a metre per
 * hundred), then fitted into the box with a margin; a scale bar of a round length goes with it.
 */
import type { Point } from '../../contract/tracking.ts'

/** Metres per degree of latitude (mean; WGS 84 varies within half a percent). */
const METRES_PER_DEGREE = 111_195

/** One projected point, in the box's units (x right, y down). */
export interface DiagramPoint {
  x: number
  y: number
}

/** Round lengths a scale bar may take, metres. */
const BAR_LENGTHS = [50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000]

/**
 * Projects `points` into a `width` × `height` box with `margin` on every side, to scale.
 * @returns the points in order, the metres per box unit, and a scale bar (metres and its length in
 *   box units: the longest round length within a third of the width)
 */
export function projectDiagram(
  points: Point[],
  box: { width: number; height: number; margin: number },
): { points: DiagramPoint[]; metresPerUnit: number; bar: { metres: number; units: number } } {
  const lat0 = points.reduce((sum, p) => sum + p.lat, 0) / Math.max(1, points.length)
  const cos = Math.cos((lat0 * Math.PI) / 180)
  // Metres east and north of the first point.
  const plane = points.map((p) => ({
    e: (p.lng - points[0]!.lng) * cos * METRES_PER_DEGREE,
    n: (p.lat - points[0]!.lat) * METRES_PER_DEGREE,
  }))
  const minE = Math.min(...plane.map((p) => p.e))
  const maxE = Math.max(...plane.map((p) => p.e))
  const minN = Math.min(...plane.map((p) => p.n))
  const maxN = Math.max(...plane.map((p) => p.n))
  const innerW = box.width - 2 * box.margin
  const innerH = box.height - 2 * box.margin
  // At least 100 m across, so points on top of one another do not blow up the scale.
  const spanE = Math.max(maxE - minE, 100)
  const spanN = Math.max(maxN - minN, 100)
  const metresPerUnit = Math.max(spanE / innerW, spanN / innerH)
  // Centred in the box.
  const offX = box.margin + (innerW - (maxE - minE) / metresPerUnit) / 2
  const offY = box.margin + (innerH - (maxN - minN) / metresPerUnit) / 2
  const projected = plane.map((p) => ({ x: offX + (p.e - minE) / metresPerUnit, y: offY + (maxN - p.n) / metresPerUnit }))
  const limit = (box.width / 3) * metresPerUnit
  const metres = [...BAR_LENGTHS].reverse().find((m) => m <= limit) ?? BAR_LENGTHS[0]!
  return { points: projected, metresPerUnit, bar: { metres, units: metres / metresPerUnit } }
}
