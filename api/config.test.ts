/**
 * api/config.ts: `parsePublicUrl` (origins accepted and normalised, anything else refused at start),
 * `parseS3`, the generated-secrets notice printed once per process, and `loadConfig`'s defaults and
 * its one message naming every bad variable (README.md, "Configuration").
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { loadConfig, parseS3 } from './config.ts'
import { EnvError } from '../server-shared/env.ts'
import { parsePublicUrl } from '../server-shared/env.ts'

describe('PUBLIC_URL', () => {
  it('is optional', () => {
    expect(parsePublicUrl(undefined)).toBeUndefined()
    expect(parsePublicUrl('')).toBeUndefined()
  })
  it('is normalised to an origin', () => {
    expect(parsePublicUrl('https://shop.example/')).toBe('https://shop.example')
    expect(parsePublicUrl('https://Shop.Example:8443')).toBe('https://shop.example:8443')
    expect(parsePublicUrl('http://localhost:3000')).toBe('http://localhost:3000')
  })
  it('refuses what is not a bare http(s) origin', () => {
    for (const bad of [
      'shop.example',
      'ftp://shop.example',
      'https://shop.example/store',
      'https://shop.example/?a=1',
      'https://user:pw@shop.example',
      'javascript:alert(1)',
    ]) {
      expect(() => parsePublicUrl(bad), bad).toThrow(/PUBLIC_URL/)
    }
  })
})

describe('parseS3', () => {
  it('is null without S3_BUCKET: images stay on local disk', () => {
    expect(parseS3({})).toBeNull()
  })

  it('reads a MinIO-style setting with path-style urls and the auto region', () => {
    expect(parseS3({ S3_BUCKET: 'grocery', S3_ENDPOINT: 'http://minio:9000/', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's' })).toEqual({
      bucket: 'grocery',
      endpoint: 'http://minio:9000',
      region: 'auto',
      accessKeyId: 'k',
      secretAccessKey: 's',
      forcePathStyle: true,
      publicUrl: undefined,
      prefix: undefined,
    })
  })

  it('refuses a half-given key pair and a malformed endpoint, naming the setting', () => {
    expect(() => parseS3({ S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'k' })).toThrow(/S3_SECRET_ACCESS_KEY/)
    expect(() => parseS3({ S3_BUCKET: 'b', S3_ENDPOINT: 'minio:9000' })).toThrow(/S3_ENDPOINT/)
    expect(() => parseS3({ S3_BUCKET: 'b', S3_PUBLIC_URL: 'ftp://cdn' })).toThrow(/S3_PUBLIC_URL/)
  })
})

describe('the generated-secrets notice', () => {
  afterEach(() => {
    vi.restoreAllMocks()
    delete (globalThis as Record<symbol, unknown>)[Symbol.for('grocery.config.secretsNotice')]
  })

  it('is printed once per process, even by two copies of the module (server.ts and the server bundle)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'grocery-config-'))
    try {
      const env = { NODE_ENV: 'production', DATA_DIR: dataDir }
      const first = await import('./config.ts')
      vi.resetModules()
      const second = await import('./config.ts')
      expect(first.loadConfig).not.toBe(second.loadConfig)
      first.loadConfig(env)
      second.loadConfig(env)
      first.loadConfig(env)
      expect(warn.mock.calls.filter(([line]) => String(line).includes('JWT_SECRET/SESSION_SECRET not set'))).toHaveLength(1)
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true })
    }
  })
})

describe('loadConfig', () => {
  const SECRETS = { SESSION_SECRET: 's'.repeat(32), JWT_SECRET: 'j'.repeat(32) }

  it('keeps every default of README.md', () => {
    const config = loadConfig({ ...SECRETS })
    expect(config).toMatchObject({
      port: 3000,
      dataDir: path.resolve('./data'),
      databaseUrl: undefined,
      apiUrl: undefined,
      mailFrom: 'Grocery Store <no-reply@localhost>',
      isProduction: false,
      uploadMaxBytes: 5 * 1024 * 1024,
      jsonBodyMaxBytes: 1024 * 1024,
      trustProxy: 0,
      apiAllowedOrigins: [],
      publicUrl: undefined,
      s3: null,
      secureCookies: false,
      rateLimitIpMultiplier: 1,
      databasePool: { max: 10, connectTimeoutMs: 5000 },
      seedCatalog: true,
      shutdown: { delayMs: 0, graceMs: 25_000 },
      commerce: { maxQtyPerLine: 12, deliveryChargePaise: 2500, freeDeliveryAbovePaise: 19900 },
    })
    expect(config.payments.provider.name).toBe('test')
  })

  it('fails with one message naming each bad variable and why, the grouped rules included', () => {
    let error: unknown
    try {
      loadConfig({
        ...SECRETS,
        PORT: 'eighty',
        DATABASE_POOL_MAX: '0',
        TRUST_PROXY: 'true',
        SEED_CATALOG: 'no',
        CART_MAX_QTY_PER_LINE: '0',
        PAYMENT_PROVIDER: 'razorpay',
        S3_BUCKET: 'b',
        S3_ACCESS_KEY_ID: 'k',
      })
    } catch (err) {
      error = err
    }
    expect(error).toBeInstanceOf(EnvError)
    expect((error as EnvError).issues.map((i) => i.variable)).toEqual([
      'PORT',
      'DATABASE_POOL_MAX',
      'TRUST_PROXY',
      'SEED_CATALOG',
      'CART_MAX_QTY_PER_LINE',
      'PAYMENT_PROVIDER, RAZORPAY_KEY_ID, RAZORPAY_KEY_SECRET, RAZORPAY_WEBHOOK_SECRET, TEST_PAYMENT_SECRET, PAYMENT_RESERVATION_SECONDS',
      'S3_BUCKET, S3_ENDPOINT, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, S3_PUBLIC_URL, S3_PREFIX',
    ])
    const message = (error as Error).message
    expect(message).toContain('  - PORT: must be a whole number from 0 to 65535, got "eighty"')
    expect(message).toContain('  - CART_MAX_QTY_PER_LINE: must be a whole number from 1 to 999, got "0"')
    expect(message).toContain('needs RAZORPAY_KEY_ID, RAZORPAY_KEY_SECRET and RAZORPAY_WEBHOOK_SECRET')
    expect(message).toContain('Set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY')
  })
})
