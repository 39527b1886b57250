import { describe, expect, it } from 'vitest'
import { adminHref, readDialog, shouldRevalidateAdminPage, withAddField } from './admin-urls.ts'

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

describe('withAddField and shouldRevalidateAdminPage', () => {
  const url = (href: string) => new URL(href, 'http://x')
  it('opens the Add Field dialog on the same address', () => {
    expect(withAddField('/dashboard/product?q=milk&edit=p1')).toBe('/dashboard/product?q=milk&edit=p1&add-field=1')
    expect(withAddField('/dashboard/upload-product')).toBe('/dashboard/upload-product?add-field=1')
  })
  it('skips the loader for an image upload and for opening or closing Add Field only', () => {
    const upload = new FormData()
    upload.set('intent', 'upload')
    const args = (from: string, to: string, formData?: FormData) => ({
      currentUrl: url(from),
      nextUrl: url(to),
      formData,
      defaultShouldRevalidate: true,
    })
    expect(shouldRevalidateAdminPage(args('/dashboard/category', '/dashboard/category', upload))).toBe(false)
    expect(shouldRevalidateAdminPage(args('/dashboard/product?edit=p1', '/dashboard/product?edit=p1&add-field=1'))).toBe(false)
    expect(shouldRevalidateAdminPage(args('/dashboard/product?edit=p1', '/dashboard/product?edit=p2'))).toBe(true)
    expect(shouldRevalidateAdminPage(args('/dashboard/category?dialog=add', '/dashboard/category', new FormData()))).toBe(true)
  })
})
