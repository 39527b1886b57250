/**
 * The profile on a fresh database (PGlite, or PostgreSQL with TEST_DATABASE_URL): update-user and
 * upload-avatar, with real images made by sharp and stored in the test's upload folder.
 */
import fs from 'node:fs'
import path from 'node:path'
import { eq } from 'drizzle-orm'
import sharp from 'sharp'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { images, users } from '../../db/schema.ts'
import { storedImageKeys } from '../../lib/images.ts'
import { tooLargeMessage } from '../../lib/multipart.ts'
import { createRateLimits } from '../../lib/rate-limit.ts'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import { AVATAR_UPDATED, EMAIL_IN_USE, PROFILE_UPDATED } from './profile.ts'
import { createUser } from './service.ts'

const PASSWORD = 'Basmati-Rice-2024'
let t: TestApp
let defaultMaxBytes: number
let seq = 0
const newEmail = (tag = 'shopper') => `${tag}${++seq}@example.com`

beforeAll(async () => {
  t = await createTestApp({ rateLimits: createRateLimits({ loginFailByIp: { points: 10_000, duration: 60 } }) })
  defaultMaxBytes = t.deps.uploadMaxBytes
})
afterAll(() => t?.close())
afterEach(() => {
  t.deps.uploadMaxBytes = defaultMaxBytes
})

/** A user and an access token. */
async function signedIn() {
  const email = newEmail()
  const user = await createUser(t.db, { name: 'Asha Rao', email, password: PASSWORD })
  const res = await t.call('user/login', { json: { email, password: PASSWORD } })
  expect(res.status).toBe(200)
  return { user, email, token: res.body.data.accessToken as string }
}

const updateUser = (token: string | undefined, json: unknown) => t.call('user/update-user', { method: 'PUT', json, token })
const userRow = async (id: string) => (await t.db.select().from(users).where(eq(users.id, id)))[0]

describe('PUT /api/user/update-user', () => {
  it('answers 401 without a token', async () => {
    const res = await updateUser(undefined, { name: 'A', email: newEmail(), mobile: '9876543210' })
    expect(res.status).toBe(401)
  })

  it('updates name, email and mobile (normalised) and answers the public user', async () => {
    const { user, token } = await signedIn()
    const email = newEmail('renamed')
    const res = await updateUser(token, { name: '  Asha R. ', email: `  ${email.toUpperCase()} `, mobile: 9876543210 })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ message: PROFILE_UPDATED, success: true, error: false })
    expect(res.body.data).toMatchObject({ _id: user.id, name: 'Asha R.', email, mobile: '9876543210', role: 'USER' })
    expect(JSON.stringify(res.body)).not.toMatch(/password/i)
    const details = await t.call('user/user-details', { token })
    expect(details.body.data).toMatchObject({ name: 'Asha R.', email, mobile: '9876543210' })
    // A mobile given as a string of digits keeps its leading zero.
    const again = await updateUser(token, { name: 'Asha R.', email, mobile: '09876543210' })
    expect(again.body.data.mobile).toBe('09876543210')
  })

  it('marks a changed email as not verified, and keeps the flag when the email stays', async () => {
    const { user, email, token } = await signedIn()
    await t.db.update(users).set({ verifyEmail: true }).where(eq(users.id, user.id))
    expect((await updateUser(token, { name: 'Asha', email, mobile: '9876543210' })).body.data.verify_email).toBe(true)
    expect((await updateUser(token, { name: 'Asha', email: newEmail(), mobile: '9876543210' })).body.data.verify_email).toBe(false)
  })

  it('requires every field, and says which one is missing', async () => {
    const { user, email, token } = await signedIn()
    const full = { name: 'Asha', email, mobile: '9876543210' }
    for (const field of ['name', 'email', 'mobile'] as const) {
      const { [field]: _, ...rest } = full
      const res = await updateUser(token, rest)
      expect(res.status, field).toBe(400)
      expect(res.body.issues.map((i: { path: string }) => i.path)).toContain(field)
    }
    expect((await updateUser(token, { ...full, name: '   ' })).status).toBe(400)
    expect((await updateUser(token, {})).status).toBe(400)
    expect((await userRow(user.id)).mobile).toBeNull()
  })

  it('refuses a mobile with letters, signs, spaces, too few or too many digits, or a fraction', async () => {
    const { token, email } = await signedIn()
    for (const mobile of ['98765abc10', '+919876543210', '98765 43210', '123456', '1234567890123456', 98765.5, -9876543, '', true]) {
      const res = await updateUser(token, { name: 'Asha', email, mobile })
      expect(res.status, JSON.stringify(mobile)).toBe(400)
      expect(res.body.issues[0]).toEqual({ path: 'mobile', message: 'Mobile must be 7 to 15 digits' })
    }
    expect((await updateUser(token, { name: 'Asha', email, mobile: '1234567' })).status).toBe(200)
    expect((await updateUser(token, { name: 'Asha', email, mobile: '123456789012345' })).status).toBe(200)
  })

  it('refuses objects, arrays and numbers where strings belong, a bad email and an overlong name', async () => {
    const { user, email, token } = await signedIn()
    const cases = [
      { name: { $ne: null }, email, mobile: '9876543210' },
      { name: 'Asha', email: { $ne: null }, mobile: '9876543210' },
      { name: 'Asha', email, mobile: { $gt: '' } },
      { name: ['Asha'], email, mobile: '9876543210' },
      { name: 42, email, mobile: '9876543210' },
      { name: 'Asha', email: 'not-an-email', mobile: '9876543210' },
      { name: 'x'.repeat(101), email, mobile: '9876543210' },
    ]
    for (const body of cases) expect((await updateUser(token, body)).status, JSON.stringify(body)).toBe(400)
    expect((await userRow(user.id)).name).toBe('Asha Rao')
  })

  it('ignores fields that are not part of the profile (no role escalation)', async () => {
    const { user, email, token } = await signedIn()
    const res = await updateUser(token, {
      name: 'Asha',
      email,
      mobile: '9876543210',
      role: 'ADMIN',
      status: 'Active',
      avatar: 'http://evil.example/x.png',
    })
    expect(res.status).toBe(200)
    const row = await userRow(user.id)
    expect(row.role).toBe('USER')
    expect(row.avatar).toBe('')
  })

  it('answers 409 "Email already in use" for another account\'s email, in any case, and changes nothing', async () => {
    const other = await signedIn()
    const { user, email, token } = await signedIn()
    const res = await updateUser(token, { name: 'Changed', email: other.email.toUpperCase(), mobile: '9876543210' })
    expect(res.status).toBe(409)
    expect(res.body).toEqual({ message: EMAIL_IN_USE, error: true, success: false })
    const row = await userRow(user.id)
    expect(row).toMatchObject({ name: 'Asha Rao', email, mobile: null })
    // Keeping one's own email is not a conflict.
    expect((await updateUser(token, { name: 'Changed', email, mobile: '9876543210' })).status).toBe(200)
  })

  it('lets only one of two users take a free email at the same time', async () => {
    const a = await signedIn()
    const b = await signedIn()
    const email = newEmail('contested')
    const results = await Promise.all([
      updateUser(a.token, { name: 'A', email, mobile: '9876543210' }),
      updateUser(b.token, { name: 'B', email, mobile: '9876543210' }),
    ])
    expect(results.map((r) => r.status).sort()).toEqual([200, 409])
  })
})

// ---------------------------------------------------------------------------------------------------

const png = (width = 300, height = 200) =>
  sharp({ create: { width, height, channels: 3, background: { r: 250, g: 200, b: 30 } } })
    .png()
    .toBuffer()
const jpeg = (width = 240, height = 400) =>
  sharp({ create: { width, height, channels: 3, background: { r: 30, g: 160, b: 60 } } })
    .jpeg()
    .toBuffer()
/** A PNG of random pixels: it does not compress, so it is large for its size in pixels. */
const noisyPng = (side: number) =>
  sharp(Buffer.from(Array.from({ length: side * side * 3 }, () => Math.floor(Math.random() * 256))), {
    raw: { width: side, height: side, channels: 3 },
  })
    .png()
    .toBuffer()
const SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script><rect width="10" height="10"/></svg>',
)

function upload(token: string | undefined, bytes: Buffer, filename: string, type: string, field = 'avatar') {
  const fd = new FormData()
  fd.append(field, new File([new Uint8Array(bytes)], filename, { type }))
  return t.call('user/upload-avatar', { method: 'PUT', body: fd, token })
}

const uploadsDir = () => path.join(t.tmpDir, 'uploads')
/** Every file in the test's upload folder, sorted. */
function storedFiles(): string[] {
  return fs.existsSync(uploadsDir()) ? fs.readdirSync(uploadsDir()).sort() : []
}
const keysOf = (url: string) => storedImageKeys(t.deps.storage, url)
const allExist = async (url: string) => (await Promise.all(keysOf(url).map((k) => t.deps.storage.exists(k)))).every(Boolean)
const noneExist = async (url: string) => (await Promise.all(keysOf(url).map((k) => t.deps.storage.exists(k)))).every((e) => !e)

describe('PUT /api/user/upload-avatar', () => {
  it('answers 401 without a token and stores nothing', async () => {
    const before = storedFiles()
    const res = await upload(undefined, await png(), 'me.png', 'image/png')
    expect(res.status).toBe(401)
    expect(storedFiles()).toEqual(before)
  })

  it('accepts a real PNG: a square WebP with its variants is stored and set on the user', async () => {
    const { user, token } = await signedIn()
    const res = await upload(token, await png(300, 200), 'me.png', 'image/png')
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ message: AVATAR_UPDATED, success: true, error: false })
    const { _id, avatar } = res.body.data
    expect(_id).toBe(user.id)
    expect(avatar).toMatch(/^\/uploads\/[0-9a-f]{24}-sq\.webp$/)
    expect((await userRow(user.id)).avatar).toBe(avatar)
    expect((await t.call('user/user-details', { token })).body.data.avatar).toBe(avatar)
    expect(keysOf(avatar)).toHaveLength(4)
    expect(await allExist(avatar)).toBe(true)
    const meta = await sharp(path.join(uploadsDir(), keysOf(avatar)[0])).metadata()
    expect(meta).toMatchObject({ format: 'webp', width: 200, height: 200 })
    // Recorded in the images table.
    expect((await t.db.select().from(images).where(eq(images.url, avatar))).length).toBe(1)
  })

  it('accepts a real JPEG, and a second upload removes the old avatar files', async () => {
    const { user, token } = await signedIn()
    const first = (await upload(token, await png(320, 320), 'first.png', 'image/png')).body.data.avatar
    expect(await allExist(first)).toBe(true)
    const res = await upload(token, await jpeg(240, 400), 'second.jpg', 'image/jpeg')
    expect(res.status).toBe(200)
    const second = res.body.data.avatar
    expect(second).not.toBe(first)
    expect((await userRow(user.id)).avatar).toBe(second)
    expect(await allExist(second)).toBe(true)
    expect(await noneExist(first)).toBe(true)
    expect((await t.db.select().from(images).where(eq(images.url, first))).length).toBe(0)
    const meta = await sharp(path.join(uploadsDir(), keysOf(second)[0])).metadata()
    expect(meta).toMatchObject({ format: 'webp', width: 240, height: 240 })
  })

  it('keeps the files while another user still has the same picture, and uploading it again changes nothing', async () => {
    const picture = await png(260, 180)
    const a = await signedIn()
    const b = await signedIn()
    const shared = (await upload(a.token, picture, 'a.png', 'image/png')).body.data.avatar
    expect((await upload(b.token, picture, 'b.png', 'image/png')).body.data.avatar).toBe(shared)
    // Same picture again: same url, files kept.
    expect((await upload(a.token, picture, 'a.png', 'image/png')).body.data.avatar).toBe(shared)
    expect(await allExist(shared)).toBe(true)
    // A moves on: B still uses the shared files.
    await upload(a.token, await jpeg(200, 200), 'new.jpg', 'image/jpeg')
    expect(await allExist(shared)).toBe(true)
    // B moves on: nobody uses them any more.
    await upload(b.token, await jpeg(210, 210), 'new.jpg', 'image/jpeg')
    expect(await noneExist(shared)).toBe(true)
  })

  it('does not delete an old avatar that is not one of our stored images', async () => {
    const { user, token } = await signedIn()
    await t.db.update(users).set({ avatar: 'https://cdn.example.com/avatar.png' }).where(eq(users.id, user.id))
    const res = await upload(token, await png(150, 150), 'me.png', 'image/png')
    expect(res.status).toBe(200)
    expect((await userRow(user.id)).avatar).toBe(res.body.data.avatar)
  })

  /** Uploads that must be refused: nothing stored, the avatar unchanged. */
  async function expectRefused(send: (token: string) => Promise<{ status: number; body: any }>, status: number, message: RegExp | string) {
    const { user, token } = await signedIn()
    const current = (await upload(token, await png(100, 100), 'current.png', 'image/png')).body.data.avatar
    const filesBefore = storedFiles()
    const imageRowsBefore = await t.db.$count(images)
    const res = await send(token)
    expect(res.status).toBe(status)
    expect(res.body).toMatchObject({ success: false, error: true })
    if (typeof message === 'string') expect(res.body.message).toBe(message)
    else expect(res.body.message).toMatch(message)
    expect(storedFiles()).toEqual(filesBefore)
    expect(await t.db.$count(images)).toBe(imageRowsBefore)
    expect((await userRow(user.id)).avatar).toBe(current)
  }

  it('answers 415 for a text file renamed .png, whatever its type header says', async () => {
    const text = Buffer.from('This is not an image, only text pretending to be one.\n'.repeat(20))
    await expectRefused((token) => upload(token, text, 'photo.png', 'image/png'), 415, /Only images can be uploaded/)
  })

  it('answers 415 for an SVG (it can carry scripts)', async () => {
    await expectRefused((token) => upload(token, SVG, 'logo.svg', 'image/svg+xml'), 415, /Only images can be uploaded/)
    await expectRefused((token) => upload(token, SVG, 'logo.png', 'image/png'), 415, /Only images can be uploaded/)
  })

  it('answers 415 for a truncated PNG', async () => {
    const whole = await noisyPng(64)
    await expectRefused((token) => upload(token, whole.subarray(0, whole.length / 2), 'cut.png', 'image/png'), 415, /image/i)
  })

  it('answers 413 for a real image over the cap, with the cap in the message', async () => {
    t.deps.uploadMaxBytes = 16 * 1024
    const big = await noisyPng(120) // about 43 KB
    expect(big.length).toBeGreaterThan(16 * 1024 + 1024)
    await expectRefused((token) => upload(token, big, 'big.png', 'image/png'), 413, tooLargeMessage(16 * 1024))
    expect(tooLargeMessage(16 * 1024)).toBe('File is larger than 16 KB')
  })

  it('answers 413 for a file just over the default 5 MB cap', async () => {
    expect(defaultMaxBytes).toBe(5 * 1024 * 1024)
    const big = Buffer.alloc(defaultMaxBytes + 1, 0x41)
    await expectRefused((token) => upload(token, big, 'big.png', 'image/png'), 413, 'File is larger than 5 MB')
  })

  it('answers 413 at once for a declared Content-Length over the cap', async () => {
    await expectRefused(
      async (token) => {
        const res = await t.app.request('/api/user/upload-avatar', {
          method: 'PUT',
          headers: {
            Authorization: `Bearer ${token}`,
            'Content-Type': 'multipart/form-data; boundary=----x',
            'Content-Length': String(50 * 1024 * 1024),
          },
          body: '------x--\r\n',
        })
        return { status: res.status, body: await res.json() }
      },
      413,
      'File is larger than 5 MB',
    )
  })

  it('answers 400 for a missing file, a wrong field name or a JSON body', async () => {
    await expectRefused(
      (token) => upload(token, Buffer.alloc(100), 'x.png', 'image/png', 'image'),
      400,
      'Attach a file in the field "avatar"',
    )
    await expectRefused((token) => t.call('user/upload-avatar', { method: 'PUT', json: { avatar: 'x' }, token }), 400, /multipart/)
  })
})
