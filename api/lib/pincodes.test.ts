/**
 * api/lib/pincodes.ts, the PIN code data of docs/stores.md ("Pincode data"): a PIN code's area,
 * district, state and centre from the npm data, the haversine distance, and the nearest known PIN code
 * to coordinates.
 */
import { describe, expect, it } from 'vitest'
import { areaName, distanceKm, knownPincodeCount, lookupPincode, nearestPincode, pickArea } from './pincodes.ts'

describe('PIN code lookup', () => {
  it('knows about 18,900 PIN codes, each with an area, district, state and a centre in India', () => {
    const count = knownPincodeCount()
    expect(count).toBeGreaterThan(18_000)
    expect(count).toBeLessThan(19_500)
  })

  it('names the seeded stores’ areas and Agartala, with their states and centres', () => {
    expect(lookupPincode('560038')).toMatchObject({ pincode: '560038', area: 'Indiranagar', state: 'Karnataka' })
    expect(lookupPincode('560034')).toMatchObject({ area: 'Koramangala', state: 'Karnataka' })
    expect(lookupPincode('799001')).toMatchObject({ area: 'Agartala', state: 'Tripura' })
    const indiranagar = lookupPincode('560038')!
    // Bengaluru lies near 12.97° N, 77.59° E.
    expect(indiranagar.lat).toBeGreaterThan(12.8)
    expect(indiranagar.lat).toBeLessThan(13.1)
    expect(indiranagar.lng).toBeGreaterThan(77.5)
    expect(indiranagar.lng).toBeLessThan(77.8)
  })

  it('knows nothing of a PIN code the data lacks', () => {
    expect(lookupPincode('999999')).toBeUndefined()
    expect(lookupPincode('56003')).toBeUndefined()
  })

  it('takes the office name most others begin with as the area, without "(City)" or "S.O"', () => {
    expect(areaName('Indiranagar (Bangalore) S.O')).toBe('Indiranagar (Bangalore)')
    expect(areaName('Indiranagar (Bangalore)')).toBe('Indiranagar')
    expect(areaName('Hauz Khas S.O')).toBe('Hauz Khas')
    expect(areaName('Connaught Place G.P.O.')).toBe('Connaught Place')
    expect(pickArea(['Agara', 'Koramangala', 'Koramangala I Block', 'Koramangala VI Bk'])).toBe('Koramangala')
    expect(pickArea(['Madiwala', 'Hosur Road'])).toBe('Madiwala')
  })
})

describe('distance', () => {
  it('is 0 from a point to itself and the great-circle distance otherwise', () => {
    const p = { lat: 12.9784, lng: 77.6408 }
    expect(distanceKm(p, p)).toBe(0)
    // One degree of latitude on the mean sphere: 2πR / 360 = 111.195 km.
    expect(distanceKm({ lat: 0, lng: 0 }, { lat: 1, lng: 0 })).toBeCloseTo(111.195, 2)
    // Symmetric.
    const q = { lat: 28.6315, lng: 77.2167 }
    expect(distanceKm(p, q)).toBeCloseTo(distanceKm(q, p), 9)
    // Bengaluru to New Delhi, about 1,740 km as the crow flies.
    expect(distanceKm(p, q)).toBeGreaterThan(1_700)
    expect(distanceKm(p, q)).toBeLessThan(1_780)
  })

  it('puts Koramangala within a few km of Indiranagar', () => {
    const km = distanceKm(lookupPincode('560038')!, lookupPincode('560034')!)
    expect(km).toBeGreaterThan(2)
    expect(km).toBeLessThan(8)
  })
})

describe('nearest PIN code', () => {
  it("is the PIN code itself at its own centre, and the nearest one's near it", () => {
    const place = lookupPincode('110016')!
    expect(nearestPincode(place)?.pincode).toBe('110016')
    expect(nearestPincode({ lat: place.lat + 0.001, lng: place.lng })?.pincode).toBe('110016')
    expect(nearestPincode({ lat: 12.9784, lng: 77.6408 })?.pincode).toBe('560038')
  })
})
