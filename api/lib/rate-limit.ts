/**
 * Rate limits (OWASP Authentication Cheat Sheet, "Login throttling") with rate-limiter-flexible.
 * In memory per process by default; for several app containers pass limiters backed by shared state
 * (rate-limiter-flexible's Redis or Postgres stores) with the same interface.
 */
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible'
import type pg from 'pg'
import { TooManyRequests } from './errors.ts'

export interface RateLimits {
  loginByIp: RateLimiterAbstract
  loginByEmail: RateLimiterAbstract
  registerByIp: RateLimiterAbstract
  otpByIp: RateLimiterAbstract
  otpByEmail: RateLimiterAbstract
  /** Code checks per client IP (verify-forgot-password-otp), apart from the code requests above. */
  otpVerifyByIp: RateLimiterAbstract
}

/**
 * Default limits: points per duration (seconds). With `sharedStore` (a PostgreSQL pool) the counters
 * live in the database and are shared by every process; without, in this process's memory. Tests pass smaller ones in `overrides`;
 * `perIpMultiplier` scales the per-IP budgets only (RATE_LIMIT_IP_MULTIPLIER, for a browser test
 * suite or an office behind one NAT address); per-email budgets never change.
 */
export function createRateLimits(
  overrides: Partial<Record<keyof RateLimits, { points: number; duration: number }>> = {},
  perIpMultiplier = 1,
  sharedStore?: pg.Pool,
): RateLimits {
  const make = (name: keyof RateLimits, points: number, duration: number) => {
    const scaled = name.endsWith('ByIp') ? Math.max(1, Math.round(points * perIpMultiplier)) : points
    const opts = { keyPrefix: name, points: scaled, duration, ...overrides[name] }
    if (!sharedStore) return new RateLimiterMemory(opts)
    // Counted in PostgreSQL (table rate_limits, made by migration 0002) so that every app
    // container shares one budget; should the database fail, each process falls back to memory
    // rather than letting sign-ins through unlimited or failing them.
    return new RateLimiterPostgres({
      ...opts,
      storeClient: sharedStore,
      storeType: 'pool',
      tableName: 'rate_limits',
      tableCreated: true,
      clearExpiredByTimeout: false,
      insuranceLimiter: new RateLimiterMemory(opts),
    })
  }
  return {
    loginByIp: make('loginByIp', 50, 15 * 60),
    loginByEmail: make('loginByEmail', 10, 15 * 60),
    registerByIp: make('registerByIp', 20, 60 * 60),
    otpByIp: make('otpByIp', 20, 60 * 60),
    otpByEmail: make('otpByEmail', 5, 60 * 60),
    otpVerifyByIp: make('otpVerifyByIp', 50, 60 * 60),
  }
}

/** Consumes one point for `key`; throws a 429 HttpError with Retry-After when the limit is spent. */
export async function consume(limiter: RateLimiterAbstract, key: string): Promise<void> {
  try {
    await limiter.consume(key)
  } catch (err) {
    if (err instanceof RateLimiterRes) throw TooManyRequests(err.msBeforeNext / 1000)
    throw err
  }
}
