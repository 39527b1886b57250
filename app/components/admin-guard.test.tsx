import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { AdminGuard } from './admin-guard.tsx'
import { NO_PERMISSION_MESSAGE, isAdminRole } from '../lib/roles.ts'
import { NoData } from './no-data.tsx'

describe('AdminGuard (docs/product.md, "Roles and permissions")', () => {
  it('shows the child to an admin only', () => {
    const html = renderToStaticMarkup(
      <AdminGuard isAdmin>
        <p>secret list</p>
      </AdminGuard>,
    )
    expect(html).toContain('secret list')
    expect(html).not.toContain(NO_PERMISSION_MESSAGE)
  })
  it('shows "Do not have permission" in a red alert box to anyone else, and not the child', () => {
    const html = renderToStaticMarkup(
      <AdminGuard isAdmin={false}>
        <p>secret list</p>
      </AdminGuard>,
    )
    expect(NO_PERMISSION_MESSAGE).toBe('Do not have permission')
    expect(html).toContain('Do not have permission')
    expect(html).toMatch(/role="alert"[^>]*class="[^"]*bg-red-100/)
    // The page has a heading even when all it shows is the refusal (axe `page-has-heading-one`).
    expect(html).toMatch(/<h1[^>]*>Do not have permission<\/h1>/)
    expect(html).not.toContain('secret list')
  })
  it('treats only the role value ADMIN as admin', () => {
    expect(isAdminRole('ADMIN')).toBe(true)
    for (const role of ['USER', 'admin', '', null, undefined]) expect(isAdminRole(role)).toBe(false)
  })
})

describe('NoData', () => {
  it('draws the picture inline with the caption "No Data"', () => {
    const html = renderToStaticMarkup(<NoData />)
    expect(html).toContain('<svg')
    expect(html).toContain('No Data</figcaption>')
  })
})
