/**
 * axe-core in the browser tests (WCAG 2.2 AA, docs/accessibility.md): runs the axe engine on the
 * current page and returns its violations in a readable form. The engine is evaluated through the
 * DevTools protocol, so neither the page's CSP nor JavaScript being off in the page stops it.
 */
import fs from 'node:fs'
import { createRequire } from 'node:module'
import { test, type Page } from '@playwright/test'

const require = createRequire(import.meta.url)
const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8')

/** The WCAG tags checked: every A and AA rule up to WCAG 2.2. */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']

/** One violated rule: its id, impact and up to three offending elements (CSS selectors and HTML). */
export interface AxeViolation {
  id: string
  impact: string | null
  help: string
  nodes: { target: string; html: string }[]
}

/**
 * Runs axe on `page` (optionally only inside `include`, a CSS selector) once its document has
 * loaded, and returns the violations.
 * With JavaScript off in the page, the browser never fires the timers axe waits on, so the page as it
 * is now (its current DOM, scripts removed) is checked in a scratch JavaScript-on page at the same
 * URL and viewport, with the same stylesheets and images from the server.
 */
export async function axeViolations(page: Page, include?: string): Promise<AxeViolation[]> {
  // A check right after a navigation (a form's redirect seen by its URL) must not read a document
  // the browser is still parsing: a link whose text has not arrived yet has no name.
  await page.waitForLoadState('load')
  if (test.info().project.use.javaScriptEnabled !== false) return run(page, include)
  const html = (await page.content()).replace(/<script\b(?![^>]*application\/ld\+json)[^>]*>[\s\S]*?<\/script>/gi, '')
  const context = await page.context().browser()!.newContext({ viewport: page.viewportSize(), bypassCSP: true, javaScriptEnabled: true })
  try {
    const clone = await context.newPage()
    await clone.route(page.url(), (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html }))
    await clone.goto(page.url())
    // A page in the background gets no animation frames, which axe waits on.
    await clone.bringToFront()
    try {
      return await run(clone, include)
    } finally {
      await page.bringToFront()
    }
  } finally {
    await context.close()
  }
}

async function run(page: Page, include?: string): Promise<AxeViolation[]> {
  await page.evaluate(AXE_SOURCE)
  return page.evaluate(
    async ({ tags, include }) => {
      const axe = (globalThis as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<any> } }).axe
      const result = await axe.run(include ? { include: [include] } : document, {
        runOnly: { type: 'tag', values: tags },
        resultTypes: ['violations'],
      })
      return result.violations.map((v: any) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        nodes: v.nodes.slice(0, 3).map((n: any) => ({ target: n.target.join(' '), html: n.html.slice(0, 200) })),
      }))
    },
    { tags: WCAG_TAGS, include },
  )
}
