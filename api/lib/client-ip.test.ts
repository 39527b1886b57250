import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import express from 'express'
import { getRequestListener } from '@hono/node-server'
import { addressGroup, clientIp, clientIpMiddleware, parseTrustProxy } from './client-ip.ts'

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

/**
 * The address server.ts puts in X-Client-Ip, through a real Express app with `trust proxy` from
 * TRUST_PROXY, over loopback (the socket address is 127.0.0.1).
 */
describe('clientIpMiddleware with TRUST_PROXY', () => {
  async function addressSeen(trustProxy: string | undefined, headers: Record<string, string>, internalToken?: string) {
    const app = express()
    app.set('trust proxy', parseTrustProxy(trustProxy))
    app.use(clientIpMiddleware(internalToken))
    app.get('/', (req, res) => res.send(`${req.headers['x-client-ip']}|${req.headers['x-internal-token'] ?? ''}`))
    const server = await new Promise<import('node:http').Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s))
    })
    try {
      const { port } = server.address() as import('node:net').AddressInfo
      return await (await fetch(`http://127.0.0.1:${port}/`, { headers })).text()
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  }

  it('without TRUST_PROXY takes the socket address and ignores what the client wrote', async () => {
    expect(await addressSeen(undefined, { 'X-Forwarded-For': '198.51.100.1', 'X-Client-Ip': '198.51.100.2' })).toBe('127.0.0.1|')
  })

  it('with one trusted hop takes the entry the proxy appended, not the client-written one on the left', async () => {
    // The client sent "X-Forwarded-For: 6.6.6.6"; the proxy appended the real address 203.0.113.9.
    expect(await addressSeen('1', { 'X-Forwarded-For': '6.6.6.6, 203.0.113.9' })).toBe('203.0.113.9|')
    expect(await addressSeen('1', { 'X-Forwarded-For': '203.0.113.9' })).toBe('203.0.113.9|')
  })

  it('with two hops (a CDN and a load balancer) counts two from the right', async () => {
    expect(await addressSeen('2', { 'X-Forwarded-For': '6.6.6.6, 203.0.113.9, 192.0.2.50' })).toBe('203.0.113.9|')
  })

  it('with a list of proxy addresses skips only those', async () => {
    expect(await addressSeen('loopback, 192.0.2.0/24', { 'X-Forwarded-For': '6.6.6.6, 203.0.113.9, 192.0.2.50' })).toBe('203.0.113.9|')
  })

  it('keeps a forwarded address only from a caller with the internal token, and drops the token header', async () => {
    const forwarded = { 'X-Client-Ip': '203.0.113.77', 'X-Internal-Token': 'internal-secret-0123456789' }
    expect(await addressSeen(undefined, forwarded, 'internal-secret-0123456789')).toBe('203.0.113.77|')
    expect(await addressSeen(undefined, { ...forwarded, 'X-Internal-Token': 'guess' }, 'internal-secret-0123456789')).toBe('127.0.0.1|')
    expect(await addressSeen(undefined, forwarded, undefined)).toBe('127.0.0.1|')
  })

  it('is what the API itself sees through @hono/node-server, whatever X-Client-Ip the client sent', async () => {
    const api = new Hono().get('/api/ip', (c) => c.text(`${clientIp(c)}|${c.req.header('x-internal-token') ?? ''}`))
    const app = express()
    app.set('trust proxy', parseTrustProxy(undefined))
    app.use(clientIpMiddleware('internal-secret-0123456789'))
    app.use(getRequestListener(api.fetch))
    const server = await new Promise<import('node:http').Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s))
    })
    try {
      const { port } = server.address() as import('node:net').AddressInfo
      const seen = await (
        await fetch(`http://127.0.0.1:${port}/api/ip`, { headers: { 'X-Client-Ip': '6.6.6.6', 'X-Internal-Token': 'guess' } })
      ).text()
      expect(seen).toBe('127.0.0.1|')
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  })

  it('refuses TRUST_PROXY values that would trust every hop, and junk', () => {
    expect(() => parseTrustProxy('true')).toThrow(/number of proxy hops/)
    expect(() => parseTrustProxy('*')).toThrow()
    expect(() => parseTrustProxy('proxy.example')).toThrow(/TRUST_PROXY/)
    expect(parseTrustProxy('')).toBe(0)
    expect(parseTrustProxy('3')).toBe(3)
    expect(parseTrustProxy('10.0.0.1, 10.0.0.0/8')).toEqual(['10.0.0.1', '10.0.0.0/8'])
  })
})

describe('addressGroup', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['::FFFF:203.0.113.7', '203.0.113.7'],
    ['2001:db8:0:1::1', '2001:db8:0:1::/64'],
    ['2001:0db8:0000:0001:ffff:ffff:ffff:ffff', '2001:db8:0:1::/64'],
    ['2001:db8:0:1:a:b:c:d', '2001:db8:0:1::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['2001:db8:0:2::1', '2001:db8:0:2::/64'],
    ['unknown', 'unknown'],
  ])('counts %s as %s', (ip, group) => {
    expect(addressGroup(ip)).toBe(group)
  })

  it('puts every address of one /64 in one group and neighbouring /64s apart', () => {
    const a = addressGroup('2a02:1234:5678:9abc::1')
    expect(addressGroup('2a02:1234:5678:9abc:ffff:1:2:3')).toBe(a)
    expect(addressGroup('2a02:1234:5678:9abd::1')).not.toBe(a)
  })
})
