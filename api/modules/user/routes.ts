/**
 * Routes of /api/user (contract, "Endpoints" and "Authentication"): each reads its body through a
 * schema, applies its guard and rate limits, calls one service function and shapes the envelope.
 */
import { Hono } from 'hono'
import { getCookie } from 'hono/cookie'
import type { AppDeps } from '../../app.ts'
import {
  bearerToken,
  clearTokenCookies,
  currentUser,
  REFRESH_COOKIE,
  requireUser,
  setTokenCookies,
} from '../../lib/auth.ts'
import { clientIp } from '../../lib/client-ip.ts'
import { ok } from '../../lib/envelope.ts'
import { Unauthorized } from '../../lib/errors.ts'
import { consume } from '../../lib/rate-limit.ts'
import { readBody } from '../../lib/validate.ts'
import { LoginSchema, LogoutSchema, RegisterSchema } from './schemas.ts'
import { INVALID_REFRESH_TOKEN, login, logout, register, rotateRefreshToken, toPublicUser } from './service.ts'

export function userRoutes(deps: AppDeps) {
  const r = new Hono()

  r.post('/register', async (c) => {
    const input = await readBody(c, RegisterSchema)
    await consume(deps.rateLimits.registerByIp, clientIp(c))
    const user = await register(deps.db, input)
    return ok(c, 'User registered successfully', user, {}, 201)
  })

  // Both limits count every attempt: per IP against spraying, per email against guessing one account.
  r.post('/login', async (c) => {
    const input = await readBody(c, LoginSchema)
    await consume(deps.rateLimits.loginByIp, clientIp(c))
    await consume(deps.rateLimits.loginByEmail, input.email)
    const tokens = await login(deps, input)
    setTokenCookies(c, deps, tokens)
    // `accesstoken` is the spelling the original client reads (contract, "Authentication").
    return ok(c, 'Login successfully', { accesstoken: tokens.accessToken, ...tokens })
  })

  r.post('/refresh-token', async (c) => {
    const token = bearerToken(c) ?? getCookie(c, REFRESH_COOKIE)
    if (!token) throw Unauthorized(INVALID_REFRESH_TOKEN)
    const tokens = await rotateRefreshToken(deps, token)
    setTokenCookies(c, deps, tokens)
    return ok(c, 'New access token generated', tokens)
  })

  // GET is the spec's call (section 7); POST is what a form or the BFF sends.
  r.on(['GET', 'POST'], '/logout', requireUser(deps), async (c) => {
    const body = c.req.method === 'POST' ? await readBody(c, LogoutSchema) : {}
    const refreshToken = body.refreshToken ?? c.req.header('x-refresh-token') ?? getCookie(c, REFRESH_COOKIE)
    await logout(deps, currentUser(c).id, refreshToken)
    clearTokenCookies(c, deps)
    return ok(c, 'Logout successfully', null)
  })

  r.get('/user-details', requireUser(deps), (c) => ok(c, 'User details', toPublicUser(currentUser(c))))

  return r
}
