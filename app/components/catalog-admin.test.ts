import { describe, expect, it } from 'vitest'
import {
  CATEGORY_REQUIRED_MESSAGE,
  IMAGE_MAX_BYTES,
  IMAGE_REQUIRED_MESSAGE,
  IMAGE_TOO_LARGE_MESSAGE,
  IMAGE_TYPE_MESSAGE,
  NAME_REQUIRED_MESSAGE,
  NAME_TOO_LONG_MESSAGE,
  adminHref,
  checkImageFile,
  issuesToFieldErrors,
  paginate,
  parseCategoryForm,
  parseSubCategoryForm,
  readAdminForm,
  readCategoryIds,
  readDialog,
  readImageFile,
  readIntent,
} from './catalog-admin.ts'

const form = (entries: Array<[string, string | Blob]>) => {
  const fd = new FormData()
  for (const [key, value] of entries) fd.append(key, value)
  return fd
}

describe('readIntent: the multipart form intent', () => {
  it('knows upload, add, edit and delete', () => {
    for (const intent of ['upload', 'add', 'edit', 'delete']) expect(readIntent(form([['intent', intent]]))).toBe(intent)
  })
  it('answers null for a missing, unknown or file-valued intent', () => {
    expect(readIntent(form([]))).toBeNull()
    expect(readIntent(form([['intent', 'drop-table']]))).toBeNull()
    expect(readIntent(form([['intent', new File(['x'], 'add')]]))).toBeNull()
  })
})

describe('readImageFile', () => {
  it('gives the chosen file and ignores the empty part a browser sends when nothing was chosen', () => {
    const file = new File([new Uint8Array([1, 2, 3])], 'a.png', { type: 'image/png' })
    expect(readImageFile(form([['imageFile', file]]), 'imageFile')?.name).toBe('a.png')
    expect(readImageFile(form([['imageFile', new File([], '')]]), 'imageFile')).toBeNull()
    expect(readImageFile(form([['imageFile', 'not a file']]), 'imageFile')).toBeNull()
  })
})

describe('checkImageFile: the browser-side check before an upload', () => {
  it('refuses a file over 5 MB and a type the API refuses (SVG)', () => {
    expect(checkImageFile({ size: IMAGE_MAX_BYTES + 1, type: 'image/png' })).toBe(IMAGE_TOO_LARGE_MESSAGE)
    expect(checkImageFile({ size: 100, type: 'image/svg+xml' })).toBe(IMAGE_TYPE_MESSAGE)
  })
  it('accepts JPEG, PNG, WebP, AVIF and GIF up to exactly 5 MB', () => {
    for (const type of ['image/jpeg', 'image/png', 'image/webp', 'image/avif', 'image/gif']) {
      expect(checkImageFile({ size: IMAGE_MAX_BYTES, type })).toBeNull()
    }
  })
})

describe('readAdminForm', () => {
  it('refuses a declared body over one image plus overhead with 413, before reading it', async () => {
    const request = new Request('http://x/dashboard/category', {
      method: 'POST',
      headers: { 'Content-Length': String(IMAGE_MAX_BYTES * 2), 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'intent=add',
    })
    expect(await readAdminForm(request)).toEqual({ ok: false, status: 413, message: IMAGE_TOO_LARGE_MESSAGE })
  })
  it('reads a multipart form with a file', async () => {
    const request = new Request('http://x/', {
      method: 'POST',
      body: form([
        ['intent', 'add'],
        ['imageFile', new File(['abc'], 'a.png')],
      ]),
    })
    const result = await readAdminForm(request)
    expect(result.ok && result.formData.get('intent')).toBe('add')
  })
  it('answers 400 for a body that is not a form', async () => {
    const request = new Request('http://x/', {
      method: 'POST',
      headers: { 'Content-Type': 'multipart/form-data; boundary=zz' },
      body: 'garbage',
    })
    expect(await readAdminForm(request)).toMatchObject({ ok: false, status: 400 })
  })
})

describe('parseCategoryForm (spec section 5; name 1..80, image required)', () => {
  it('trims and accepts a name and an image url', () => {
    expect(
      parseCategoryForm(
        form([
          ['name', '  Dairy  '],
          ['image', '/uploads/a.webp'],
        ]),
      ),
    ).toEqual({
      ok: true,
      value: { name: 'Dairy', image: '/uploads/a.webp' },
    })
  })
  it('reports a blank name and a missing image on their fields, keeping the values typed', () => {
    expect(parseCategoryForm(form([['name', '   ']]))).toEqual({
      ok: false,
      values: { name: '', image: '' },
      fieldErrors: { name: [NAME_REQUIRED_MESSAGE], image: [IMAGE_REQUIRED_MESSAGE] },
    })
  })
  it('accepts 80 characters and refuses 81', () => {
    expect(
      parseCategoryForm(
        form([
          ['name', 'a'.repeat(80)],
          ['image', 'u'],
        ]),
      ).ok,
    ).toBe(true)
    const long = parseCategoryForm(
      form([
        ['name', 'a'.repeat(81)],
        ['image', 'u'],
      ]),
    )
    expect(long.ok === false && long.fieldErrors).toEqual({ name: [NAME_TOO_LONG_MESSAGE] })
  })
})

describe('parseSubCategoryForm', () => {
  it('collects the repeated category field (chips) and the multiple select alike, once each', () => {
    const parsed = parseSubCategoryForm(
      form([
        ['name', 'Milk'],
        ['image', 'u'],
        ['category', 'c1'],
        ['category', ''],
        ['category', 'c2'],
        ['category', 'c1'],
      ]),
    )
    expect(parsed).toEqual({ ok: true, value: { name: 'Milk', image: 'u', category: ['c1', 'c2'] } })
  })
  it('needs at least one category', () => {
    const parsed = parseSubCategoryForm(
      form([
        ['name', 'Milk'],
        ['image', 'u'],
      ]),
    )
    expect(parsed.ok === false && parsed.fieldErrors).toEqual({ category: [CATEGORY_REQUIRED_MESSAGE] })
  })
  it('readCategoryIds ignores file parts', () => {
    expect(
      readCategoryIds(
        form([
          ['category', new File(['x'], 'x')],
          ['category', ' c3 '],
        ]),
      ),
    ).toEqual(['c3'])
  })
})

describe('issuesToFieldErrors', () => {
  it('puts API issues on the named field by the first path segment and drops others', () => {
    expect(
      issuesToFieldErrors(
        [
          { path: 'category.0', message: 'Unknown category' },
          { path: 'name', message: 'Too long' },
          { path: 'name', message: 'Too long' },
          { path: 'other', message: 'x' },
        ],
        ['name', 'image', 'category'],
      ),
    ).toEqual({ category: ['Unknown category'], name: ['Too long'] })
  })
})

describe('readDialog and adminHref: dialogs reachable by URL', () => {
  it('reads ?dialog=add, ?edit=, ?delete= and ?view=', () => {
    expect(readDialog(new URLSearchParams('dialog=add'))).toEqual({ kind: 'add' })
    expect(readDialog(new URLSearchParams('edit=abc'))).toEqual({ kind: 'edit', id: 'abc' })
    expect(readDialog(new URLSearchParams('page=2&delete=abc'))).toEqual({ kind: 'delete', id: 'abc' })
    expect(readDialog(new URLSearchParams('view=x1'))).toEqual({ kind: 'view', id: 'x1' })
    expect(readDialog(new URLSearchParams('dialog=other&edit='))).toBeNull()
    expect(readDialog(new URLSearchParams(''))).toBeNull()
  })
  it('keeps the page, drops other dialogs, and closes to the bare path on page 1', () => {
    const search = new URLSearchParams('page=3&edit=old&foo=bar')
    expect(adminHref('/dashboard/subcategory', search, { kind: 'delete', id: 'id1' })).toBe('/dashboard/subcategory?page=3&delete=id1')
    expect(adminHref('/dashboard/subcategory', search, null)).toBe('/dashboard/subcategory?page=3')
    expect(adminHref('/dashboard/subcategory', search, null, 1)).toBe('/dashboard/subcategory')
    expect(adminHref('/dashboard/category', new URLSearchParams('page=abc'), { kind: 'add' })).toBe('/dashboard/category?dialog=add')
    // The id is URL-encoded, so a crafted id cannot add parameters.
    expect(adminHref('/p', new URLSearchParams(), { kind: 'edit', id: 'a&page=9' })).toBe('/p?edit=a%26page%3D9')
  })
})

describe('paginate (spec section 9: data table page size 10)', () => {
  const items = Array.from({ length: 23 }, (_, i) => i + 1)
  it('cuts pages of 10 with serial numbers continuing across pages', () => {
    expect(paginate(items, '1')).toEqual({ rows: items.slice(0, 10), page: 1, totalPages: 3, firstSerial: 1 })
    expect(paginate(items, 2)).toMatchObject({ rows: items.slice(10, 20), page: 2, firstSerial: 11 })
    expect(paginate(items, '3').rows).toEqual([21, 22, 23])
  })
  it('clamps a page past the end to the last page and a bad or small page to 1', () => {
    expect(paginate(items, '99')).toMatchObject({ page: 3, firstSerial: 21 })
    expect(paginate(items, '0').page).toBe(1)
    expect(paginate(items, '-4').page).toBe(1)
    expect(paginate(items, 'abc').page).toBe(1)
    expect(paginate(items, null).page).toBe(1)
  })
  it('gives one empty page for an empty list', () => {
    expect(paginate([], '5')).toEqual({ rows: [], page: 1, totalPages: 1, firstSerial: 1 })
  })
})
