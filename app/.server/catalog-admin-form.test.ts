/**
 * The category and sub category admin forms (app/.server/catalog-admin-form.ts, composed as
 * app/routes/dashboard/category.server.ts does) read their form
 * within the configured upload cap: with `UPLOAD_MAX_BYTES` raised to 10 MB a 6 MB image is stored,
 * both with JavaScript (`intent=upload`) and without (the file travels with the add form), and only
 * a file over 10 MB is refused, with the 10 MB message. The API calls are faked.
 */
import { apiFor, inProcessWiring } from './api-context.ts'
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'

const TEN_MB = 10 * 1024 * 1024
const SIX_MB = 6 * 1024 * 1024

const stored: Array<{ name: string; size: number }> = []
// The API module is mocked below: this `Api` is never called.
const api = apiFor(inProcessWiring(() => Promise.reject(new Error('not wired in this test'))))

vi.mock('./api/admin.ts', () => ({
  uploadFormImage: vi.fn(async (_api: unknown, _session: unknown, file: File) => {
    stored.push({ name: file.name, size: file.size })
    return { ok: true, url: '/uploads/0123456789abcdef01234567.webp' }
  }),
}))

// The cap is configuration read once at start (app/.server/env.ts), so it is set before the modules load.
vi.stubEnv('UPLOAD_MAX_BYTES', String(TEN_MB))
const { catalogActionMessages, catalogSaveAnswer, readCatalogSubmission } = await import('./catalog-admin-form.ts')
const { CategoryFormSchema } = await import('../lib/schemas/catalog.ts')
const { defaultMultipartMaxBytes, tryReadForm } = await import('./form.ts')

const added: unknown[] = []
const session = { user: { role: 'ADMIN' }, flashToast: vi.fn() } as never

/** A PNG-typed file of `bytes` bytes (the BFF checks only type and size; the API checks the bytes). */
const png = (name: string, bytes: number) => new File([new Uint8Array(bytes)], name, { type: 'image/png' })

/** Posts `entries` as a multipart form to the category page's action. */
function post(entries: Array<[string, string | File]>) {
  const body = new FormData()
  for (const [name, value] of entries) body.append(name, value)
  const request = new Request('http://shop.test/dashboard/category', { method: 'POST', body })
  return categoryAction(request)
}

/** The category page's action as app/routes/dashboard/category.server.ts composes it; the API's add is faked. */
async function categoryAction(request: Request) {
  const page = { listHref: '/dashboard/category', schema: CategoryFormSchema, messages: catalogActionMessages('category', 'Category') }
  const submitted = await readCatalogSubmission(api, request, session, page)
  if (submitted.intent === 'answered') return submitted.response
  if (submitted.intent !== 'add') throw new Error(`not faked: ${submitted.intent}`)
  added.push(submitted.value)
  const result = { ok: true, status: 201, message: 'Category added successfully', data: {}, extra: {} } as never
  return catalogSaveAnswer(session, page, submitted, result)
}

/** The body and status of a `data()` answer. */
const answer = (value: unknown): Record<string, any> => {
  const { data, init } = value as { data: Record<string, any>; init: ResponseInit | null }
  return { ...data, status: init?.status }
}

beforeAll(() => {
  expect(process.env.UPLOAD_MAX_BYTES).toBe(String(TEN_MB))
})

beforeEach(() => {
  stored.length = 0
  added.length = 0
})

describe('the category action with UPLOAD_MAX_BYTES raised to 10 MB', () => {
  it('stores a 6 MB image picked with JavaScript (intent=upload)', async () => {
    const reply = answer(
      await post([
        ['intent', 'upload'],
        ['image', png('big.png', SIX_MB)],
      ]),
    )
    expect(reply).toMatchObject({ intent: 'upload', url: '/uploads/0123456789abcdef01234567.webp', error: null, status: 200 })
    expect(stored).toEqual([{ name: 'big.png', size: SIX_MB }])
  })

  it('stores a 6 MB image sent with the add form without JavaScript, then adds the category', async () => {
    const result = await post([
      ['intent', 'add'],
      ['name', 'Big Pictures'],
      ['imageFile', png('big.png', SIX_MB)],
    ])
    expect(result).toBeInstanceOf(Response)
    expect((result as Response).status).toBe(302)
    expect(stored).toEqual([{ name: 'big.png', size: SIX_MB }])
    expect(added).toEqual([{ name: 'Big Pictures', image: '/uploads/0123456789abcdef01234567.webp' }])
  })

  it('refuses an image over 10 MB with 413 and the configured cap in the message', async () => {
    const reply = answer(
      await post([
        ['intent', 'upload'],
        ['image', png('huge.png', TEN_MB + 128 * 1024)],
      ]),
    )
    expect(reply.status).toBe(413)
    expect(reply.toast).toEqual({ type: 'error', message: 'The image is too large: choose one of 10 MB or less' })
    expect(stored).toEqual([])
  })
})

describe('tryReadForm without a cap of its own', () => {
  it('reads a multipart body up to the configured cap, not the 5 MB compile-time default', async () => {
    expect(defaultMultipartMaxBytes()).toBeGreaterThan(TEN_MB)
    const body = new FormData()
    body.set('file', png('big.png', SIX_MB))
    const read = await tryReadForm(new Request('http://shop.test/x', { method: 'POST', body }))
    expect(read.ok).toBe(true)
  })
})
