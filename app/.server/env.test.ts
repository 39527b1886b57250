/**
 * app/.server/env.ts: the BFF's variables with their README defaults, and one message naming every
 * bad one (README.md, "Configuration").
 */
import { describe, expect, it } from 'vitest'
import { EnvError } from '../../server-shared/env.ts'
import { readBffEnv } from './env.ts'

const SECRETS = { SESSION_SECRET: 's'.repeat(32), JWT_SECRET: 'j'.repeat(32) }

describe('readBffEnv', () => {
  it('keeps every default of README.md', () => {
    const env = readBffEnv({ ...SECRETS })
    expect(env).toMatchObject({
      apiUrl: undefined,
      apiTimeoutMs: 5000,
      sessionSecret: SECRETS.SESSION_SECRET,
      apiInternalToken: undefined,
      isProduction: false,
      paymentProvider: 'test',
      publicUrl: undefined,
      imageOrigins: [],
      uploadMaxBytes: 5 * 1024 * 1024,
      secureCookies: false,
      pageCacheMaxBytes: 64 * 1024 * 1024,
      pageCacheTtlMs: null,
      pageCacheStaleIfErrorMs: 300_000,
      logLevel: 'info',
      mapTiles: null,
    })
  })

  it('reads the map tile server (docs/delivery.md, "Live tracking") and allows its host for images only then', () => {
    const env = readBffEnv({ ...SECRETS, MAP_TILE_URL: 'https://{s}.tile.example.org/{z}/{x}/{y}.png', MAP_TILE_ATTRIBUTION: '© Example' })
    expect(env.mapTiles).toEqual({ url: 'https://{s}.tile.example.org/{z}/{x}/{y}.png', attribution: '© Example' })
    expect(env.imageOrigins).toEqual(['https://*.tile.example.org'])
    expect(() => readBffEnv({ ...SECRETS, MAP_TILE_URL: 'https://tile.example.org/tiles.png' })).toThrow('MAP_TILE_URL: must contain {z}')
    expect(() => readBffEnv({ ...SECRETS, MAP_TILE_URL: 'javascript:alert(1)/{z}/{x}/{y}' })).toThrow(
      'MAP_TILE_URL: must be an http(s) URL',
    )
  })

  it("reads LOG_LEVEL for the server bundle's logger, silent under a test runner, and refuses an unknown level", () => {
    expect(readBffEnv({ ...SECRETS, LOG_LEVEL: 'warn' }).logLevel).toBe('warn')
    expect(readBffEnv({ ...SECRETS, VITEST: 'true' }).logLevel).toBe('silent')
    expect(() => readBffEnv({ ...SECRETS, LOG_LEVEL: 'loud' })).toThrow('LOG_LEVEL: must be one of')
  })

  it('reads the set variables', () => {
    const env = readBffEnv({
      ...SECRETS,
      NODE_ENV: 'production',
      API_URL: 'https://api.example/',
      API_TIMEOUT_MS: '1500',
      PUBLIC_URL: 'https://shop.example/',
      S3_BUCKET: 'b',
      S3_PUBLIC_URL: 'https://cdn.example/img',
      PAGE_CACHE_MAX_MB: '0',
      PAGE_CACHE_TTL_MS: '5000',
      PAGE_CACHE_STALE_IF_ERROR_MS: '0',
      RAZORPAY_KEY_ID: 'rzp_test',
    })
    expect(env).toMatchObject({
      apiUrl: 'https://api.example',
      apiTimeoutMs: 1500,
      isProduction: true,
      secureCookies: true,
      paymentProvider: 'razorpay',
      publicUrl: 'https://shop.example',
      imageOrigins: ['https://cdn.example', 'https://shop.example'],
      pageCacheMaxBytes: 0,
      pageCacheTtlMs: 5000,
      pageCacheStaleIfErrorMs: 0,
    })
  })

  it('fails with one message naming each bad variable and why', () => {
    let error: unknown
    try {
      readBffEnv({
        ...SECRETS,
        API_URL: 'api.example',
        API_TIMEOUT_MS: '5s',
        PUBLIC_URL: 'https://shop.example/store',
        PAGE_CACHE_MAX_MB: '-1',
      })
    } catch (err) {
      error = err
    }
    expect(error).toBeInstanceOf(EnvError)
    expect((error as EnvError).issues.map((i) => i.variable)).toEqual(['API_URL', 'API_TIMEOUT_MS', 'PUBLIC_URL', 'PAGE_CACHE_MAX_MB'])
    const message = (error as Error).message
    expect(message).toContain('API_URL: must be an http(s) URL, got "api.example"')
    expect(message).toContain('API_TIMEOUT_MS: must be a whole number from 0 to 999999999, got "5s"')
    expect(message).toContain('PUBLIC_URL: must be an origin such as https://shop.example, without path, query or credentials')
    expect(message).toContain('PAGE_CACHE_MAX_MB: must be a whole number')
  })
})
