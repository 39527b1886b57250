/**
 * Routes of /api/user (docs/api-contract.md, "Endpoints" and "Authentication"): each reads its body
 * through a schema, applies its guard and rate limits, calls one service function and shapes the envelope.
 */
import type { Context } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import type { AppDeps } from '../../deps.ts'
import {
  apiCookieOptions,
  bearerToken,
  clearTokenCookies,
  currentUser,
  REFRESH_COOKIE,
  requireUser,
  setTokenCookies,
} from '../../lib/auth.ts'
import { addressGroup, clientIp } from '../../lib/client-ip.ts'
import { assertFromOwnPage, assertSameOrigin } from '../../lib/csrf.ts'
import { ok } from '../../lib/envelope.ts'
import { Unauthorized } from '../../lib/errors.ts'
import { readFileField } from '../../lib/multipart.ts'
import { RESET_TOKEN_TTL_SECONDS } from '../../lib/otp.ts'
import { addressIds } from '../address/service.ts'
import { cartLineIds } from '../cart/service.ts'
import { orderIds } from '../order/service.ts'
import { consume, protectLogin } from '../../lib/rate-limit.ts'
import { AVATAR_UPDATED, PROFILE_UPDATED, updateProfile, uploadAvatar } from './profile.ts'
import { OTP_SENT, OTP_VERIFIED, PASSWORD_UPDATED, requestPasswordReset, resetPassword, verifyPasswordResetOtp } from './recovery.ts'
import {
  ForgotPasswordSchema,
  LoginSchema,
  LogoutSchema,
  RegisterSchema,
  ResetPasswordSchema,
  UpdateUserSchema,
  VerifyOtpSchema,
  AvatarAnswerSchema,
  LoginAnswerSchema,
  ResetTokenAnswerSchema,
  TokensSchema,
  UserSchema,
} from '../../../contract/user.ts'
import { apiRouter } from '../../lib/openapi.ts'
import { MobileVerifiedSchema, OtpSentSchema, PhoneLoginAnswerSchema, SendOtpSchema, VerifySmsOtpSchema } from '../../../contract/phone.ts'
import { MOBILE_VERIFIED, OTP_SMS_SENT, SIGNED_IN, sendLinkCode, sendSmsCode, spend, verifyLinkCode, verifySignInCode } from './phone.ts'
import { INVALID_REFRESH_TOKEN, isWrongCredentials, login, logout, register, rotateRefreshToken, toPublicUser } from './service.ts'

/** Cookie that carries the reset token from verify to reset (docs/api-contract.md, "Authentication"). */
export const RESET_COOKIE = 'resetToken'

/** Builds the /api/user router on the app's dependencies. */
export function userRoutes(deps: AppDeps) {
  // Scoped to /api/user: only the reset call needs it; it never rides along on other requests.
  const resetCookieOptions = (c: Context) => apiCookieOptions(c, deps, '/api/user')

  const { router, endpoint } = apiRouter('User')
  const user = { data: UserSchema }

  endpoint(
    {
      method: 'post',
      path: '/register',
      summary: 'Create an account (rate-limited per client address)',
      access: 'public',
      body: RegisterSchema,
      answers: { 201: { description: 'The new user', ...user } },
      errors: [409, 429],
    },
    async (c, input) => {
      await consume(deps.rateLimits.registerByIp, clientIp(c))
      const user = await register(deps.db, input)
      return ok(c, 'User registered successfully', user, {}, 201)
    },
  )

  // Failures are counted, not attempts (api/lib/rate-limit.ts `protectLogin`): guesses from one
  // address cannot lock the owner out from another.
  endpoint(
    {
      method: 'post',
      path: '/login',
      summary: 'Sign in: the token pair in `data` and as httpOnly cookies',
      access: 'public',
      body: LoginSchema,
      answers: { 200: { description: 'The tokens (`accesstoken` too: the original client reads that spelling)', data: LoginAnswerSchema } },
      errors: [403, 429],
    },
    async (c, input) => {
      const tokens = await protectLogin(deps.rateLimits, input.email, clientIp(c), () => login(deps, input), isWrongCredentials)
      setTokenCookies(c, deps, tokens)
      // `accesstoken` is the spelling the original client reads (docs/api-contract.md, "Authentication").
      return ok(c, SIGNED_IN, { accesstoken: tokens.accessToken, ...tokens })
    },
  )

  endpoint(
    {
      method: 'post',
      path: '/refresh-token',
      summary: 'Rotate the refresh token (as the Bearer token, or the cookie from this site) for a new pair',
      access: 'public',
      answers: { 200: { description: 'The new tokens', data: TokensSchema } },
      errors: [401, 403, 409],
    },
    async (c) => {
      const bearer = bearerToken(c)
      const token = bearer ?? getCookie(c, REFRESH_COOKIE)
      if (!token) throw Unauthorized(INVALID_REFRESH_TOKEN)
      if (!bearer) assertSameOrigin(c, deps.allowedOrigins)
      const tokens = await rotateRefreshToken(deps, token)
      setTokenCookies(c, deps, tokens)
      return ok(c, 'New access token generated', tokens)
    },
  )

  // GET is the original client's call (docs/api-contract.md, "Aliases"); POST is what a form or the
  // BFF sends.
  const logoutHandler = async (c: Context, body: { refreshToken?: string }) => {
    // A GET that ends a session: SameSite=Lax sends the cookie with a link or redirect from another
    // site, so a cookie-signed GET must come from a page of ours too (api/lib/csrf.ts); the original
    // client signs it with a Bearer token, which no other site can make a browser send.
    if (c.req.method === 'GET' && !bearerToken(c)) assertFromOwnPage(c, deps.allowedOrigins)
    const refreshToken = body.refreshToken ?? c.req.header('x-refresh-token') ?? getCookie(c, REFRESH_COOKIE)
    await logout(deps, currentUser(c).id, refreshToken)
    clearTokenCookies(c, deps)
    return ok(c, 'Logout successfully', null)
  }
  const logoutEndpoint = {
    path: '/logout',
    summary: 'Sign out: ends the session and its refresh token family, clears the cookies',
    access: 'user',
    answers: { 200: { description: '`data` is null' } },
  } as const
  endpoint({ ...logoutEndpoint, method: 'get' }, requireUser(deps), (c) => logoutHandler(c, {}))
  endpoint({ ...logoutEndpoint, method: 'post', body: LogoutSchema }, requireUser(deps), logoutHandler)

  // user-details fills the user's cart lines, addresses and orders (ids; docs/api-contract.md, "Users").
  endpoint(
    {
      method: 'get',
      path: '/user-details',
      summary: 'The signed-in user, with the ids of their cart lines, addresses and orders',
      access: 'user',
      answers: { 200: { description: 'The user', ...user } },
    },
    requireUser(deps),
    async (c) => {
      const user = currentUser(c)
      const [shopping_cart, address_details, orderHistory] = await Promise.all([
        cartLineIds(deps.db, user.id),
        addressIds(deps, user.id),
        orderIds(deps.db, user.id),
      ])
      return ok(c, 'User details', { ...toPublicUser(user), shopping_cart, address_details, orderHistory })
    },
  )

  endpoint(
    {
      method: 'put',
      path: '/update-user',
      summary: "Change the user's name, email and mobile",
      access: 'user',
      body: UpdateUserSchema,
      answers: { 200: { description: 'The updated user', ...user } },
      errors: [409],
    },
    requireUser(deps),
    async (c, input) => {
      return ok(c, PROFILE_UPDATED, await updateProfile(deps.db, currentUser(c), input))
    },
  )

  // The guard runs first, so an anonymous upload is refused before its body is read.
  endpoint(
    {
      method: 'put',
      path: '/upload-avatar',
      summary: "Upload the user's avatar (a square crop)",
      access: 'user',
      upload: 'avatar',
      answers: { 200: { description: 'The user id and the stored avatar url', data: AvatarAnswerSchema } },
    },
    requireUser(deps),
    async (c) => {
      const file = await readFileField(c, 'avatar', deps.uploadMaxBytes)
      return ok(c, AVATAR_UPDATED, await uploadAvatar(deps, currentUser(c), file.bytes))
    },
  )

  // Password recovery (docs/product.md, "States and transitions"; docs/api-contract.md, "Differences
  // from the original contract"). Unknown emails get the same 200, and the limits count them too, so
  // neither the answer nor a 429 tells whether an account exists.
  endpoint(
    {
      method: 'put',
      path: '/forgot-password',
      summary: 'Email a one-time code to reset the password (the same answer for an unknown email)',
      access: 'public',
      body: ForgotPasswordSchema,
      answers: { 200: { description: '`data` is null' } },
      errors: [429],
    },
    async (c, { email }) => {
      await consume(deps.rateLimits.otpByIp, clientIp(c))
      // A cool-down between codes for one email (a minute), so a stranger cannot block the owner's
      // own recovery for long.
      await consume(deps.rateLimits.otpCooldownByEmail, email)
      await requestPasswordReset(deps, email)
      return ok(c, OTP_SENT, null)
    },
  )

  endpoint(
    {
      method: 'put',
      path: '/verify-forgot-password-otp',
      summary: 'Check the code: answers a reset token (also set as an httpOnly cookie)',
      access: 'public',
      body: VerifyOtpSchema,
      answers: { 200: { description: 'The reset token', data: ResetTokenAnswerSchema } },
      errors: [429],
    },
    async (c, input) => {
      await consume(deps.rateLimits.otpVerifyByIp, clientIp(c))
      const { resetToken } = await verifyPasswordResetOtp(deps, input)
      setCookie(c, RESET_COOKIE, resetToken, { ...resetCookieOptions(c), maxAge: RESET_TOKEN_TTL_SECONDS })
      return ok(c, OTP_VERIFIED, { resetToken })
    },
  )

  endpoint(
    {
      method: 'put',
      path: '/reset-password',
      summary: 'Set a new password with the reset token (body or cookie); ends every session',
      access: 'public',
      body: ResetPasswordSchema,
      answers: { 200: { description: '`data` is null' } },
      errors: [403],
    },
    async (c, input) => {
      const resetToken = input.resetToken || getCookie(c, RESET_COOKIE)
      if (!input.resetToken && resetToken) assertSameOrigin(c, deps.allowedOrigins)
      await resetPassword(deps, { ...input, resetToken })
      deleteCookie(c, RESET_COOKIE, resetCookieOptions(c))
      return ok(c, PASSWORD_UPDATED, null)
    },
  )

  // Phone sign-in and mobile verification by SMS code (docs/api-contract.md, "Phone sign-in"). Every
  // number gets a code whether or not it has an account, so the answer says nothing of accounts. A
  // send spends the address's and the number's budgets (SMS pumping), then the 30 s pace applies.
  const spendSend = async (c: Context, mobile: string) => {
    await spend(deps.rateLimits.smsSendByIp, addressGroup(clientIp(c)))
    await spend(deps.rateLimits.smsSendByMobile, mobile)
  }
  const sentAnswer = {
    200: { description: 'When a new code may be asked for and how long this one lives, in seconds', data: OtpSentSchema },
  }

  endpoint(
    {
      method: 'post',
      path: '/otp/send',
      summary: 'Send a 6-digit sign-in code by SMS (the same answer whether or not the number has an account)',
      access: 'public',
      body: SendOtpSchema,
      answers: sentAnswer,
      errors: [429, 503],
    },
    async (c, { mobile }) => {
      await spendSend(c, mobile)
      return ok(c, OTP_SMS_SENT, await sendSmsCode(deps, 'signin', mobile, mobile))
    },
  )

  endpoint(
    {
      method: 'post',
      path: '/otp/verify',
      summary: "Sign in with the SMS code: login's answer and cookies, plus isNewUser and needsName (a new number makes an account)",
      access: 'public',
      body: VerifySmsOtpSchema,
      answers: { 200: { description: 'The tokens, and whether the account is new or has no name', data: PhoneLoginAnswerSchema } },
      errors: [403, 429],
    },
    async (c, input) => {
      await spend(deps.rateLimits.smsVerifyByIp, addressGroup(clientIp(c)))
      const { isNewUser, needsName, ...tokens } = await verifySignInCode(deps, input)
      setTokenCookies(c, deps, tokens)
      return ok(c, SIGNED_IN, { accesstoken: tokens.accessToken, ...tokens, isNewUser, needsName })
    },
  )

  endpoint(
    {
      method: 'post',
      path: '/mobile/send',
      summary: "Send a code to verify a mobile number for the signed-in user's account",
      access: 'user',
      body: SendOtpSchema,
      answers: sentAnswer,
      errors: [409, 429, 503],
    },
    requireUser(deps),
    async (c, { mobile }) => {
      await spendSend(c, mobile)
      return ok(c, OTP_SMS_SENT, await sendLinkCode(deps, currentUser(c), mobile))
    },
  )

  endpoint(
    {
      method: 'post',
      path: '/mobile/verify',
      summary: "Check the code: the number becomes the signed-in user's verified mobile",
      access: 'user',
      body: VerifySmsOtpSchema,
      answers: { 200: { description: 'The verified number', data: MobileVerifiedSchema } },
      errors: [409, 429],
    },
    requireUser(deps),
    async (c, input) => {
      await spend(deps.rateLimits.smsVerifyByIp, addressGroup(clientIp(c)))
      return ok(c, MOBILE_VERIFIED, await verifyLinkCode(deps, currentUser(c), input))
    },
  )

  return router
}
