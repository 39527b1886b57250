/**
 * /api/user on a fresh database (PGlite, or PostgreSQL with TEST_DATABASE_URL): register, login,
 * refresh rotation with reuse detection, logout revocation, user-details and the guards.
 */
import { eq } from 'drizzle-orm'
import { decodeJwt } from 'jose'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../../app.ts'
import { refreshTokens, users } from '../../db/schema.ts'
import { currentUser, requireAdmin } from '../../lib/auth.ts'
import { ok } from '../../lib/envelope.ts'
import { HttpError } from '../../lib/errors.ts'
import { createRateLimits } from '../../lib/rate-limit.ts'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import {
  CONTACT_ADMIN,
  createUser,
  EMAIL_TAKEN,
  PASSWORD_MISMATCH,
  REFRESH_REUSE_GRACE_MS,
  REFRESH_TOKEN_RACE,
  WRONG_CREDENTIALS,
} from './service.ts'

const PASSWORD = 'Basmati-Rice-2024'
const realClock = () => new Date()
let t: TestApp
let seq = 0
const newEmail = (tag = 'shopper') => `${tag}${++seq}@example.com`

beforeAll(async () => {
  // Roomy per-IP limits: every request here comes from the one address 'unknown'. The limits
  // themselves are tested below on a second app with small ones.
  t = await createTestApp({
    rateLimits: createRateLimits({
      registerByIp: { points: 1000, duration: 60 },
      loginFailByIp: { points: 1000, duration: 60 },
    }),
  })
  // A route behind requireAdmin, added before the router is first used; real admin routes come later.
  t.app.get('/api/test-only/admin', requireAdmin(t.deps), (c) => ok(c, 'admin ok', currentUser(c).id))
})
afterAll(() => t?.close())
afterEach(() => {
  t.deps.clock = realClock
})

async function registerUser(email = newEmail()) {
  const res = await t.call('user/register', { json: { name: 'Asha Rao', email, password: PASSWORD, confirmPassword: PASSWORD } })
  expect(res.status).toBe(201)
  return { email, user: res.body.data }
}

async function signIn(email: string) {
  const res = await t.call('user/login', { json: { email, password: PASSWORD } })
  expect(res.status).toBe(200)
  return res.body.data as { accesstoken: string; accessToken: string; refreshToken: string }
}

async function refresh(refreshToken: string) {
  return t.call('user/refresh-token', { method: 'POST', token: refreshToken })
}

const userCount = () => t.db.$count(users)

/** Every key anywhere in a JSON value. */
function allKeys(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(allKeys)
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => [k, ...allKeys(v)])
  return []
}

/** Set-Cookie headers by cookie name. */
function cookies(headers: Headers): Record<string, string> {
  return Object.fromEntries(headers.getSetCookie().map((line) => [line.slice(0, line.indexOf('=')), line]))
}

describe('POST /api/user/register', () => {
  it('creates a USER with a normalised email and answers the public user, never the hash', async () => {
    const res = await t.call('user/register', {
      json: { name: ' Asha Rao ', email: '  Asha.Rao@Example.COM ', password: PASSWORD, confirmPassword: PASSWORD },
    })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ message: 'User registered successfully', error: false, success: true })
    expect(res.body.data).toMatchObject({
      name: 'Asha Rao',
      email: 'asha.rao@example.com',
      role: 'USER',
      status: 'Active',
      verify_email: false,
      avatar: '',
      mobile: null,
      last_login_date: null,
      address_details: [],
      shopping_cart: [],
      orderHistory: [],
    })
    expect(res.body.data._id).toMatch(/^[0-9a-f]{24}$/)
    expect(new Date(res.body.data.createdAt).toISOString()).toBe(res.body.data.createdAt)
    expect(allKeys(res.body).filter((k) => /password|hash/i.test(k))).toEqual([])
    expect(JSON.stringify(res.body)).not.toContain('$argon2')

    const [row] = await t.db.select().from(users).where(eq(users.id, res.body.data._id))
    expect(row.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/)
  })

  const good = { name: 'Ravi', email: 'ravi@example.com', password: PASSWORD, confirmPassword: PASSWORD }
  it.each([
    ['an empty object', {}],
    ['a missing name', { ...good, name: undefined }],
    ['a missing confirmPassword', { ...good, confirmPassword: undefined }],
    ['a number for email', { ...good, email: 42 }],
    ['a query object for email', { ...good, email: { $ne: null } }],
    ['a query object for password', { ...good, password: { $ne: null }, confirmPassword: { $ne: null } }],
    ['an invalid email', { ...good, email: 'ravi@' }],
    ['a 7-character password', { ...good, password: 'short12', confirmPassword: 'short12' }],
    ['a 129-character password', { ...good, password: 'p'.repeat(129), confirmPassword: 'p'.repeat(129) }],
    ['a blank name', { ...good, name: '   ' }],
    ['an array body', [good]],
  ])('answers 400 with issues and writes nothing for %s', async (_label, json) => {
    const before = await userCount()
    const res = await t.call('user/register', { json })
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ error: true, success: false })
    expect(res.body.issues.length).toBeGreaterThan(0)
    expect(await userCount()).toBe(before)
  })

  it('counts the password in characters as its message says (an emoji is one): 4 emoji are too short, 100 are fine', async () => {
    const four = '😀🔒🍚🥛'
    const short = await t.call('user/register', {
      json: { name: 'Asha', email: `emoji-short-${process.pid}@example.com`, password: four, confirmPassword: four },
    })
    expect(short.status).toBe(400)
    expect(short.body.issues).toEqual([{ path: 'password', message: 'Password must be at least 8 characters' }])
    const hundred = '🍚'.repeat(100)
    const email = `emoji-long-${process.pid}@example.com`
    const made = await t.call('user/register', { json: { name: 'Asha', email, password: hundred, confirmPassword: hundred } })
    expect(made.status).toBe(201)
    expect((await t.call('user/login', { json: { email, password: hundred } })).status).toBe(200)
  })

  it('answers 400 for a body that is not JSON', async () => {
    const before = await userCount()
    const res = await t.call('user/register', { json: '{"name": "Ravi", ' })
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ message: 'Request body must be JSON', success: false })
    expect(await userCount()).toBe(before)
  })

  it('answers the mismatch message when the passwords differ, and writes nothing', async () => {
    const before = await userCount()
    const res = await t.call('user/register', { json: { ...good, confirmPassword: `${PASSWORD}!` } })
    expect(res.status).toBe(400)
    expect(res.body.message).toBe(PASSWORD_MISMATCH)
    expect(res.body.issues).toEqual([{ path: 'confirmPassword', message: PASSWORD_MISMATCH }])
    expect(await userCount()).toBe(before)
  })

  it('answers 409 for an email already registered, in any case', async () => {
    const { email } = await registerUser()
    for (const again of [email, email.toUpperCase(), ` ${email} `]) {
      const res = await t.call('user/register', { json: { ...good, email: again } })
      expect(res.status).toBe(409)
      expect(res.body).toMatchObject({ message: EMAIL_TAKEN, success: false })
    }
    expect(await t.db.$count(users, eq(users.email, email))).toBe(1)
  })

  it('lets exactly one of two simultaneous registrations of an email win', async () => {
    const email = newEmail('race')
    const results = await Promise.all([1, 2].map(() => t.call('user/register', { json: { ...good, email } })))
    expect(results.map((r) => r.status).sort()).toEqual([201, 409])
    expect(await t.db.$count(users, eq(users.email, email))).toBe(1)
  })
})

describe('POST /api/user/login', () => {
  it('answers both spellings of the access token and a refresh token, also as httpOnly cookies', async () => {
    const { email, user } = await registerUser()
    const res = await t.call('user/login', { json: { email: email.toUpperCase(), password: PASSWORD } })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ message: 'Login successfully', success: true, error: false })
    const data = res.body.data
    expect(Object.keys(data).sort()).toEqual(['accessToken', 'accesstoken', 'refreshToken'])
    expect(data.accesstoken).toBe(data.accessToken)
    expect(data.refreshToken).toMatch(/^[0-9a-f]{24}\.[A-Za-z0-9_-]{43}$/)
    expect(decodeJwt(data.accessToken)).toMatchObject({ sub: user._id, role: 'USER', typ: 'access' })

    const set = cookies(res.headers)
    expect(set.accessToken).toContain(`accessToken=${data.accessToken}`)
    expect(set.refreshToken).toContain(`refreshToken=${data.refreshToken}`)
    for (const line of [set.accessToken, set.refreshToken]) {
      expect(line).toMatch(/; HttpOnly/)
      expect(line).toMatch(/; SameSite=Lax/)
      expect(line).toMatch(/; Path=\//)
      expect(line).not.toMatch(/; Secure/)
    }
    expect(set.accessToken).toMatch(/Max-Age=900/)
  })

  it('records last_login_date from the clock', async () => {
    const { email } = await registerUser()
    const at = new Date('2030-05-01T08:00:00.000Z')
    t.deps.clock = () => at
    const { accessToken } = await signIn(email)
    const details = await t.call('user/user-details', { token: accessToken })
    expect(details.body.data.last_login_date).toBe(at.toISOString())
  })

  it('answers the same 400 for a wrong password and an unknown email, with no cookies', async () => {
    const { email } = await registerUser()
    const wrong = await t.call('user/login', { json: { email, password: `${PASSWORD}x` } })
    const unknown = await t.call('user/login', { json: { email: newEmail('nobody'), password: PASSWORD } })
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ message: WRONG_CREDENTIALS, error: true, success: false })
      expect(res.headers.getSetCookie()).toEqual([])
    }
  })

  it('refuses query objects in place of strings', async () => {
    await registerUser()
    const res = await t.call('user/login', { json: { email: { $ne: null }, password: { $ne: null } } })
    expect(res.status).toBe(400)
    expect(res.body.issues.map((i: { path: string }) => i.path).sort()).toEqual(['email', 'password'])
  })

  it('answers 403 "Contact to Admin" for an account that is not Active', async () => {
    const { email, user } = await registerUser()
    await t.db.update(users).set({ status: 'Suspended' }).where(eq(users.id, user._id))
    const res = await t.call('user/login', { json: { email, password: PASSWORD } })
    expect(res.status).toBe(403)
    expect(res.body.message).toBe(CONTACT_ADMIN)
  })

  it('sets Secure cookies when the app is built with secureCookies', async () => {
    const { email } = await registerUser()
    const { app } = createApp({ ...t.deps, secureCookies: true })
    const res = await app.request('/api/user/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email, password: PASSWORD }),
    })
    expect(res.status).toBe(200)
    const set = cookies(res.headers)
    expect(set.accessToken).toMatch(/; Secure/)
    expect(set.refreshToken).toMatch(/; Secure/)
  })

  it('sets SameSite=None on Secure cookies when a listed client is on another site, so its fetch calls carry them', async () => {
    const { email } = await registerUser()
    const signIn = (allowedOrigins: string[]) =>
      createApp({ ...t.deps, secureCookies: true, allowedOrigins }).app.request('http://api.shop.example/api/user/login', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Origin: allowedOrigins[0] ?? 'http://api.shop.example' },
        body: JSON.stringify({ email, password: PASSWORD }),
      })
    const crossSite = cookies((await signIn(['https://client.example.net'])).headers)
    expect(crossSite.accessToken).toMatch(/; SameSite=None/)
    expect(crossSite.refreshToken).toMatch(/; SameSite=None/)
    expect(crossSite.accessToken).toMatch(/; Secure/)
    expect(crossSite.accessToken).toMatch(/; Partitioned/)
    const sameSite = cookies((await signIn(['https://www.shop.example'])).headers)
    expect(sameSite.accessToken).toMatch(/; SameSite=Lax/)
    expect(sameSite.accessToken).not.toMatch(/Partitioned/)
  })
})

describe('rate limits', () => {
  // A second app on the same database with small limits.
  let limited: ReturnType<typeof createApp>['app']
  const delays: number[] = []
  beforeAll(() => {
    limited = createApp({
      ...t.deps,
      rateLimits: createRateLimits({
        loginFailByEmailIp: { points: 3, duration: 60 },
        loginFailByIp: { points: 5, duration: 60 },
        registerByIp: { points: 2, duration: 60 },
        sleep: async (ms) => void delays.push(ms),
      }),
    }).app
  })
  const post = (path: string, json: unknown, ip: string) =>
    limited.request(`/api/user/${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Client-Ip': ip },
      body: JSON.stringify(json),
    })

  it('blocks an address after 3 failures in a row on one account, even with the right password', async () => {
    const { email } = await registerUser()
    const attacker = '198.51.100.7'
    for (let i = 0; i < 3; i++) expect((await post('login', { email, password: 'wrong-password' }, attacker)).status).toBe(400)
    const blocked = await post('login', { email, password: PASSWORD }, attacker)
    expect(blocked.status).toBe(429)
    const retryAfter = Number(blocked.headers.get('Retry-After'))
    expect(retryAfter).toBeGreaterThan(0)
    expect(retryAfter).toBeLessThanOrEqual(60)
    expect(await blocked.json()).toMatchObject({ success: false, error: true })
  })

  it('lets the owner in from an address that has not been failing, however many guesses came from elsewhere', async () => {
    const { email } = await registerUser()
    // Twelve wrong guesses spread over addresses (each stays under its own limits).
    for (let i = 0; i < 12; i++)
      expect((await post('login', { email, password: 'guess-' + i }, `198.51.100.${20 + (i % 6)}`)).status).toBe(400)
    const owner = await post('login', { email, password: PASSWORD }, '203.0.113.200')
    expect(owner.status).toBe(200)
    // The account's answers were slowed once it had more than 10 failures, never refused.
    expect(delays.length).toBeGreaterThan(0)
    expect(Math.max(...delays)).toBeLessThanOrEqual(2000)
  })

  it('counts failures, not attempts: a sign-in that succeeds clears the address and account pair', async () => {
    const { email } = await registerUser()
    const ip = '198.51.100.50'
    // Without the reset the pair's fourth failure (round two) would be refused.
    for (let round = 0; round < 2; round++) {
      expect((await post('login', { email, password: 'typo-password' }, ip)).status).toBe(400)
      expect((await post('login', { email, password: 'typo-password' }, ip)).status).toBe(400)
      expect((await post('login', { email, password: PASSWORD }, ip)).status).toBe(200)
    }
  })

  it('blocks an address after 5 failures across accounts (password spraying), not other addresses', async () => {
    const ip = '203.0.113.5'
    for (let i = 0; i < 5; i++) expect((await post('login', { email: newEmail('spray'), password: PASSWORD }, ip)).status).toBe(400)
    const blocked = await post('login', { email: newEmail('spray'), password: PASSWORD }, ip)
    expect(blocked.status).toBe(429)
    expect(Number(blocked.headers.get('Retry-After'))).toBeGreaterThan(0)
    expect((await post('login', { email: newEmail('spray'), password: PASSWORD }, '203.0.113.6')).status).toBe(400)
  })

  it('answers 429 after 2 registrations from one IP and writes nothing', async () => {
    const ip = '203.0.113.20'
    const body = (email: string) => ({ name: 'Meera', email, password: PASSWORD, confirmPassword: PASSWORD })
    expect((await post('register', body(newEmail('reg')), ip)).status).toBe(201)
    expect((await post('register', body(newEmail('reg')), ip)).status).toBe(201)
    const before = await userCount()
    const blocked = await post('register', body(newEmail('reg')), ip)
    expect(blocked.status).toBe(429)
    expect(blocked.headers.get('Retry-After')).toMatch(/^\d+$/)
    expect(await userCount()).toBe(before)
  })
})

describe('POST /api/user/refresh-token', () => {
  it('rotates: each token works once; a reused one revokes the whole family', async () => {
    const { email } = await registerUser()
    const first = await signIn(email)
    const other = await signIn(email) // a second session (another device)

    const r1 = await refresh(first.refreshToken)
    expect(r1.status).toBe(200)
    expect(r1.body).toMatchObject({ success: true, error: false })
    expect(Object.keys(r1.body.data).sort()).toEqual(['accessToken', 'refreshToken'])
    expect(r1.body.data.refreshToken).not.toBe(first.refreshToken)
    expect(cookies(r1.headers).refreshToken).toContain(`refreshToken=${r1.body.data.refreshToken}`)
    expect((await t.call('user/user-details', { token: r1.body.data.accessToken })).status).toBe(200)

    // The cookie works as well as the Bearer header.
    const r2 = await t.call('user/refresh-token', {
      method: 'POST',
      headers: { Cookie: `refreshToken=${r1.body.data.refreshToken}`, Origin: 'http://localhost' },
    })
    expect(r2.status).toBe(200)
    const newest = r2.body.data.refreshToken

    // Within the grace window a reuse is a concurrent request: 409, nothing revoked.
    const racing = await refresh(first.refreshToken)
    expect(racing.status).toBe(409)
    expect(racing.body.message).toBe(REFRESH_TOKEN_RACE)

    // Past the grace window it is theft: 401 and the whole family is revoked.
    t.deps.clock = () => new Date(Date.now() + REFRESH_REUSE_GRACE_MS + 1000)
    const reused = await refresh(first.refreshToken)
    expect(reused.status).toBe(401)
    expect(reused.body.success).toBe(false)
    expect((await refresh(newest)).status).toBe(401)

    const familyId = (
      await t.db
        .select()
        .from(refreshTokens)
        .where(eq(refreshTokens.id, newest.split('.')[0]))
    )[0].familyId
    const family = await t.db.select().from(refreshTokens).where(eq(refreshTokens.familyId, familyId))
    expect(family).toHaveLength(3)
    expect(family.every((row) => row.revokedAt !== null)).toBe(true)

    // The other session is another family and still works.
    expect((await refresh(other.refreshToken)).status).toBe(200)
  })

  it('lets only one of two simultaneous uses of a token win; the loser gets 409 and the winner stays valid', async () => {
    const { email } = await registerUser()
    const { refreshToken } = await signIn(email)
    const results = await Promise.all([refresh(refreshToken), refresh(refreshToken)])
    expect(results.map((r) => r.status).sort()).toEqual([200, 409])
    const winner = results.find((r) => r.status === 200)!
    expect((await refresh(winner.body.data.refreshToken)).status).toBe(200)
  })

  it('stores only hashes of refresh tokens', async () => {
    const { email } = await registerUser()
    const { refreshToken } = await signIn(email)
    const [row] = await t.db
      .select()
      .from(refreshTokens)
      .where(eq(refreshTokens.id, refreshToken.split('.')[0]))
    expect(row.tokenHash).toMatch(/^[0-9a-f]{64}$/)
    expect(JSON.stringify(row)).not.toContain(refreshToken.split('.')[1])
  })

  it('answers 401 for a missing, malformed, forged, access or expired token', async () => {
    const { email } = await registerUser()
    const tokens = await signIn(email)
    const [id] = tokens.refreshToken.split('.')
    expect((await t.call('user/refresh-token', { method: 'POST' })).status).toBe(401)
    expect((await refresh('junk')).status).toBe(401)
    expect((await refresh(`${id}.${'A'.repeat(43)}`)).status).toBe(401)
    expect((await refresh(tokens.accessToken)).status).toBe(401)

    t.deps.clock = () => new Date(Date.now() + 31 * 24 * 3600_000)
    const expired = await refresh(tokens.refreshToken)
    expect(expired.status).toBe(401)
    expect(expired.body).toMatchObject({ success: false, error: true })
  })

  it('answers 401 once the user is deleted', async () => {
    const { email, user } = await registerUser()
    const tokens = await signIn(email)
    await t.db.delete(users).where(eq(users.id, user._id))
    expect((await refresh(tokens.refreshToken)).status).toBe(401)
    expect((await t.call('user/user-details', { token: tokens.accessToken })).status).toBe(401)
  })
})

describe('logout', () => {
  it('GET revokes the presented refresh token family and clears both cookies', async () => {
    const { email } = await registerUser()
    const session = await signIn(email)
    const other = await signIn(email)
    const res = await t.call('user/logout', {
      token: session.accessToken,
      headers: { Cookie: `refreshToken=${session.refreshToken}`, Origin: 'http://localhost' },
    })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ message: 'Logout successfully', success: true, error: false })
    const set = cookies(res.headers)
    expect(set.accessToken).toMatch(/^accessToken=;.*Max-Age=0/)
    expect(set.refreshToken).toMatch(/^refreshToken=;.*Max-Age=0/)
    expect((await refresh(session.refreshToken)).status).toBe(401)
    expect((await refresh(other.refreshToken)).status).toBe(200)
  })

  it('POST with {refreshToken} in the body revokes that family', async () => {
    const { email } = await registerUser()
    const session = await signIn(email)
    const rotated = (await refresh(session.refreshToken)).body.data
    const res = await t.call('user/logout', { token: rotated.accessToken, json: { refreshToken: rotated.refreshToken } })
    expect(res.status).toBe(200)
    expect((await refresh(rotated.refreshToken)).status).toBe(401)
  })

  it('without a refresh token revokes every session of the user', async () => {
    const { email } = await registerUser()
    const a = await signIn(email)
    const b = await signIn(email)
    expect((await t.call('user/logout', { method: 'POST', token: a.accessToken })).status).toBe(200)
    expect((await refresh(a.refreshToken)).status).toBe(401)
    expect((await refresh(b.refreshToken)).status).toBe(401)
  })

  it('answers 401 without an access token', async () => {
    const res = await t.call('user/logout')
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ message: 'Provide a valid access token', error: true, success: false })
  })
})

describe('GET /api/user/user-details', () => {
  it('answers the public user by Bearer or by cookie', async () => {
    const { email, user } = await registerUser()
    const { accessToken } = await signIn(email)
    const res = await t.call('user/user-details', { token: accessToken })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ message: 'User details', success: true, error: false })
    expect(Object.keys(res.body.data).sort()).toEqual(
      [
        '_id',
        'name',
        'email',
        'avatar',
        'mobile',
        'mobile_verified',
        'sms_order_updates',
        'verify_email',
        'last_login_date',
        'status',
        'address_details',
        'shopping_cart',
        'orderHistory',
        'role',
        'storeId',
        'createdAt',
        'updatedAt',
      ].sort(),
    )
    expect(res.body.data).toMatchObject({ _id: user._id, email, role: 'USER', storeId: null })
    const byCookie = await t.call('user/user-details', { headers: { Cookie: `accessToken=${accessToken}` } })
    expect(byCookie.status).toBe(200)
    expect(byCookie.body.data._id).toBe(user._id)
  })

  it('answers 401, never 500, without a token, with a bad one, or after 15 minutes', async () => {
    const { email } = await registerUser()
    const { accessToken, refreshToken } = await signIn(email)
    const attempts = [
      await t.call('user/user-details'),
      await t.call('user/user-details', { token: 'not-a-jwt' }),
      await t.call('user/user-details', { token: `${accessToken.slice(0, -2)}xx` }),
      await t.call('user/user-details', { token: refreshToken }),
      await t.call('user/user-details', { headers: { Authorization: 'Basic abc' } }),
    ]
    t.deps.clock = () => new Date(Date.now() + 16 * 60_000)
    attempts.push(await t.call('user/user-details', { token: accessToken }))
    for (const res of attempts) {
      expect(res.status).toBe(401)
      expect(res.body).toEqual({ message: 'Provide a valid access token', error: true, success: false })
    }
  })

  it('answers 403 once the account is no longer Active', async () => {
    const { email, user } = await registerUser()
    const { accessToken } = await signIn(email)
    await t.db.update(users).set({ status: 'Inactive' }).where(eq(users.id, user._id))
    const res = await t.call('user/user-details', { token: accessToken })
    expect(res.status).toBe(403)
    expect(res.body.message).toBe(CONTACT_ADMIN)
  })
})

describe('requireAdmin', () => {
  it('answers 401 without a token and 403 for a USER', async () => {
    expect((await t.call('test-only/admin')).status).toBe(401)
    const { email } = await registerUser()
    const { accessToken } = await signIn(email)
    const res = await t.call('test-only/admin', { token: accessToken })
    expect(res.status).toBe(403)
    expect(res.body).toMatchObject({ success: false, error: true })
  })

  it('lets an ADMIN through and refuses them once demoted, whatever the token says', async () => {
    const admin = await createUser(t.db, { name: 'Admin', email: 'Admin@Example.com', password: PASSWORD, role: 'ADMIN' })
    expect(admin.email).toBe('admin@example.com')
    const { accessToken } = await signIn('admin@example.com')
    const res = await t.call('test-only/admin', { token: accessToken })
    expect(res.status).toBe(200)
    expect(res.body.data).toBe(admin.id)
    await t.db.update(users).set({ role: 'USER' }).where(eq(users.id, admin.id))
    expect((await t.call('test-only/admin', { token: accessToken })).status).toBe(403)
  })
})

describe('createUser', () => {
  it('validates its input and refuses a duplicate email', async () => {
    await expect(createUser(t.db, { name: 'X', email: 'x@example.com', password: 'short' })).rejects.toMatchObject({ status: 400 })
    await expect(createUser(t.db, { name: 'X', email: 'not-an-email', password: PASSWORD })).rejects.toBeInstanceOf(HttpError)
    const { email } = await registerUser()
    await expect(createUser(t.db, { name: 'X', email: email.toUpperCase(), password: PASSWORD })).rejects.toMatchObject({
      status: 409,
      message: EMAIL_TAKEN,
    })
  })
})
