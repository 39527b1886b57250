/**
 * Rate limits (OWASP Authentication Cheat Sheet, "Login throttling") with rate-limiter-flexible.
 * Decision: docs/decisions/0009-rate-limits.md.
 * In memory per process by default; for several app containers pass limiters backed by shared state
 * (rate-limiter-flexible's Redis or Postgres stores) with the same interface.
 */
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible'
import type pg from 'pg'
import { TooManyRequests } from './errors.ts'

export interface RateLimits {
  /** Failed sign-ins per client IP (password spraying across accounts). */
  loginFailByIp: RateLimiterAbstract
  /** Consecutive failed sign-ins per (email, IP) pair: strict; a success resets it. */
  loginFailByEmailIp: RateLimiterAbstract
  /** Failed sign-ins per email from anywhere: never refuses, only slows answers (`loginDelayMs`). */
  loginFailByEmail: RateLimiterAbstract
  registerByIp: RateLimiterAbstract
  otpByIp: RateLimiterAbstract
  /** One recovery code per email per cool-down (a minute), not an hour-long budget. */
  otpCooldownByEmail: RateLimiterAbstract
  /** Code checks per client IP (verify-forgot-password-otp), apart from the code requests above. */
  otpVerifyByIp: RateLimiterAbstract
  /** SMS codes sent per client address group (phone sign-in and mobile verification together). */
  smsSendByIp: RateLimiterAbstract
  /** SMS codes sent to one mobile number, whoever asks (SMS pumping; OWASP Authentication Cheat Sheet). */
  smsSendByMobile: RateLimiterAbstract
  /** SMS code checks per client address group. */
  smsVerifyByIp: RateLimiterAbstract
  /** Searches per client IP that the catalogue cache could not answer (each costs database time). */
  searchByIp: RateLimiterAbstract
  /**
   * Cart writes (add, set, remove, merge) per cart: a user's or a guest cart id's. Only the cart's
   * holder can spend it, so nobody else can lock an owner out of their cart.
   */
  cartWriteByCart: RateLimiterAbstract
  /**
   * Guest cart writes per client address group (api/lib/client-ip.ts `addressGroup`: an IPv6 /64 as
   * one), the first line of a new guest cart included. Signed-in shoppers are not counted here.
   */
  cartWriteByIp: RateLimiterAbstract
  /** Order placements per user (a retried placement with the same key is not counted twice: it answers before). */
  orderByUser: RateLimiterAbstract
  /**
   * Photos of problem reports uploaded per shopper (docs/help-after-delivery.md): each is decoded and
   * re-encoded by sharp, so one account cannot spend the server's CPU and storage without bound.
   */
  issuePhotoByUser: RateLimiterAbstract
  /** Payment provider webhooks per client IP (a signature is checked first; this bounds the checking). */
  paymentWebhookByIp: RateLimiterAbstract
  /** Payment callbacks per client IP (each may ask the provider once). */
  paymentCallbackByIp: RateLimiterAbstract
  /** Waits `ms` milliseconds (the sign-in slow-down); tests replace it to record the delays. */
  sleep: (ms: number) => Promise<void>
  /**
   * The PostgreSQL pool the counters live in (table `rate_limits`), when shared: `consumeEach` spends
   * several of them in one statement. Undefined when they are in this process's memory.
   */
  sharedStore?: pg.Pool
}

type LimiterName = Exclude<keyof RateLimits, 'sleep' | 'sharedStore'>

/** Cart writes one cart may make a minute: a quick shopper makes a few dozen, a script thousands. */
export const CART_WRITES_PER_CART = 120
/**
 * Guest cart writes one address (an IPv6 /64) may make a minute, across all its guest carts: about
 * a hundred shoppers behind one carrier NAT filling their carts at once.
 */
export const GUEST_CART_WRITES_PER_ADDRESS = 600

/** Problem-report photos one shopper may upload in an hour: a report has one per line, an order at most a few dozen lines. */
export const ISSUE_PHOTOS_PER_HOUR = 20

/**
 * Limits after OWASP's Authentication Cheat Sheet ("Protect against automated attacks") and
 * rate-limiter-flexible's login-endpoint protection pattern: failures are counted, not attempts, so
 * an owner who types the right password is never refused because someone else guessed wrong from
 * another address. Points per duration (seconds); `blockDuration` keeps a pair blocked after the
 * budget is spent.
 *
 * With `sharedStore` (a PostgreSQL pool) the counters live in the database and are shared by every
 * process; without, in this process's memory. Tests pass smaller ones in `overrides`;
 * `perIpMultiplier` scales the per-IP budgets and the per-cart write budget only
 * (RATE_LIMIT_IP_MULTIPLIER, for a browser test suite, a load test, or an office behind one NAT
 * address); per-email and per-user budgets never change.
 */
export function createRateLimits(
  overrides: Partial<Record<LimiterName, { points: number; duration: number; blockDuration?: number }>> & {
    sleep?: RateLimits['sleep']
  } = {},
  perIpMultiplier = 1,
  sharedStore?: pg.Pool,
): RateLimits {
  const make = (name: LimiterName, points: number, duration: number, blockDuration = 0) => {
    const scaled = name.endsWith('ByIp') || name.endsWith('ByCart') ? Math.max(1, Math.round(points * perIpMultiplier)) : points
    const opts = { keyPrefix: name, points: scaled, duration, blockDuration, ...overrides[name] }
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
    loginFailByIp: make('loginFailByIp', 50, 15 * 60),
    loginFailByEmailIp: make('loginFailByEmailIp', 10, 15 * 60, 15 * 60),
    loginFailByEmail: make('loginFailByEmail', 1000, 60 * 60),
    registerByIp: make('registerByIp', 20, 60 * 60),
    otpByIp: make('otpByIp', 20, 60 * 60),
    otpCooldownByEmail: make('otpCooldownByEmail', 1, 60),
    otpVerifyByIp: make('otpVerifyByIp', 50, 60 * 60),
    smsSendByIp: make('smsSendByIp', 20, 60 * 60),
    smsSendByMobile: make('smsSendByMobile', 5, 60 * 60),
    smsVerifyByIp: make('smsVerifyByIp', 60, 60 * 60),
    searchByIp: make('searchByIp', 120, 60),
    cartWriteByCart: make('cartWriteByCart', CART_WRITES_PER_CART, 60),
    cartWriteByIp: make('cartWriteByIp', GUEST_CART_WRITES_PER_ADDRESS, 60),
    orderByUser: make('orderByUser', 30, 60 * 60),
    issuePhotoByUser: make('issuePhotoByUser', ISSUE_PHOTOS_PER_HOUR, 60 * 60),
    paymentWebhookByIp: make('paymentWebhookByIp', 600, 60),
    paymentCallbackByIp: make('paymentCallbackByIp', 60, 60),
    sleep: overrides.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
    sharedStore,
  }
}

/** Failures of one email (from anywhere) answered at full speed; beyond them each answer slows. */
export const LOGIN_FREE_FAILURES = 10
/** The longest slow-down of one sign-in answer, in ms: enough to ruin guessing, small for an owner. */
export const LOGIN_MAX_DELAY_MS = 2000

/**
 * The slow-down of a sign-in answer after `failures` failed sign-ins of its email within the hour:
 * none up to {@link LOGIN_FREE_FAILURES}, then 100 ms doubling every 5 more failures, at most
 * {@link LOGIN_MAX_DELAY_MS}.
 */
export function loginDelayMs(failures: number): number {
  if (failures <= LOGIN_FREE_FAILURES) return 0
  return Math.min(LOGIN_MAX_DELAY_MS, Math.round(100 * 2 ** ((failures - LOGIN_FREE_FAILURES - 1) / 5)))
}

/** Throws 429 (Retry-After) when `limiter` has no points left for `key`; spends nothing. */
export async function assertNotSpent(limiter: RateLimiterAbstract, key: string): Promise<void> {
  const res = await limiter.get(key)
  if (res && res.remainingPoints <= 0 && res.msBeforeNext > 0) throw TooManyRequests(res.msBeforeNext / 1000)
}

/**
 * Sign-in protection around one password check (`check` throws `WRONG_CREDENTIALS` as a 400):
 * refused (429) when this IP has failed too often or this (email, IP) pair has failed 10 times in a
 * row; slowed when the email has failed often from anywhere; a failure is counted on the three
 * counters, a success clears the pair's.
 */
export async function protectLogin<T>(
  limits: RateLimits,
  email: string,
  ip: string,
  check: () => Promise<T>,
  isFailure: (err: unknown) => boolean,
): Promise<T> {
  const pair = `${email}|${ip}`
  await assertNotSpent(limits.loginFailByIp, ip)
  await assertNotSpent(limits.loginFailByEmailIp, pair)
  const byEmail = await limits.loginFailByEmail.get(email)
  const delay = loginDelayMs(byEmail?.consumedPoints ?? 0)
  if (delay > 0) await limits.sleep(delay)
  try {
    const result = await check()
    await limits.loginFailByEmailIp.delete(pair)
    return result
  } catch (err) {
    if (isFailure(err)) {
      // Penalties are counted whatever their own budgets say: the refusal happens on the next try.
      await Promise.all([limits.loginFailByIp.penalty(ip), limits.loginFailByEmailIp.penalty(pair), limits.loginFailByEmail.penalty(email)])
    }
    throw err
  }
}

/**
 * Consumes one point for `key`; throws a 429 HttpError with Retry-After (and `message`, else the
 * default "Too many attempts") when the limit is spent.
 */
export async function consume(limiter: RateLimiterAbstract, key: string, message?: string): Promise<void> {
  try {
    await limiter.consume(key)
  } catch (err) {
    if (err instanceof RateLimiterRes) throw TooManyRequests(err.msBeforeNext / 1000, message)
    throw err
  }
}

/** One point to spend: a limiter of `RateLimits` and the key it is counted under. */
export interface Spend {
  limiter: RateLimiterAbstract
  key: string
}

/**
 * The statement of `consumeEach` on PostgreSQL: rate-limiter-flexible's own upsert of
 * RateLimiterPostgres (one point, a window of the limiter's duration that starts again once expired),
 * for two keys in one statement. `$5` is now in ms since the epoch; the answer is each key's points
 * and expiry.
 */
const CONSUME_TWO = `
  INSERT INTO rate_limits (key, points, expire) VALUES ($1, 1, $2), ($3, 1, $4)
    ON CONFLICT (key) DO UPDATE SET
      points = CASE WHEN rate_limits.expire <= $5 THEN 1 ELSE rate_limits.points + 1 END,
      expire = CASE WHEN rate_limits.expire <= $5 THEN excluded.expire ELSE rate_limits.expire END
  RETURNING key, points, expire`

/**
 * Spends one point of each of `spends` (at most two, under different keys): with counters in
 * PostgreSQL (`limits.sharedStore`) in ONE statement, one round trip for a cart write's two budgets
 * instead of one each (docs/decisions/0055-what-an-add-to-cart-costs.md); in memory one after the
 * other. The counting is rate-limiter-flexible's (RateLimiterPostgres `_upsert`): the same rows, so
 * `get`, `consume` and this agree. Every point is spent even when another budget refuses (each budget
 * counts its own requests). Should the statement fail, each limiter is spent on its own (with its
 * in-memory insurance, as `consume`).
 * @throws 429 HttpError with Retry-After (and `message`) when any of the budgets is spent: the longest wait
 */
export async function consumeEach(limits: Pick<RateLimits, 'sharedStore'>, spends: Spend[], message?: string): Promise<void> {
  const pool = limits.sharedStore
  if (!pool || spends.length !== 2) {
    for (const { limiter, key } of spends) await consume(limiter, key, message)
    return
  }
  const now = Date.now()
  const keys = spends.map(({ limiter, key }) => limiter.getKey(key))
  // A duration of 0 never expires (rate-limiter-flexible's rule): no expiry stored.
  const expiry = (limiter: RateLimiterAbstract) => (limiter.duration > 0 ? now + limiter.duration * 1000 : null)
  let rows: Array<{ key: string; points: number; expire: string | number | null }>
  try {
    // raw SQL: the counters' table of rate-limiter-flexible, on the counter pool (no Drizzle there); a named prepared statement.
    const result = await pool.query({
      name: 'rate-limits-consume-two',
      text: CONSUME_TWO,
      values: [keys[0], expiry(spends[0]!.limiter), keys[1], expiry(spends[1]!.limiter), now],
    })
    rows = result.rows
  } catch {
    for (const { limiter, key } of spends) await consume(limiter, key, message)
    return
  }
  let waitMs = -1
  for (const row of rows) {
    const spend = spends[keys.indexOf(row.key)]
    if (!spend || row.points <= spend.limiter.points) continue
    waitMs = Math.max(waitMs, row.expire === null ? 0 : Math.max(Number(row.expire) - now, 0))
  }
  if (waitMs >= 0) throw TooManyRequests(waitMs / 1000, message)
}
