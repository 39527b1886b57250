import { describe, expect, it } from 'vitest'
import { hashPassword, verifyDummyPassword, verifyPassword } from './passwords.ts'

describe('passwords', () => {
  it('hashes with argon2id at the OWASP parameters, salted', async () => {
    const a = await hashPassword('correct horse battery')
    const b = await hashPassword('correct horse battery')
    expect(a).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/)
    expect(a).not.toBe(b)
  })

  it('verifies the right password only', async () => {
    const hash = await hashPassword('correct horse battery')
    expect(await verifyPassword(hash, 'correct horse battery')).toBe(true)
    expect(await verifyPassword(hash, 'correct horse batterY')).toBe(false)
  })

  it('treats a malformed hash as a mismatch', async () => {
    expect(await verifyPassword('not-a-hash', 'anything')).toBe(false)
  })

  it('the dummy verification always fails', async () => {
    expect(await verifyDummyPassword('anything')).toBe(false)
  })
})
