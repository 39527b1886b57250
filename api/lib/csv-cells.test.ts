import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { CSV_BOM, guardCell, unguardCell } from './csv-cells.ts'

describe('CSV cells (OWASP "CSV Injection")', () => {
  it('guards every cell a spreadsheet would run as a formula, and only those', () => {
    for (const cell of ['=1', '+1', '-1', '@x', '\tx', '\rx', "'=1", "''+2"]) expect(guardCell(cell)).toBe(`'${cell}`)
    for (const cell of ['Asha', "'quoted", '1-2', '', ' =1']) expect(guardCell(cell)).toBe(cell)
    expect(guardCell(null)).toBe('')
    expect(guardCell(undefined)).toBe('')
  })

  it('round-trips every value: unguard(guard(v)) is v, and a guarded cell never starts a formula', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom("'", '=', '+', '-', '@', '\t', '\r', 'a', '1', ' ') }), (value) => {
        expect(unguardCell(guardCell(value))).toBe(value)
        expect(guardCell(value)).not.toMatch(/^[=+\-@\t\r]/)
      }),
    )
  })

  it('the byte order mark is U+FEFF, three bytes in UTF-8', () => {
    expect([...new TextEncoder().encode(CSV_BOM)]).toEqual([0xef, 0xbb, 0xbf])
  })
})
