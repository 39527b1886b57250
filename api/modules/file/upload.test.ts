/**
 * POST /api/file/upload on a fresh database (PGlite, or PostgreSQL with TEST_DATABASE_URL): an
 * admin's image is re-encoded and stored; a renamed text file, an SVG with a script, an oversized
 * file and bodies without a file are refused with nothing stored (docs/decisions/0004-images.md). The
 * 401/403 matrix is in api/authz.test.ts.
 */
import path from 'node:path'
import { eq } from 'drizzle-orm'
import sharp from 'sharp'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { images } from '../../db/schema.ts'
import { storedImageKeys } from '../../lib/images.ts'
import { tooLargeMessage } from '../../lib/multipart.ts'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import { createAdmin, type SignedIn } from '../../testing/auth.ts'
import { storedFiles, testPng } from '../../testing/fixtures.ts'
import { UPLOAD_DONE } from './service.ts'

let t: TestApp
let admin: SignedIn
let defaultMaxBytes: number

beforeAll(async () => {
  t = await createTestApp()
  admin = await createAdmin(t)
  defaultMaxBytes = t.deps.uploadMaxBytes
})
afterAll(() => t?.close())
afterEach(() => {
  t.deps.uploadMaxBytes = defaultMaxBytes
})

function upload(bytes: Buffer, filename: string, type: string, field = 'image', token: string | undefined = admin.token) {
  const form = new FormData()
  form.append(field, new File([new Uint8Array(bytes)], filename, { type }))
  return t.call('file/upload', { method: 'POST', body: form, token })
}

const SVG_WITH_SCRIPT = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(document.cookie)</script><rect width="10" height="10"/></svg>',
)
/** A PNG of random pixels: it does not compress, so it is large for its size in pixels. */
const noisyPng = (side: number) =>
  sharp(Buffer.from(Array.from({ length: side * side * 3 }, () => Math.floor(Math.random() * 256))), {
    raw: { width: side, height: side, channels: 3 },
  })
    .png()
    .toBuffer()

describe('POST /api/file/upload', () => {
  it('stores a JPEG as WebP in four widths and answers { url, width, height, format, bytes } with 201', async () => {
    const jpeg = await sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 20, g: 120, b: 40 } } })
      .jpeg()
      .toBuffer()
    const res = await upload(jpeg, 'paneer.jpg', 'image/jpeg')
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ message: UPLOAD_DONE, success: true, error: false })
    const { url, width, height, format, bytes } = res.body.data
    expect(url).toMatch(/^\/uploads\/[0-9a-f]{24}\.webp$/)
    expect({ width, height, format }).toEqual({ width: 640, height: 480, format: 'webp' })
    expect(bytes).toBeGreaterThan(0)
    const keys = storedImageKeys(t.deps.storage, url)
    expect(keys).toHaveLength(4)
    for (const key of keys) expect(storedFiles(t.tmpDir)).toContain(key)
    const meta = await sharp(path.join(t.tmpDir, 'uploads', keys[0]!)).metadata()
    expect(meta).toMatchObject({ format: 'webp', width: 640, height: 480 })
    expect(await t.db.select().from(images).where(eq(images.url, url))).toHaveLength(1)
  })

  it('answers the same url for the same picture, without storing it twice', async () => {
    const png = await testPng({ width: 120, height: 90 })
    const first = await upload(png, 'a.png', 'image/png')
    const filesAfterFirst = storedFiles(t.tmpDir)
    const second = await upload(png, 'copy-of-a.png', 'image/png')
    expect(second.status).toBe(201)
    expect(second.body.data.url).toBe(first.body.data.url)
    expect(storedFiles(t.tmpDir)).toEqual(filesAfterFirst)
    expect(await t.db.select().from(images).where(eq(images.url, first.body.data.url))).toHaveLength(1)
  })

  /** Sends a refused upload and checks that no file and no images row appeared. */
  async function expectRefused(send: () => Promise<{ status: number; body: any }>, status: number, message: string | RegExp) {
    const filesBefore = storedFiles(t.tmpDir)
    const rowsBefore = await t.db.$count(images)
    const res = await send()
    expect(res.status).toBe(status)
    expect(res.body).toMatchObject({ success: false, error: true })
    if (typeof message === 'string') expect(res.body.message).toBe(message)
    else expect(res.body.message).toMatch(message)
    expect(storedFiles(t.tmpDir)).toEqual(filesBefore)
    expect(await t.db.$count(images)).toBe(rowsBefore)
  }

  it('answers 415 for a text file renamed .png, whatever its type header says', async () => {
    const text = Buffer.from('Not an image, only text dressed up as one.\n'.repeat(30))
    await expectRefused(() => upload(text, 'photo.png', 'image/png'), 415, /Only images can be uploaded/)
    await expectRefused(() => upload(text, 'photo.jpg', 'image/jpeg'), 415, /Only images can be uploaded/)
  })

  it('answers 415 for an SVG carrying a script, as .svg and renamed .png', async () => {
    await expectRefused(() => upload(SVG_WITH_SCRIPT, 'logo.svg', 'image/svg+xml'), 415, /Only images can be uploaded/)
    await expectRefused(() => upload(SVG_WITH_SCRIPT, 'logo.png', 'image/png'), 415, /Only images can be uploaded/)
  })

  it('answers 413 with the cap in the message for an image over deps.uploadMaxBytes', async () => {
    t.deps.uploadMaxBytes = 16 * 1024
    const big = await noisyPng(120) // about 43 KB
    expect(big.length).toBeGreaterThan(16 * 1024 + 1024)
    await expectRefused(() => upload(big, 'big.png', 'image/png'), 413, tooLargeMessage(16 * 1024))
  })

  it('answers 413 "File is larger than 5 MB" for a file just over the default cap', async () => {
    expect(defaultMaxBytes).toBe(5 * 1024 * 1024)
    await expectRefused(() => upload(Buffer.alloc(defaultMaxBytes + 1, 0x41), 'big.png', 'image/png'), 413, 'File is larger than 5 MB')
  })

  it('answers 400 without a file in the field "image", or for a JSON body', async () => {
    await expectRefused(() => upload(Buffer.from('x'), 'x.png', 'image/png', 'avatar'), 400, 'Attach a file in the field "image"')
    await expectRefused(() => t.call('file/upload', { json: { image: 'https://example.com/a.png' }, token: admin.token }), 400, /multipart/)
    await expectRefused(
      async () => {
        const form = new FormData()
        form.append('image', 'just text, not a file')
        return t.call('file/upload', { method: 'POST', body: form, token: admin.token })
      },
      400,
      'Attach a file in the field "image"',
    )
  })
})
