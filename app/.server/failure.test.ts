/** app/.server/failure.ts: the one mapping of an API failure to the BFF's status, message and headers. */
import { describe, expect, it } from 'vitest'
import { failureInit, failureMessage, failureStatus, retryAfterMiddleware, throwFailure, type UpstreamFailure } from './failure.ts'
import { UNAVAILABLE_RETRY_AFTER_S } from './upstream.ts'

const failure = (status: number, message = 'x', retryAfter?: number): UpstreamFailure => ({
  ok: false,
  status,
  message,
  issues: [],
  retryAfter,
})

describe('failureStatus', () => {
  it('keeps the API 4xx and 503 and turns anything else into 502', () => {
    for (const status of [400, 401, 403, 404, 409, 413, 415, 422, 429, 503]) expect(failureStatus({ status })).toBe(status)
    for (const status of [0, 302, 500, 502, 504]) expect(failureStatus({ status })).toBe(502)
  })

  it('a 503 (database or API away) carries Retry-After: the API wait, else the default', () => {
    expect(new Headers(failureInit(failure(503, 'x', 1)).headers).get('Retry-After')).toBe('1')
    expect(new Headers(failureInit(failure(503, 'x')).headers).get('Retry-After')).toBe(String(UNAVAILABLE_RETRY_AFTER_S))
    expect(failureInit(failure(503)).status).toBe(503)
  })
})

describe('failureMessage and failureInit', () => {
  it('names the wait of a 429 from Retry-After and passes the header on', () => {
    expect(failureMessage(failure(429, 'Too many attempts, try again later.', 90))).toBe(
      'Too many attempts, try again later. Please wait 2 minutes.',
    )
    expect(failureMessage(failure(429, 'Slow down', 1))).toBe('Slow down. Please wait 1 second.')
    expect(failureMessage(failure(400, 'Check your password'))).toBe('Check your password')
    const init = failureInit(failure(429, 'x', 89.2))
    expect(init.status).toBe(429)
    expect(new Headers(init.headers).get('Retry-After')).toBe('90')
    expect(new Headers(failureInit(failure(409)).headers).get('Retry-After')).toBeNull()
  })

  it('throwFailure throws the error response a route boundary shows', () => {
    let thrown: unknown
    try {
      throwFailure(failure(503, 'Database unavailable'))
    } catch (err) {
      thrown = err
    }
    expect(thrown).toMatchObject({ data: 'Database unavailable', init: { status: 503 } })
  })
})

describe('retryAfterMiddleware', () => {
  const run = (response: Response) =>
    (retryAfterMiddleware as unknown as (args: unknown, next: () => Promise<Response>) => Promise<Response>)({}, async () => response)

  it('adds Retry-After to a 503 that lost it (a route headers export), and keeps one already there', async () => {
    expect((await run(new Response('x', { status: 503 }))).headers.get('Retry-After')).toBe(String(UNAVAILABLE_RETRY_AFTER_S))
    expect((await run(new Response('x', { status: 503, headers: { 'Retry-After': '1' } }))).headers.get('Retry-After')).toBe('1')
    expect((await run(new Response('x', { status: 200 }))).headers.get('Retry-After')).toBeNull()
    expect((await run(Response.redirect('http://shop.test/', 302))).status).toBe(302)
  })
})

describe('retryAfterMiddleware and a 429', () => {
  // React Router keeps only the routes' `headers` exports on a page or `.data` answer, so the header
  // failureInit set on an action's answer is gone by the time the middleware sees the response.
  type Args = Parameters<typeof retryAfterMiddleware>[0]
  const run = (answer: () => Response) => retryAfterMiddleware({} as Args, async () => answer()) as Promise<Response>

  it("puts the wait a failed call named on the request's 429 answer", async () => {
    const res = await run(() => {
      failureInit(failure(429, 'Slow down', 12.2))
      failureInit(failure(429, 'Slow down', 40))
      return new Response('page', { status: 429 })
    })
    expect(res.status).toBe(429)
    expect(res.headers.get('Retry-After')).toBe('40')
    expect(await res.text()).toBe('page')
  })

  it('leaves other answers, a 429 that has its own header, and other requests alone', async () => {
    const ok = await run(() => {
      failureInit(failure(429, 'Slow down', 12))
      return new Response('page', { status: 200 })
    })
    expect(ok.headers.has('Retry-After')).toBe(false)
    const own = await run(() => {
      failureInit(failure(429, 'Slow down', 12))
      return new Response('page', { status: 429, headers: { 'Retry-After': '5' } })
    })
    expect(own.headers.get('Retry-After')).toBe('5')
    // A request whose calls named no wait (or ran in another request) gets none.
    failureInit(failure(429, 'Slow down', 30))
    const other = await run(() => new Response('page', { status: 429 }))
    expect(other.headers.has('Retry-After')).toBe(false)
  })
})
