/**
 * The BFF's user calls against a fake upstream (msw), and through them the refresh rule of
 * app/.server/upstream.ts (docs/decisions/0002-tokens-in-cookie-session.md; docs/product.md, "States
 * and transitions"): on a 401 refresh once, retry once, keep the rotated tokens in the session; when
 * the refresh fails, sign the session out.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { delay, http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { networkWiring, apiFor, type Api, type UpstreamSettings } from '../api-context.ts'
import { failureInit, failureMessage } from '../failure.ts'
import type { User } from '../../../contract/user.ts'

const API = 'http://upstream.test'

type UserModule = typeof import('./user.ts')
type SessionModule = typeof import('../session.ts')
type AuthModule = typeof import('../auth.ts')
type ContextModule = typeof import('../context.ts')
let userApi: UserModule
let sessionModule: SessionModule
let auth: AuthModule
let contextModule: ContextModule

const envBefore = { ...process.env }

// A user exactly as the real API answers it (typed by contract/, so the fake cannot drift from it;
// app/.server/api/real-api.test.ts runs the same calls against the real API).
const userDoc: User = {
  _id: '65f0c0ffee0000000000beef',
  name: 'Asha Rao',
  email: 'asha@example.com',
  avatar: '',
  mobile: '9876543210',
  mobile_verified: false,
  sms_order_updates: false,
  verify_email: false,
  last_login_date: null,
  status: 'Active',
  address_details: [],
  shopping_cart: [],
  orderHistory: [],
  storeId: null,
  role: 'ADMIN',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
}

const ok = (message: string, data: unknown, init?: ResponseInit) => HttpResponse.json({ message, error: false, success: true, data }, init)
const fail = (status: number, message: string, headers?: Record<string, string>) =>
  HttpResponse.json({ message, error: true, success: false }, { status, headers })

/** Every request the fake upstream saw, in order: path and Authorization header. */
let seen: Array<{ path: string; authorization: string | null; clientIp: string | null; body: unknown }> = []
/** Bodies still being read by the recorder; `recorded()` waits for them. */
let pendingBodies: Promise<void>[] = []
/** `seen`, once every recorded body has been read. */
async function recorded() {
  await Promise.all(pendingBodies)
  return seen
}
/** The access tokens user-details accepts. */
let validAccess = new Set<string>()
/** How the fake refresh endpoint answers. */
let refreshBehaviour: 'rotate' | 'reject' | 'race' = 'rotate'
let rotation = 0

const server = setupServer(
  http.get(`${API}/api/user/user-details`, ({ request }) => {
    const token = request.headers.get('Authorization')?.replace(/^Bearer /, '') ?? ''
    return validAccess.has(token) ? ok('User details', userDoc) : fail(401, 'Provide a valid access token')
  }),
  http.post(`${API}/api/user/refresh-token`, ({ request }) => {
    const token = request.headers.get('Authorization')?.replace(/^Bearer /, '')
    if (refreshBehaviour === 'race') return fail(409, 'Refresh token was just used by another request')
    if (refreshBehaviour === 'reject' || token !== 'refresh-1') return fail(401, 'Provide a valid refresh token')
    rotation += 1
    validAccess.add(`access-${rotation + 1}`)
    return ok('New access token generated', { accessToken: `access-${rotation + 1}`, refreshToken: `refresh-${rotation + 1}` })
  }),
  http.post(`${API}/api/user/login`, async ({ request }) => {
    const body = (await request.json()) as { email: string; password: string }
    if (body.password === 'slow-down') return fail(429, 'Too many attempts, try again later', { 'Retry-After': '90' })
    if (body.password !== 'right-password') return fail(400, 'Check your email or password')
    return ok('Login successfully', { accesstoken: 'access-9', accessToken: 'access-9', refreshToken: 'refresh-9' })
  }),
  http.post(`${API}/api/user/register`, async ({ request }) => {
    const body = (await request.json()) as { email: string }
    if (body.email === 'taken@example.com') return fail(409, 'Email already registered')
    return ok('User registered successfully', { ...userDoc, email: body.email }, { status: 201 })
  }),
  http.post(`${API}/api/user/logout`, () => ok('Logout successfully', null)),
)

// The BFF of these tests runs apart from its API (API_URL), as server.ts wires one (app/.server/api-context.ts).
let settings: UpstreamSettings
let api: Api

beforeAll(async () => {
  // env.ts reads the configuration when first imported: set it, then load fresh modules.
  process.env.API_URL = API
  process.env.SESSION_SECRET = 'test-session-secret-0123456789abcdef'
  process.env.JWT_SECRET = 'test-jwt-secret-0123456789abcdef'
  // Short, so the test of an API that never answers is quick.
  process.env.API_TIMEOUT_MS = '1000'
  vi.resetModules()
  settings = (await import('../env.ts')).env
  api = apiFor(networkWiring(settings))
  userApi = await import('./user.ts')
  sessionModule = await import('../session.ts')
  auth = await import('../auth.ts')
  contextModule = await import('../context.ts')
  server.listen({ onUnhandledRequest: 'error' })
  server.events.on('request:start', ({ request }) => {
    // Recorded synchronously so a request always lands in the test that made it.
    const entry = {
      path: new URL(request.url).pathname,
      authorization: request.headers.get('Authorization'),
      clientIp: request.headers.get('X-Client-Ip'),
      body: undefined as unknown,
    }
    seen.push(entry)
    if (request.method === 'POST') {
      pendingBodies.push(
        request
          .clone()
          .text()
          .then((text) => void (entry.body = text ? JSON.parse(text) : undefined)),
      )
    }
  })
})

beforeEach(() => {
  seen = []
  pendingBodies = []
  validAccess = new Set(['access-1'])
  refreshBehaviour = 'rotate'
  rotation = 0
})

afterEach(() => server.resetHandlers())

afterAll(() => {
  server.close()
  process.env = envBefore
})

/** A session holding `access`/`refresh-1`, not yet dirty, as a request would open it. */
async function signedInSession(access: string) {
  const session = await sessionModule.RequestSession.fromRequest(new Request('http://shop.test/'))
  session.setTokens({ accessToken: access, refreshToken: 'refresh-1' })
  session.setUser({ _id: userDoc._id, name: 'Asha Rao', email: userDoc.email, mobile: null, avatar: '', role: 'USER' })
  session.dirty = false
  return session
}

/** The session as the browser would send it back after the middleware committed it. */
async function reopen(session: InstanceType<SessionModule['RequestSession']>) {
  const cookie = (await session.commit()).split(';')[0]!
  return sessionModule.RequestSession.fromRequest(new Request('http://shop.test/', { headers: { Cookie: cookie } }))
}

describe('upstream refresh rule, through userDetails', () => {
  it('sends the access token as Bearer and does not refresh when it is accepted', async () => {
    const session = await signedInSession('access-1')
    const result = await userApi.userDetails(api, session)
    expect(result.ok).toBe(true)
    expect(seen.map((r) => [r.path, r.authorization])).toEqual([['/api/user/user-details', 'Bearer access-1']])
    expect(session.dirty).toBe(false)
  })

  it('on 401 refreshes once with the refresh token, retries once with the new access token and keeps the rotated tokens', async () => {
    const session = await signedInSession('access-expired')
    const result = await userApi.userDetails(api, session)

    expect(result.ok && result.data.name).toBe('Asha Rao')
    expect(seen.map((r) => [r.path, r.authorization])).toEqual([
      ['/api/user/user-details', 'Bearer access-expired'],
      ['/api/user/refresh-token', 'Bearer refresh-1'],
      ['/api/user/user-details', 'Bearer access-2'],
    ])
    expect(session.tokens).toEqual({ accessToken: 'access-2', refreshToken: 'refresh-2' })
    expect(session.dirty).toBe(true)
    // What the browser gets back in the cookie carries the rotated pair.
    expect((await reopen(session)).tokens).toEqual({ accessToken: 'access-2', refreshToken: 'refresh-2' })
  })

  it('shares one refresh between concurrent calls of the same request (a refresh token is single-use)', async () => {
    const session = await signedInSession('access-expired')
    const [a, b] = await Promise.all([userApi.userDetails(api, session), userApi.userDetails(api, session)])
    expect(a.ok && b.ok).toBe(true)
    expect(seen.filter((r) => r.path === '/api/user/refresh-token')).toHaveLength(1)
    expect(session.tokens?.refreshToken).toBe('refresh-2')
  })

  it('retries only once: a second 401 is returned, with no second refresh', async () => {
    server.use(http.get(`${API}/api/user/user-details`, () => fail(401, 'Provide a valid access token')))
    const session = await signedInSession('access-expired')
    const result = await userApi.userDetails(api, session)
    expect(result).toMatchObject({ ok: false, status: 401 })
    expect(seen.map((r) => r.path)).toEqual(['/api/user/user-details', '/api/user/refresh-token', '/api/user/user-details'])
  })

  it('signs the session out cleanly when the refresh fails, and does not retry', async () => {
    refreshBehaviour = 'reject'
    const session = await signedInSession('access-expired')
    session.flashToast({ type: 'success', message: 'kept' })
    const result = await userApi.userDetails(api, session)

    expect(result).toMatchObject({ ok: false, status: 401 })
    expect(seen.map((r) => r.path)).toEqual(['/api/user/user-details', '/api/user/refresh-token'])
    expect(session.tokens).toBeNull()
    expect(session.user).toBeNull()
    const reopened = await reopen(session)
    expect(reopened.tokens).toBeNull()
    expect(reopened.user).toBeNull()
    expect(reopened.takeToast()).toEqual({ type: 'success', message: 'kept' })
  })

  it('keeps the session untouched when another request of the browser won the refresh race (409)', async () => {
    refreshBehaviour = 'race'
    const session = await signedInSession('access-expired')
    const result = await userApi.userDetails(api, session)

    expect(result).toMatchObject({ ok: false, status: 401 })
    expect(seen.map((r) => r.path)).toEqual(['/api/user/user-details', '/api/user/refresh-token'])
    // Not signed out and not dirty: no Set-Cookie will overwrite the winner's rotated tokens.
    expect(session.tokens).toEqual({ accessToken: 'access-expired', refreshToken: 'refresh-1' })
    expect(session.dirty).toBe(false)
  })

  it('does not try to refresh a signed-out session', async () => {
    const session = await sessionModule.RequestSession.fromRequest(new Request('http://shop.test/'))
    const result = await userApi.userDetails(api, session)
    expect(result).toMatchObject({ ok: false, status: 401 })
    expect(seen.map((r) => [r.path, r.authorization])).toEqual([['/api/user/user-details', null]])
  })
})

describe('user calls', () => {
  it('login posts the credentials with the client address and keeps the token pair', async () => {
    const result = await userApi.login(api, { email: 'asha@example.com', password: 'right-password' }, { clientIp: '203.0.113.7' })
    expect(result).toMatchObject({ ok: true, message: 'Login successfully', data: { accessToken: 'access-9', refreshToken: 'refresh-9' } })
    expect((await recorded())[0]).toMatchObject({
      path: '/api/user/login',
      clientIp: '203.0.113.7',
      authorization: null,
      body: { email: 'asha@example.com', password: 'right-password' },
    })
  })

  it('login failures keep the API message; 429 names the wait from Retry-After', async () => {
    const wrong = await userApi.login(api, { email: 'asha@example.com', password: 'wrong' })
    expect(wrong).toMatchObject({ ok: false, status: 400, message: 'Check your email or password' })
    expect(!wrong.ok && failureMessage(wrong)).toBe('Check your email or password')

    const limited = await userApi.login(api, { email: 'asha@example.com', password: 'slow-down' })
    expect(limited).toMatchObject({ ok: false, status: 429, retryAfter: 90 })
    expect(!limited.ok && failureMessage(limited)).toBe('Too many attempts, try again later. Please wait 2 minutes.')
    expect(failureMessage({ ok: false, status: 429, message: 'Slow down', issues: [], retryAfter: 1 })).toBe(
      'Slow down. Please wait 1 second.',
    )
  })

  it('failureInit keeps 4xx statuses (429 with Retry-After) and turns upstream faults into 502', () => {
    const init = failureInit({ ok: false, status: 429, message: 'x', issues: [], retryAfter: 89.2 })
    expect(init.status).toBe(429)
    expect(new Headers(init.headers).get('Retry-After')).toBe('90')
    expect(failureInit({ ok: false, status: 409, message: 'x', issues: [] }).status).toBe(409)
    expect(failureInit({ ok: false, status: 500, message: 'x', issues: [] }).status).toBe(502)
  })

  it('an API that refuses the connection, or does not answer within API_TIMEOUT_MS, is a 503 with Retry-After', async () => {
    server.use(http.post(`${API}/api/user/login`, () => HttpResponse.error()))
    const refused = await userApi.login(api, { email: 'asha@example.com', password: 'x' })
    expect(refused).toMatchObject({ ok: false, status: 503, retryAfter: 5 })
    expect(!refused.ok && failureInit(refused).status).toBe(503)

    server.use(http.post(`${API}/api/user/login`, () => delay('infinite')))
    const started = Date.now()
    const silent = await userApi.login(api, { email: 'asha@example.com', password: 'x' })
    expect(silent).toMatchObject({ ok: false, status: 503 })
    expect(Date.now() - started).toBeGreaterThanOrEqual(900)
    expect(Date.now() - started).toBeLessThan(5000)
  })

  it('a login answer without tokens is a failure, not a crash', async () => {
    server.use(http.post(`${API}/api/user/login`, () => ok('Login successfully', { refreshToken: 'r' })))
    const result = await userApi.login(api, { email: 'asha@example.com', password: 'x' })
    expect(result).toMatchObject({ ok: false, status: 502 })
  })

  it('register sends the four fields and reports a duplicate email with the API message', async () => {
    const input = { name: 'Asha Rao', email: 'new@example.com', password: 'secret-pass-1', confirmPassword: 'secret-pass-1' }
    const created = await userApi.register(api, input, { clientIp: '203.0.113.7' })
    expect(created).toMatchObject({ ok: true, status: 201, message: 'User registered successfully', data: { email: 'new@example.com' } })
    expect((await recorded())[0]).toMatchObject({ path: '/api/user/register', clientIp: '203.0.113.7', body: input })

    const duplicate = await userApi.register(api, { ...input, email: 'taken@example.com' })
    expect(duplicate).toMatchObject({ ok: false, status: 409, message: 'Email already registered' })
  })

  it('logout calls the API with the Bearer token and names the refresh token to revoke', async () => {
    const session = await signedInSession('access-1')
    const result = await userApi.logout(api, session)
    expect(result).toMatchObject({ ok: true, message: 'Logout successfully' })
    expect((await recorded()).map((r) => [r.path, r.authorization, r.body])).toEqual([
      ['/api/user/logout', 'Bearer access-1', { refreshToken: 'refresh-1' }],
    ])
  })

  it('toSessionUser keeps the header summary; a user off contract/ (an unknown role) is refused', () => {
    const parsed = userApi.UserSchema.parse({ ...userDoc, role: 'USER' })
    expect(userApi.toSessionUser(parsed)).toEqual({
      _id: userDoc._id,
      name: 'Asha Rao',
      email: 'asha@example.com',
      mobile: '9876543210',
      avatar: '',
      role: 'USER',
    })
    expect(userApi.UserSchema.safeParse({ ...userDoc, role: 'SUPERUSER' }).success).toBe(false)
  })
})

describe('auth.ts', () => {
  async function contextWith(session: InstanceType<SessionModule['RequestSession']>) {
    const { RouterContextProvider } = await import('react-router')
    const context = new RouterContextProvider()
    context.set(contextModule.sessionContext, session)
    return context
  }

  it('signIn stores the tokens and the user summary loaded with them', async () => {
    validAccess.add('access-9')
    const session = await sessionModule.RequestSession.fromRequest(new Request('http://shop.test/'))
    const result = await auth.signIn(api, session, { accessToken: 'access-9', refreshToken: 'refresh-9' })
    expect(result).toMatchObject({ ok: true, user: { name: 'Asha Rao', role: 'ADMIN', mobile: '9876543210' } })
    const reopened = await reopen(session)
    expect(reopened.tokens).toEqual({ accessToken: 'access-9', refreshToken: 'refresh-9' })
    expect(reopened.user?._id).toBe(userDoc._id)
  })

  it('signIn leaves the session signed out when user-details fails', async () => {
    refreshBehaviour = 'reject'
    const session = await sessionModule.RequestSession.fromRequest(new Request('http://shop.test/'))
    const result = await auth.signIn(api, session, { accessToken: 'not-accepted', refreshToken: 'refresh-x' })
    expect(result).toMatchObject({ ok: false, status: 401 })
    expect(session.tokens).toBeNull()
    expect(session.user).toBeNull()
  })

  it('requireUser sends a signed-out shopper to /login with the way back; requireAnonymous sends a signed-in one to /', async () => {
    const anonymous = await contextWith(await sessionModule.RequestSession.fromRequest(new Request('http://shop.test/')))
    const thrown = (() => {
      try {
        auth.requireUser(anonymous, new Request('http://shop.test/dashboard/profile?tab=a&b=c'))
      } catch (error) {
        return error as Response
      }
    })()
    expect(thrown?.status).toBe(302)
    const location = new URL(thrown!.headers.get('Location')!, 'http://shop.test')
    expect(location.pathname).toBe('/login')
    expect(location.searchParams.get('redirectTo')).toBe('/dashboard/profile?tab=a&b=c')
    expect(() => auth.requireAnonymous(anonymous)).not.toThrow()

    const signedIn = await contextWith(await signedInSession('access-1'))
    expect(auth.requireUser(signedIn, new Request('http://shop.test/x'))).toMatchObject({ name: 'Asha Rao' })
    let redirected: Response | undefined
    try {
      auth.requireAnonymous(signedIn)
    } catch (error) {
      redirected = error as Response
    }
    expect(redirected?.headers.get('Location')).toBe('/')
  })
})
