/**
 * The arithmetic of live tracking (contract/tracking.ts; app/lib/tracking-diagram.ts;
 * docs/delivery.md, "Live tracking"): the haversine distance, the arrival estimate from the distance
 * and the store's rider speed, the words, a new position's recomputed view, and the diagram's
 * projection to scale.
 */
import { describe, expect, it } from 'vitest'
import { arrivalWords, distanceWords, etaMinutes, haversineMetres, withPosition, type TrackingView } from '../../contract/tracking.ts'
import { projectDiagram } from './tracking-diagram.ts'

describe('haversineMetres', () => {
  it('is 0 for one point and about 111.2 km for a degree of latitude', () => {
    expect(haversineMetres({ lat: 12.97, lng: 77.64 }, { lat: 12.97, lng: 77.64 })).toBe(0)
    expect(haversineMetres({ lat: 0, lng: 0 }, { lat: 1, lng: 0 })).toBeCloseTo(111_195, -1)
  })

  it('measures a Bengaluru ride: Indiranagar to Koramangala is about 4.5 km, the same both ways', () => {
    const indiranagar = { lat: 12.9719, lng: 77.6412 }
    const koramangala = { lat: 12.9352, lng: 77.6245 }
    const d = haversineMetres(indiranagar, koramangala)
    expect(d).toBeGreaterThan(4_400)
    expect(d).toBeLessThan(4_600)
    expect(haversineMetres(koramangala, indiranagar)).toBeCloseTo(d, 6)
  })
})

describe('etaMinutes', () => {
  it('rides the distance at the store’s speed, rounded up, at least a minute', () => {
    expect(etaMinutes(5_000, 20)).toBe(15)
    expect(etaMinutes(5_001, 20)).toBe(16)
    expect(etaMinutes(1_700, 20)).toBe(6) // 5.1 minutes
    expect(etaMinutes(3_000, 10)).toBe(18) // a slower store's own speed
    expect(etaMinutes(0, 20)).toBe(1)
    expect(etaMinutes(10, 20)).toBe(1)
  })

  it('falls back to 20 km/h for a speed that is not positive', () => {
    expect(etaMinutes(5_000, 0)).toBe(15)
  })

  it('says it in words', () => {
    expect(arrivalWords(7)).toBe('Arriving in about 7 min')
    expect(distanceWords(846)).toBe('850 m')
    expect(distanceWords(2_449)).toBe('2.4 km')
  })
})

describe('withPosition', () => {
  it('recomputes the distance and the estimate from the new position', () => {
    const view: TrackingView = {
      riderFirstName: 'Ravi',
      store: { name: 'Indiranagar', lat: 12.9719, lng: 77.6412 },
      address: { lat: 12.9352, lng: 77.6245 },
      riderKmph: 20,
      position: null,
      distanceM: 4_500,
      etaMinutes: 14,
    }
    const moved = withPosition(view, { lat: 12.94, lng: 77.63, accuracyM: 10, recordedAt: '2026-11-29T10:00:00.000Z' })
    const d = Math.round(haversineMetres({ lat: 12.94, lng: 77.63 }, view.address))
    expect(moved.distanceM).toBe(d)
    expect(moved.etaMinutes).toBe(etaMinutes(d, 20))
    expect(moved.etaMinutes).toBeLessThan(view.etaMinutes)
    expect(moved.position).toEqual({ lat: 12.94, lng: 77.63, accuracyM: 10, recordedAt: '2026-11-29T10:00:00.000Z' })
  })
})

describe('projectDiagram', () => {
  const box = { width: 300, height: 200, margin: 20 }

  it('keeps north up and east right, inside the margins', () => {
    const { points } = projectDiagram(
      [
        { lat: 12.97, lng: 77.64 }, // store: north-east
        { lat: 12.95, lng: 77.62 }, // address: south-west
      ],
      box,
    )
    const [store, address] = points
    expect(store!.x).toBeGreaterThan(address!.x)
    expect(store!.y).toBeLessThan(address!.y)
    for (const p of points) {
      expect(p.x).toBeGreaterThanOrEqual(20 - 1e-9)
      expect(p.x).toBeLessThanOrEqual(280 + 1e-9)
      expect(p.y).toBeGreaterThanOrEqual(20 - 1e-9)
      expect(p.y).toBeLessThanOrEqual(180 + 1e-9)
    }
  })

  it('draws to scale: box distances are ground distances over one scale, whatever the direction', () => {
    const pts = [
      { lat: 12.9719, lng: 77.6412 },
      { lat: 12.9352, lng: 77.6245 },
      { lat: 12.955, lng: 77.66 },
    ]
    const { points, metresPerUnit, bar } = projectDiagram(pts, box)
    for (const [i, j] of [
      [0, 1],
      [1, 2],
      [0, 2],
    ] as const) {
      const drawn = Math.hypot(points[i]!.x - points[j]!.x, points[i]!.y - points[j]!.y) * metresPerUnit
      expect(drawn / haversineMetres(pts[i]!, pts[j]!)).toBeCloseTo(1, 2)
    }
    // The scale bar: a round length within a third of the width, drawn at the same scale.
    expect([50, 100, 200, 500, 1000, 2000, 5000, 10_000]).toContain(bar.metres)
    expect(bar.units).toBeLessThanOrEqual(100)
    expect(bar.units * metresPerUnit).toBeCloseTo(bar.metres, 6)
  })

  it('does not blow up three points in one place: centred, at least 100 m across', () => {
    const p = { lat: 12.97, lng: 77.64 }
    const { points, metresPerUnit } = projectDiagram([p, p, p], box)
    expect(points.every((q) => Number.isFinite(q.x) && Number.isFinite(q.y))).toBe(true)
    expect(points[0]).toEqual({ x: 150, y: 100 })
    expect(metresPerUnit).toBeCloseTo(100 / 160, 6)
  })
})
