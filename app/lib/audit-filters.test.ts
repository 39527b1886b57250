import { describe, expect, it } from 'vitest'
import { auditChanges, auditFilterQuery, auditValueText, readAuditFilters } from './audit-filters.ts'

describe('the audit page filters', () => {
  it('reads the set fields, drops refused ones with a message, and writes them back with the page', () => {
    const { query, errors } = readAuditFilters(
      new URLSearchParams('actor=%20ravi%20&entity=product&action=launch&from=2026-11-01&to=2026-02-30&page=2'),
    )
    expect(query).toEqual({ actor: 'ravi', entity: 'product', from: '2026-11-01', page: '2' })
    expect(errors).toEqual([expect.stringMatching(/^Action: /), expect.stringMatching(/^To: A date must be a real day/)])
    expect(auditFilterQuery(query, 3)).toBe('actor=ravi&entity=product&from=2026-11-01&page=3')
    expect(auditFilterQuery({}, 1)).toBe('')
  })

  it('drops an end date before the start date', () => {
    const { query, errors } = readAuditFilters(new URLSearchParams('from=2026-11-05&to=2026-11-01'))
    expect(query).toEqual({ from: '2026-11-05' })
    expect(errors).toEqual(['To: The start date must not be after the end date'])
  })

  it('shows values and changes as text', () => {
    expect(auditValueText(null)).toBe('—')
    expect(auditValueText(['a', 'b'])).toBe('a, b')
    expect(auditValueText(170)).toBe('170')
    expect(auditValueText(false)).toBe('false')
    expect(auditChanges({ sellingPrice: 180 }, { sellingPrice: 170 })).toEqual([{ field: 'sellingPrice', before: '180', after: '170' }])
    expect(auditChanges(null, { name: 'Dal' })).toEqual([{ field: 'name', before: '—', after: 'Dal' }])
    expect(auditChanges({ name: 'Dal' }, null)).toEqual([{ field: 'name', before: 'Dal', after: '—' }])
  })
})
