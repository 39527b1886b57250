/** app/lib/form-body.ts: method, content type, caps (declared and streamed) and broken bodies. */
import { describe, expect, it } from 'vitest'
import { FormReadError, readFormOrFail, URLENCODED_MAX_BYTES } from './form-body.ts'

const url = 'http://shop.test/login'
/** A multipart cap for the tests that are not about it (the server's forms pass the configured one). */
const ONE_MB = { multipartMaxBytes: 1024 * 1024 }
const statusOf = (request: Request, opts: { multipartMaxBytes: number } = ONE_MB) =>
  readFormOrFail(request, opts).then(
    () => 200,
    (err: unknown) => (err instanceof FormReadError ? err.status : 500),
  )

describe('readFormOrFail', () => {
  it('reads url-encoded and multipart forms', async () => {
    const urlencoded = await readFormOrFail(
      new Request(url, { method: 'POST', body: new URLSearchParams({ email: 'a@example.com' }) }),
      ONE_MB,
    )
    expect(urlencoded.get('email')).toBe('a@example.com')
    const multipart = new FormData()
    multipart.set('name', 'Asha')
    expect((await readFormOrFail(new Request(url, { method: 'POST', body: multipart }), ONE_MB)).get('name')).toBe('Asha')
  })

  it('answers 415 to a JSON or text body, 405 to another method, 400 to a broken multipart body', async () => {
    expect(
      await statusOf(new Request(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"email":"a"}' })),
    ).toBe(415)
    expect(await statusOf(new Request(url, { method: 'POST', body: 'plain' }))).toBe(415)
    for (const method of ['PUT', 'PATCH', 'DELETE']) expect(await statusOf(new Request(url, { method }))).toBe(405)
    const broken = new Request(url, {
      method: 'POST',
      headers: { 'Content-Type': 'multipart/form-data; boundary=x' },
      body: '--x\r\nContent-Disposition: form-data\r\n\r\nno end',
    })
    expect(await statusOf(broken)).toBe(400)
    expect(await statusOf(new Request(url, { method: 'POST', headers: { 'Content-Type': 'multipart/form-data' }, body: 'x' }))).toBe(400)
  })

  it('caps a url-encoded body at 64 KB, declared or streamed', async () => {
    const big = `q=${'a'.repeat(URLENCODED_MAX_BYTES)}`
    expect(
      await statusOf(new Request(url, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: big })),
    ).toBe(413)
    let sent = 0
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 50 * 1024 * 1024) return controller.close()
        sent += 8192
        controller.enqueue(new Uint8Array(8192).fill(0x61))
      },
    })
    const chunked = new Request(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: stream,
      duplex: 'half',
    } as RequestInit)
    expect(await statusOf(chunked)).toBe(413)
    expect(sent).toBeLessThan(1024 * 1024)
  })

  it('caps a multipart body at the given size', async () => {
    const form = new FormData()
    form.set('image', new File([new Uint8Array(2048)], 'a.png', { type: 'image/png' }))
    expect(await statusOf(new Request(url, { method: 'POST', body: form }), { multipartMaxBytes: 1024 })).toBe(413)
    expect(await statusOf(new Request(url, { method: 'POST', body: form }), { multipartMaxBytes: 4096 })).toBe(200)
  })
})
