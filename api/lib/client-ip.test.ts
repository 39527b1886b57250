import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { clientIp } from './client-ip.ts'

const app = new Hono().get('/', (c) => c.text(clientIp(c)))
const ipOf = async (headers: Record<string, string>) => (await app.request('/', { headers })).text()

describe('clientIp', () => {
  it('reads X-Client-Ip', async () => {
    expect(await ipOf({ 'X-Client-Ip': ' 203.0.113.7 ' })).toBe('203.0.113.7')
    expect(await ipOf({ 'x-client-ip': '2001:db8::1' })).toBe('2001:db8::1')
  })

  it("is 'unknown' when absent, empty or too long", async () => {
    expect(await ipOf({})).toBe('unknown')
    expect(await ipOf({ 'X-Client-Ip': '  ' })).toBe('unknown')
    expect(await ipOf({ 'X-Client-Ip': 'x'.repeat(65) })).toBe('unknown')
  })

  it('ignores X-Forwarded-For (not trusted here)', async () => {
    expect(await ipOf({ 'X-Forwarded-For': '198.51.100.1' })).toBe('unknown')
  })
})
