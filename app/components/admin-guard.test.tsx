import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { createStaticHandler, createStaticRouter, data, StaticRouterProvider } from 'react-router'
import { AdminErrorBoundary, RoleGuard } from './admin-guard.tsx'
import { NO_PERMISSION_MESSAGE, isAdminRole } from '../lib/roles.ts'
import { NoData } from './no-data.tsx'

/**
 * Renders `/` on the server as React Router does (a static handler and router), with a loader that
 * throws `thrown` and the admin pages' error boundary; answers the status and the markup.
 */
async function renderThrowing(thrown: unknown): Promise<{ status: number; html: string }> {
  const handler = createStaticHandler([
    {
      path: '/',
      loader: () => {
        throw thrown
      },
      Component: () => <p>secret list</p>,
      ErrorBoundary: AdminErrorBoundary,
    },
  ])
  const context = await handler.query(new Request('http://shop.test/'))
  if (context instanceof Response) throw new Error('unexpected redirect')
  const router = createStaticRouter(handler.dataRoutes, context)
  return { status: context.statusCode, html: renderToStaticMarkup(<StaticRouterProvider router={router} context={context} />) }
}

describe('AdminErrorBoundary (docs/product.md, "Roles and permissions")', () => {
  it('shows "Do not have permission" in a red alert box for the 403 of requireAdmin, and not the page', async () => {
    const { status, html } = await renderThrowing(data(NO_PERMISSION_MESSAGE, { status: 403 }))
    expect(status).toBe(403)
    expect(NO_PERMISSION_MESSAGE).toBe('Do not have permission')
    expect(html).toContain('Do not have permission')
    expect(html).toMatch(/role="alert"[^>]*class="[^"]*bg-red-100/)
    // The page has a heading even when all it shows is the refusal (axe `page-has-heading-one`).
    expect(html).toMatch(/<h1[^>]*>Do not have permission<\/h1>/)
    expect(html).not.toContain('secret list')
  })
  it('leaves any other failure to the general fallback', async () => {
    const { status, html } = await renderThrowing(data('Unexpected answer', { status: 502 }))
    expect(status).toBe(502)
    expect(html).toContain('Unexpected Application Error!')
    expect(html).not.toContain(NO_PERMISSION_MESSAGE)
  })
  it('shows the staff pages to the allowed roles only (RoleGuard)', () => {
    expect(renderToStaticMarkup(<RoleGuard allowed>{<p>secret list</p>}</RoleGuard>)).toContain('secret list')
    const refused = renderToStaticMarkup(<RoleGuard allowed={false}>{<p>secret list</p>}</RoleGuard>)
    expect(refused).toContain(NO_PERMISSION_MESSAGE)
    expect(refused).not.toContain('secret list')
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
