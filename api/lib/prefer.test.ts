import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { applyMinimal, prefersMinimal } from './prefer.ts'

/** What `prefersMinimal` reads from a request with these headers, and the answer's Preference-Applied. */
async function read(headers: Record<string, string>): Promise<{ minimal: boolean; applied: string | null }> {
  const app = new Hono().get('/', (c) => {
    const minimal = prefersMinimal(c)
    if (minimal) applyMinimal(c)
    return c.json({ minimal })
  })
  const res = await app.request('/', { headers })
  return { minimal: ((await res.json()) as { minimal: boolean }).minimal, applied: res.headers.get('preference-applied') }
}

describe('Prefer: return=minimal (RFC 7240)', () => {
  it('is read alone, among other preferences, with parameters, quoted and in any case', async () => {
    for (const prefer of [
      'return=minimal',
      'respond-async, return=minimal',
      'return=minimal; foo=bar',
      'RETURN="Minimal"',
      ' wait=5 ,return = minimal',
    ])
      expect(await read({ prefer }), prefer).toEqual({ minimal: true, applied: 'return=minimal' })
  })

  it('is not read from another preference, another value or no header', async () => {
    for (const prefer of ['return=representation', 'respond-async', 'minimal', 'x-return=minimal', ''])
      expect(await read(prefer ? { prefer } : {}), prefer).toEqual({ minimal: false, applied: null })
  })
})
