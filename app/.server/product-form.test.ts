/**
 * The BFF side of the product form (app/.server/product-form.ts) with the admin API calls faked:
 * what reaches the API, what the form gets back with JavaScript off (add and remove an extra field,
 * upload and remove images), and how API refusals land on the fields.
 */
import { apiFor, inProcessWiring } from './api-context.ts'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { ProductFormValue } from '../lib/schemas/product.ts'

const uploads: string[] = []
// The API module is mocked below: this `Api` is never called.
const api = apiFor(inProcessWiring(() => Promise.reject(new Error('not wired in this test'))))

vi.mock('./api/admin.ts', () => ({
  uploadFormImage: vi.fn(async (_api: unknown, _session: unknown, file: File) => {
    if (file.name.endsWith('.txt')) return { ok: false, status: 415, message: 'Only images can be uploaded: JPEG, PNG, WebP, AVIF or GIF' }
    uploads.push(file.name)
    return { ok: true, url: `/uploads/${String(uploads.length).padStart(24, '0')}.webp` }
  }),
}))

const { checkProductForm, productSaveRefused, PRODUCT_FORM_LIMITS } = await import('./product-form.ts')
const { uploadIntentReply } = await import('./admin-form.ts')
const { tryReadForm } = await import('./form.ts')

const session = {} as never
const IMAGE = '/uploads/aaaaaaaaaaaaaaaaaaaaaaaa.webp'

function form(entries: Array<[string, string | File]>) {
  const formData = new FormData()
  for (const [name, value] of entries) formData.append(name, value)
  return formData
}

const VALID: Array<[string, string]> = [
  ['name', 'Paneer'],
  ['description', 'Fresh malai paneer'],
  ['image[0]', IMAGE],
  ['category', 'c1'],
  ['unit', '200 g'],
  ['stock', '10'],
  ['price', '90'],
  ['sellingPrice', '85.5'],
]

const png = (name: string) => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], name, { type: 'image/png' })

/**
 * Runs the form as a product route's action does (app/routes/dashboard/upload-product.server.ts):
 * checks it, "saves" it (records the payload and answers `answer`), then answers a refusal or a
 * redirect naming the saved product and the API's message.
 */
async function run(formData: FormData, answer?: unknown) {
  const saved: ProductFormValue[] = []
  const checked = await checkProductForm(api, session, formData)
  if (!checked.ok) return { result: checked.response as unknown, saved }
  saved.push(checked.value)
  const result = (answer ?? { ok: true, status: 200, message: 'Product Created Successfully', data: { _id: 'p1' }, extra: {} }) as
    { ok: true; message: string; data: { _id: string } } | Parameters<typeof productSaveRefused>[1]
  if (!result.ok) return { result: productSaveRefused(checked.submission, result) as unknown, saved }
  return {
    result: new Response(null, { status: 302, headers: { Location: `/done?id=${result.data._id}&m=${result.message}` } }) as unknown,
    saved,
  }
}

/** The reply body and status of a data() answer. */
function body(result: unknown): Record<string, any> {
  const value = result as { data: Record<string, any>; init: { status?: number } | null }
  return { ...value.data, status: value.init?.status }
}

beforeEach(() => {
  uploads.length = 0
})

describe('checkProductForm and productSaveRefused: save', () => {
  it('sends the checked payload and answers onSaved', async () => {
    const { result, saved } = await run(
      form([...VALID, ['intent', 'save'], ['more_details[0].key', 'Brand'], ['more_details[0].value', 'Amul']]),
    )
    expect(saved).toEqual([
      {
        name: 'Paneer',
        description: 'Fresh malai paneer',
        image: [IMAGE],
        category: ['c1'],
        subCategory: [],
        unit: '200 g',
        stock: 10,
        price: 90,
        sellingPrice: 85.5,
        more_details: { Brand: 'Amul' },
        hsn: null,
      },
    ])
    expect(result).toBeInstanceOf(Response)
    expect((result as Response).headers.get('Location')).toBe('/done?id=p1&m=Product Created Successfully')
  })

  it('sends the stored selling price back to the paisa when only the stock changed (edit)', async () => {
    // Amul Butter 500 g: MRP ₹255, selling price ₹251; the old form showed a discount of 2 % and the
    // API recomputed ₹249.90 from it.
    const { productFormDefaults } = await import('../lib/schemas/product.ts')
    const values = productFormDefaults({
      name: 'Amul Butter',
      description: 'Pasteurised butter',
      image: [IMAGE],
      category: [{ _id: 'c1' }],
      subCategory: [],
      unit: '500 g',
      stock: 12,
      price: 255,
      sellingPrice: 251,
      discount: 2,
      more_details: {},
    })
    const entries: Array<[string, string]> = [
      ['intent', 'save'],
      ['name', values.name],
      ['description', values.description],
      ['image[0]', values.image[0]!],
      ['category', values.category[0]!],
      ['unit', values.unit],
      ['stock', '13'],
      ['price', values.price],
      ['sellingPrice', values.sellingPrice],
    ]
    const { saved } = await run(form(entries))
    expect(saved).toHaveLength(1)
    expect(saved[0]).toMatchObject({ stock: 13, price: 255, sellingPrice: 251 })
    // What reaches the API: the selling price as shown, and a discount derived from it for the field the API requires.
    const { productBody } = await vi.importActual<typeof import('./api/admin.ts')>('./api/admin.ts')
    expect(productBody(saved[0]!)).toMatchObject({ price: 255, sellingPrice: 251, discount: 1.57 })
  })

  it('answers 400 with field errors and calls nothing for a bad form', async () => {
    const { result, saved } = await run(
      form([
        ['intent', 'save'],
        ['name', 'X'],
        ['price', '100'],
        ['sellingPrice', '101'],
      ]),
    )
    expect(saved).toEqual([])
    const reply = body(result)
    expect(reply.status).toBe(400)
    expect(reply.result.error).toMatchObject({
      sellingPrice: ['Selling Price cannot be more than the MRP'],
      image: ['Upload at least one image'],
    })
    expect(reply.result.initialValue).toMatchObject({ name: 'X', price: '100', sellingPrice: '101' })
    expect(reply.toast).toEqual({ type: 'error', message: 'Please correct the highlighted fields' })
  })

  it('uploads the files of the JavaScript-off input first and keeps their urls when the form has errors', async () => {
    const { result, saved } = await run(
      form([
        ['intent', 'save'],
        ['name', 'X'],
        ['imageFile', png('a.png')],
        ['imageFile', png('b.png')],
      ]),
    )
    expect(saved).toEqual([])
    expect(uploads).toEqual(['a.png', 'b.png'])
    const reply = body(result)
    expect(reply.result.initialValue.image).toEqual(['/uploads/000000000000000000000001.webp', '/uploads/000000000000000000000002.webp'])
    expect(reply.result.error.image).toBeUndefined()
  })

  it('drops images ticked for removal and reports a file the API refused on the image field', async () => {
    const { result, saved } = await run(
      form([...VALID, ['image[1]', '/uploads/bbbbbbbbbbbbbbbbbbbbbbbb.webp'], ['removeImage', IMAGE], ['imageFile', png('notes.txt')]]),
    )
    expect(saved).toEqual([])
    const reply = body(result)
    expect(reply.status).toBe(415)
    expect(reply.result.error.image).toEqual(['notes.txt: Only images can be uploaded: JPEG, PNG, WebP, AVIF or GIF'])
    expect(reply.result.initialValue.image).toEqual(['/uploads/bbbbbbbbbbbbbbbbbbbbbbbb.webp'])
  })

  it('puts the API issues on their fields and keeps its message', async () => {
    const { result } = await run(form([...VALID, ['intent', 'save']]), {
      ok: false,
      status: 400,
      message: 'Unknown category: c1',
      issues: [{ path: 'category.0', message: 'Unknown category: c1' }],
    })
    const reply = body(result)
    expect(reply.status).toBe(400)
    expect(reply.result.error).toMatchObject({ category: ['Unknown category: c1'] })
    expect(reply.result.error['']).toBeUndefined()
    expect(reply.toast).toEqual({ type: 'error', message: 'Unknown category: c1' })
  })

  it('shows an API failure that names no field on the form, with 502 for an API fault', async () => {
    const { result } = await run(form(VALID), { ok: false, status: 500, message: 'Something broke', issues: [] })
    const reply = body(result)
    expect(reply.status).toBe(502)
    expect(reply.result.error['']).toEqual(['Something broke'])
  })
})

describe('checkProductForm: JavaScript-off helpers', () => {
  it('adds an extra field from the Add Field dialog, keeping what was typed and showing no errors', async () => {
    const { result, saved } = await run(
      form([
        ['intent', 'add-field'],
        ['name', 'X'],
        ['fieldName', '  Shelf Life '],
      ]),
    )
    expect(saved).toEqual([])
    const reply = body(result)
    expect(reply.status).toBe(200)
    expect(reply.fieldAdded).toBe(true)
    expect(reply.addFieldError).toBeNull()
    expect(reply.result.initialValue).toMatchObject({ name: 'X', more_details: [{ key: 'Shelf Life' }] })
    expect(reply.result.error).toBeUndefined()
  })

  it('refuses an empty and a duplicate field name', async () => {
    const empty = body(
      (
        await run(
          form([
            ['intent', 'add-field'],
            ['fieldName', ' '],
          ]),
        )
      ).result,
    )
    expect(empty).toMatchObject({ fieldAdded: false, addFieldError: 'Field name is required' })
    const duplicate = body(
      (
        await run(
          form([
            ['intent', 'add-field'],
            ['more_details[0].key', 'Brand'],
            ['more_details[0].value', 'Amul'],
            ['fieldName', 'BRAND'],
          ]),
        )
      ).result,
    )
    expect(duplicate).toMatchObject({ fieldAdded: false, addFieldError: 'A field with this name already exists' })
    expect(duplicate.result.initialValue.more_details).toEqual([{ key: 'Brand', value: 'Amul' }])
  })

  it('removes extra field i and renumbers the rest', async () => {
    const { result } = await run(
      form([
        ['intent', 'remove-field:0'],
        ['more_details[0].key', 'Brand'],
        ['more_details[0].value', 'Amul'],
        ['more_details[1].key', 'Origin'],
        ['more_details[1].value', 'India'],
      ]),
    )
    expect(body(result).result.initialValue.more_details).toEqual([{ key: 'Origin', value: 'India' }])
  })

  it('uploads picked files on "refresh" without saving', async () => {
    const { result, saved } = await run(form([...VALID, ['intent', 'refresh'], ['imageFile', png('c.png')]]))
    expect(saved).toEqual([])
    expect(body(result).result.initialValue.image).toEqual([IMAGE, '/uploads/000000000000000000000001.webp'])
  })
})

describe('the upload intent and the body limits', () => {
  it('stores one picked image and answers its url, or the reason', async () => {
    expect(body(await uploadIntentReply(api, session, form([['image', png('d.png')]])))).toMatchObject({
      intent: 'upload',
      url: '/uploads/000000000000000000000001.webp',
      error: null,
      status: 200,
    })
    expect(body(await uploadIntentReply(api, session, form([])))).toMatchObject({
      url: null,
      error: 'Choose an image to upload',
      status: 400,
    })
    expect(body(await uploadIntentReply(api, session, form([['image', png('e.txt')]])))).toMatchObject({ url: null, status: 415 })
  })

  it('refuses a body declared over the cap before reading it', async () => {
    const request = new Request('http://x/dashboard/upload-product', {
      method: 'POST',
      headers: { 'Content-Length': String(PRODUCT_FORM_LIMITS.multipartMaxBytes + 1) },
      body: 'x',
    })
    expect(await tryReadForm(request, PRODUCT_FORM_LIMITS)).toEqual({
      ok: false,
      status: 413,
      message: PRODUCT_FORM_LIMITS.tooLargeMessage,
    })
  })
})
