import { describe, expect, it } from 'vitest'
import { HttpError } from './errors.ts'
import { consume, consumeEach, createRateLimits, LOGIN_FREE_FAILURES, LOGIN_MAX_DELAY_MS, loginDelayMs } from './rate-limit.ts'

describe('rate limits', () => {
  it('answers 429 with a Retry-After in whole seconds once the budget is spent', async () => {
    const limits = createRateLimits({ registerByIp: { points: 2, duration: 60 } })
    await consume(limits.registerByIp, 'a@example.com')
    await consume(limits.registerByIp, 'a@example.com')
    const err = await consume(limits.registerByIp, 'a@example.com').catch((e: unknown) => e)
    expect(err).toBeInstanceOf(HttpError)
    expect((err as HttpError).status).toBe(429)
    expect((err as HttpError).extra.retryAfterSeconds).toBeGreaterThanOrEqual(1)
    expect((err as HttpError).extra.retryAfterSeconds).toBeLessThanOrEqual(60)
    // Another key has its own budget.
    await expect(consume(limits.registerByIp, 'b@example.com')).resolves.toBeUndefined()
  })

  it('scales only the per-IP and per-cart budgets by the multiplier', async () => {
    const limits = createRateLimits({}, 10)
    expect(limits.registerByIp.points).toBe(200)
    expect(limits.cartWriteByIp.points).toBe(6000)
    expect(limits.cartWriteByCart.points).toBe(1200)
    expect(limits.orderByUser.points).toBe(30)
    expect(limits.loginFailByIp.points).toBe(500)
    expect(limits.loginFailByEmailIp.points).toBe(10)
    expect(limits.loginFailByEmail.points).toBe(1000)
    expect(limits.otpCooldownByEmail.points).toBe(1)
  })
})

describe('rate limits shared through PostgreSQL', () => {
  it.runIf(process.env.TEST_DATABASE_URL)('counts one budget across processes (two limiter sets on one database)', async () => {
    const { createTestDatabase } = await import('../testing/db.ts')
    const database = await createTestDatabase()
    try {
      const overrides = { registerByIp: { points: 3, duration: 60 } }
      const containerA = createRateLimits(overrides, 1, database.pool)
      const containerB = createRateLimits(overrides, 1, database.pool)
      await consume(containerA.registerByIp, 'shared@example.com')
      await consume(containerB.registerByIp, 'shared@example.com')
      await consume(containerA.registerByIp, 'shared@example.com')
      const err = await consume(containerB.registerByIp, 'shared@example.com').catch((e: unknown) => e)
      expect((err as HttpError).status).toBe(429)
      const rows = await database.pool!.query('select key, points from rate_limits')
      expect(rows.rows).toEqual([{ key: 'registerByIp:shared@example.com', points: 4 }])
    } finally {
      await database.close()
    }
  })
})

describe("consumeEach (a cart write's two budgets in one statement)", () => {
  it("in memory: spends each budget, and refuses with the spent one's wait", async () => {
    const limits = createRateLimits({ cartWriteByIp: { points: 3, duration: 60 }, cartWriteByCart: { points: 2, duration: 60 } })
    const spends = [
      { limiter: limits.cartWriteByIp, key: '192.0.2.1' },
      { limiter: limits.cartWriteByCart, key: 'guest:a' },
    ]
    await consumeEach(limits, spends, 'slow down')
    await consumeEach(limits, spends, 'slow down')
    const err = await consumeEach(limits, spends, 'slow down').catch((e: unknown) => e)
    expect((err as HttpError).status).toBe(429)
    expect((err as HttpError).message).toBe('slow down')
    expect((await limits.cartWriteByCart.get('guest:a'))?.consumedPoints).toBe(3)
  })

  it.runIf(process.env.TEST_DATABASE_URL)(
    'on PostgreSQL: one row per budget as the limiters count them; concurrent writes never pass a budget',
    async () => {
      const { createTestDatabase } = await import('../testing/db.ts')
      const database = await createTestDatabase()
      try {
        const overrides = { cartWriteByIp: { points: 7, duration: 60 }, cartWriteByCart: { points: 5, duration: 60 } }
        const limits = createRateLimits(overrides, 1, database.pool)
        const spends = [
          { limiter: limits.cartWriteByIp, key: '198.51.100.0/24' },
          { limiter: limits.cartWriteByCart, key: 'guest:b' },
        ]
        // Twelve at once: exactly the cart's five pass, whatever the interleaving.
        const outcomes = await Promise.allSettled(Array.from({ length: 12 }, () => consumeEach(limits, spends, 'slow down')))
        expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(5)
        const refusal = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult
        expect((refusal.reason as HttpError).status).toBe(429)
        expect((refusal.reason as HttpError).extra.retryAfterSeconds).toBeGreaterThanOrEqual(1)
        expect((refusal.reason as HttpError).extra.retryAfterSeconds).toBeLessThanOrEqual(60)
        const rows = await database.pool!.query('select key, points from rate_limits order by key')
        expect(rows.rows).toEqual([
          { key: 'cartWriteByCart:guest:b', points: 12 },
          { key: 'cartWriteByIp:198.51.100.0/24', points: 12 },
        ])
        // The limiters read the same rows: the address's budget (7) is spent too.
        expect((await limits.cartWriteByIp.get('198.51.100.0/24'))?.remainingPoints).toBe(0)
        // An expired window starts again at one point.
        await database.pool!.query('update rate_limits set expire = 1')
        await consumeEach(limits, spends)
        const again = await database.pool!.query('select points from rate_limits order by key')
        expect(again.rows).toEqual([{ points: 1 }, { points: 1 }])
      } finally {
        await database.close()
      }
    },
  )
})

describe('loginDelayMs (the per-email slow-down)', () => {
  it('is free for the first failures, then grows, and never passes the cap', () => {
    expect(loginDelayMs(0)).toBe(0)
    expect(loginDelayMs(LOGIN_FREE_FAILURES)).toBe(0)
    expect(loginDelayMs(LOGIN_FREE_FAILURES + 1)).toBe(100)
    expect(loginDelayMs(LOGIN_FREE_FAILURES + 6)).toBe(200)
    expect(loginDelayMs(LOGIN_FREE_FAILURES + 11)).toBe(400)
    expect(loginDelayMs(10_000)).toBe(LOGIN_MAX_DELAY_MS)
  })
})
