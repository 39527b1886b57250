/** api/lib/safe-text.ts: which text is refused, where it is found, and deep nesting. */
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { findUnsafeValue, MAX_JSON_DEPTH, unsafeTextReason } from './safe-text.ts'

describe('unsafeTextReason', () => {
  it('accepts ordinary text in any script, emoji and line breaks', () => {
    for (const ok of ['Amul Taaza', 'दूध 1 L', 'Café\tcrème\r\nline two', '🥛 milk', '']) expect(unsafeTextReason(ok), ok).toBeNull()
  })
  it('refuses NUL, other control characters, DEL and C1 controls', () => {
    for (const bad of ['a\u0000b', '\u0007', 'x\u001b[31m', '\u007f', '\u0085', '\u009f']) {
      expect(unsafeTextReason(bad), JSON.stringify(bad)).toBe('must not contain control characters')
    }
  })
  it('refuses unpaired surrogates but not pairs', () => {
    expect(unsafeTextReason('\ud83e')).toBe('must not contain unpaired surrogate characters')
    expect(unsafeTextReason('a\udd5bb')).toBe('must not contain unpaired surrogate characters')
    expect(unsafeTextReason('\ud83e\udd5b')).toBeNull()
  })
  it('never accepts a string PostgreSQL could not store as UTF-8 text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        if (unsafeTextReason(text) !== null) return
        expect(text.includes('\u0000')).toBe(false)
        expect(Buffer.from(text, 'utf8').toString('utf8')).toBe(text)
      }),
      { seed: 7, numRuns: 2000 },
    )
  })
})

describe('findUnsafeValue', () => {
  it('names the path of the first bad string or key', () => {
    expect(findUnsafeValue({ name: 'ok', more_details: { brand: 'a\u0000' } })).toEqual({
      path: 'more_details.brand',
      message: 'must not contain control characters',
    })
    expect(findUnsafeValue({ image: ['ok', '\ud800'] })).toEqual({
      path: 'image.1',
      message: 'must not contain unpaired surrogate characters',
    })
    expect(findUnsafeValue({ more_details: { 'bad\u0001key': 'x' } })?.path).toBe('more_details')
    expect(findUnsafeValue({ a: 1, b: [true, null, 'fine'] })).toBeNull()
  })
  it('refuses nesting deeper than the limit without recursion', () => {
    let deep: unknown = 'x'
    for (let i = 0; i < 100_000; i++) deep = [deep]
    expect(findUnsafeValue(deep)?.message).toBe(`is nested more than ${MAX_JSON_DEPTH} levels deep`)
    let ok: unknown = 'x'
    for (let i = 0; i < MAX_JSON_DEPTH; i++) ok = { a: ok }
    expect(findUnsafeValue(ok)).toBeNull()
  })
})
