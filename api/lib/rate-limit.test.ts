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
