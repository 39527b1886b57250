import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { ToastNotice } from './toasts.tsx'

const refused = { type: 'error' as const, message: 'Check your email or password' }
/** The opening tag of the toast box itself (its icon is aria-hidden either way). */
const boxTag = (html: string) => html.match(/<div[^>]*data-toast-type="[^"]*"[^>]*>/)?.[0] ?? ''

describe('ToastNotice without JavaScript (the server-rendered box)', () => {
  it('announces an error toast as an alert and a success toast as a status', () => {
    expect(renderToStaticMarkup(<ToastNotice toast={refused} />)).toMatch(/role="alert"[^>]*>.*Check your email or password/)
    expect(renderToStaticMarkup(<ToastNotice toast={{ type: 'success', message: 'Saved' }} />)).toContain('role="status"')
  })
  it('is not a live region when the form already shows the same message (no double announcement)', () => {
    const html = renderToStaticMarkup(<ToastNotice toast={refused} shownInForm={['Check your email or password']} />)
    expect(html).toContain('Check your email or password')
    expect(html).not.toMatch(/role="(alert|status)"/)
    expect(boxTag(html)).toContain('aria-hidden="true"')
  })
  it('stays an alert when the form shows other messages', () => {
    const html = renderToStaticMarkup(<ToastNotice toast={refused} shownInForm={['Email is required', null]} />)
    expect(boxTag(html)).toContain('role="alert"')
    expect(boxTag(html)).not.toContain('aria-hidden')
  })
  it('has a close box that works without JavaScript, kept out of the tab order when the box is hidden', () => {
    expect(renderToStaticMarkup(<ToastNotice toast={refused} />)).toMatch(
      /<input type="checkbox" class="toast-dismiss sr-only" aria-label="Dismiss message"\/>/,
    )
    expect(renderToStaticMarkup(<ToastNotice toast={refused} shownInForm={['Check your email or password']} />)).toMatch(
      /class="toast-dismiss[^"]*"[^>]*tabindex="-1"/,
    )
  })
  it('renders nothing without a toast', () => {
    expect(renderToStaticMarkup(<ToastNotice toast={null} shownInForm={['x']} />)).toBe('')
  })
})
