import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { HttpError } from './errors.ts'
import { MULTIPART_OVERHEAD_BYTES, readFileField, tooLargeMessage } from './multipart.ts'

const MAX = 1000

/** A tiny app whose one route answers what readFileField returned, or the error it threw. */
function app() {
  const a = new Hono()
  a.onError((err, c) => (err instanceof HttpError ? c.json({ message: err.message }, err.status) : c.json({ message: String(err) }, 500)))
  a.put('/upload', async (c) => {
    const file = await readFileField(c, 'avatar', MAX)
    return c.json({ size: file.bytes.length, name: file.name, type: file.type, first: file.bytes[0] })
  })
  return a
}

function form(field: string, value: Blob | string, name = 'a.png') {
  const fd = new FormData()
  if (typeof value === 'string') fd.append(field, value)
  else fd.append(field, value, name)
  return fd
}

const send = (body: BodyInit, headers?: Record<string, string>) =>
  app().request('/upload', { method: 'PUT', body, headers, duplex: 'half' } as RequestInit)

describe('readFileField', () => {
  it('returns the bytes of the file and the claimed name and type', async () => {
    const res = await send(form('avatar', new Blob([new Uint8Array(MAX).fill(7)], { type: 'image/png' }), 'me.png'))
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ size: MAX, name: 'me.png', type: 'image/png', first: 7 })
  })

  it('answers 413 for a file one byte over the cap', async () => {
    const res = await send(form('avatar', new Blob([new Uint8Array(MAX + 1)])))
    expect(res.status).toBe(413)
    expect((await res.json()).message).toBe(tooLargeMessage(MAX))
  })

  it('answers 413 from the declared Content-Length before reading the body', async () => {
    let pulls = 0
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulls++
        controller.enqueue(new Uint8Array(100))
      },
    })
    const res = await send(body, {
      'Content-Type': 'multipart/form-data; boundary=x',
      'Content-Length': String(MAX + MULTIPART_OVERHEAD_BYTES + 1),
    })
    expect(res.status).toBe(413)
    // The stream's first pull happens when it is created (highWaterMark 1); nothing beyond.
    expect(pulls).toBeLessThanOrEqual(1)
  })

  it('stops reading an endless body without Content-Length at the cap (413, no hang)', async () => {
    let sentBytes = 0
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        sentBytes += 4096
        controller.enqueue(new Uint8Array(4096))
      },
    })
    const res = await send(endless, { 'Content-Type': 'multipart/form-data; boundary=x' })
    expect(res.status).toBe(413)
    expect(sentBytes).toBeLessThan(MAX + MULTIPART_OVERHEAD_BYTES + 3 * 4096)
  })

  it('answers 400 without a file in the field, for a text value, an empty file, JSON or junk', async () => {
    expect((await send(form('image', new Blob([new Uint8Array(10)])))).status).toBe(400)
    expect((await send(form('avatar', 'just text'))).status).toBe(400)
    expect((await send(form('avatar', new Blob([])))).status).toBe(400)
    expect((await send(JSON.stringify({ avatar: 'x' }), { 'Content-Type': 'application/json' })).status).toBe(400)
    expect((await send('garbage', { 'Content-Type': 'multipart/form-data; boundary=zzz' })).status).toBe(400)
  })
})
