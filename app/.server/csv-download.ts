/**
 * Sends an API's CSV answer on to the browser as a download (the admin exports:
 * /dashboard/orders/export, /dashboard/product/export): the body is streamed, never read whole; the
 * API's `Content-Disposition` is kept (else `attachment; filename="<fallbackName>"`), and nothing
 * keeps a copy (`Cache-Control: no-store`).
 * @throws a 503 with Retry-After when the API could not be reached (`answer` undefined); the API's
 *   own status and message when it refused; 502 when it answered 200 with anything but CSV
 */
import { data } from 'react-router'
import { UNAVAILABLE_RETRY_AFTER_S } from './upstream.ts'

export async function csvDownload(answer: Response | undefined | null, fallbackName: string): Promise<Response> {
  if (!answer) {
    throw data('The store is unavailable for a moment, please try again shortly', {
      status: 503,
      headers: { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_S) },
    })
  }
  if (!answer.ok || !(answer.headers.get('content-type') ?? '').startsWith('text/csv')) {
    const body = (await answer.json().catch(() => null)) as { message?: string } | null
    throw data(body?.message ?? 'Export failed', { status: answer.ok ? 502 : answer.status })
  }
  return new Response(answer.body, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': answer.headers.get('content-disposition') ?? `attachment; filename="${fallbackName}"`,
      'Cache-Control': 'no-store',
    },
  })
}
