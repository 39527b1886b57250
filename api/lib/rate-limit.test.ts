import { describe, expect, it } from 'vitest'
import { HttpError } from './errors.ts'
import { consume, createRateLimits } from './rate-limit.ts'

describe('rate limits', () => {
  it('answers 429 with a Retry-After in whole seconds once the budget is spent', async () => {
    const limits = createRateLimits({ loginByEmail: { points: 2, duration: 60 } })
    await consume(limits.loginByEmail, 'a@example.com')
    await consume(limits.loginByEmail, 'a@example.com')
    const err = await consume(limits.loginByEmail, 'a@example.com').catch((e: unknown) => e)
    expect(err).toBeInstanceOf(HttpError)
    expect((err as HttpError).status).toBe(429)
    expect((err as HttpError).extra.retryAfterSeconds).toBeGreaterThanOrEqual(1)
    expect((err as HttpError).extra.retryAfterSeconds).toBeLessThanOrEqual(60)
    // Another key has its own budget.
    await expect(consume(limits.loginByEmail, 'b@example.com')).resolves.toBeUndefined()
  })

  it('scales only the per-IP budgets by the multiplier', async () => {
    const limits = createRateLimits({}, 10)
    expect(limits.registerByIp.points).toBe(200)
    expect(limits.loginByIp.points).toBe(500)
    expect(limits.loginByEmail.points).toBe(10)
    expect(limits.otpByEmail.points).toBe(5)
  })
})

describe('rate limits shared through PostgreSQL', () => {
  it.runIf(process.env.TEST_DATABASE_URL)('counts one budget across processes (two limiter sets on one database)', async () => {
    const { createTestDatabase } = await import('../testing/db.ts')
    const database = await createTestDatabase()
    try {
      const overrides = { loginByEmail: { points: 3, duration: 60 } }
      const containerA = createRateLimits(overrides, 1, database.pool)
      const containerB = createRateLimits(overrides, 1, database.pool)
      await consume(containerA.loginByEmail, 'shared@example.com')
      await consume(containerB.loginByEmail, 'shared@example.com')
      await consume(containerA.loginByEmail, 'shared@example.com')
      const err = await consume(containerB.loginByEmail, 'shared@example.com').catch((e: unknown) => e)
      expect((err as HttpError).status).toBe(429)
      const rows = await database.pool!.query('select key, points from rate_limits')
      expect(rows.rows).toEqual([{ key: 'loginByEmail:shared@example.com', points: 4 }])
    } finally {
      await database.close()
    }
  })
})
