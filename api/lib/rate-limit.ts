/**
 * Rate limits (OWASP Authentication Cheat Sheet, "Login throttling") with rate-limiter-flexible.
 * In memory per process by default; for several app containers pass limiters backed by shared state
 * (rate-limiter-flexible's Redis or Postgres stores) with the same interface.
 */
import { RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible'
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
 * Default limits: points per duration (seconds). Tests pass smaller ones in `overrides`;
 * `perIpMultiplier` scales the per-IP budgets only (RATE_LIMIT_IP_MULTIPLIER, for a browser test
 * suite or an office behind one NAT address); per-email budgets never change.
 */
export function createRateLimits(
  overrides: Partial<Record<keyof RateLimits, { points: number; duration: number }>> = {},
  perIpMultiplier = 1,
): RateLimits {
  const make = (name: keyof RateLimits, points: number, duration: number) => {
    const scaled = name.endsWith('ByIp') ? Math.max(1, Math.round(points * perIpMultiplier)) : points
    return new RateLimiterMemory({ keyPrefix: name, points: scaled, duration, ...overrides[name] })
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
