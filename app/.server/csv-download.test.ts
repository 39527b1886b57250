import { describe, expect, it } from 'vitest'
import { csvDownload } from './csv-download.ts'

/** The Response a thrown `data(...)` carries: its status and message. */
async function refusal(promise: Promise<unknown>) {
  const thrown = (await promise.catch((e: unknown) => e)) as {
    init?: { status?: number; headers?: Record<string, string> }
    data?: unknown
  }
  return { status: thrown.init?.status, message: thrown.data, headers: thrown.init?.headers }
}

describe('csvDownload', () => {
  it('streams a CSV answer as an attachment, keeping the API file name, never cached', async () => {
    const answer = new Response('sku,name\n1,Atta\n', {
      headers: { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="orders-2026.csv"' },
    })
    const sent = await csvDownload(answer, 'orders.csv')
    expect(sent.headers.get('content-disposition')).toBe('attachment; filename="orders-2026.csv"')
    expect(sent.headers.get('cache-control')).toBe('no-store')
    expect(await sent.text()).toBe('sku,name\n1,Atta\n')
    const unnamed = await csvDownload(new Response('a\n', { headers: { 'content-type': 'text/csv' } }), 'products.csv')
    expect(unnamed.headers.get('content-disposition')).toBe('attachment; filename="products.csv"')
  })

  it('answers 503 with Retry-After when the API could not be reached', async () => {
    const r = await refusal(csvDownload(undefined, 'orders.csv'))
    expect(r.status).toBe(503)
    expect(r.headers?.['Retry-After']).toMatch(/^\d+$/)
  })

  it("passes on the API's refusal, and calls a 200 that is not CSV a 502", async () => {
    const refused = new Response(JSON.stringify({ message: 'Permission denied: admin or staff only', error: true, success: false }), {
      status: 403,
    })
    expect(await refusal(csvDownload(refused, 'orders.csv'))).toMatchObject({
      status: 403,
      message: 'Permission denied: admin or staff only',
    })
    const html = new Response('<html>', { headers: { 'content-type': 'text/html' } })
    expect(await refusal(csvDownload(html, 'orders.csv'))).toMatchObject({ status: 502, message: 'Export failed' })
  })
})
