/**
 * api/config.ts: `parsePublicUrl` (origins accepted and normalised, anything else refused at start),
 * `parseS3`, the generated-secrets notice printed once per process, and `loadConfig`'s defaults and
 * its one message naming every bad variable (README.md, "Configuration").
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { loadConfig, localPaths, parseS3 } from './config.ts'
import { hmacHex } from './modules/payment/provider.ts'
import { testProviderSecrets } from './modules/payment/settings.ts'
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

  it('takes S3_FORCE_PATH_STYLE as a flag over the endpoint default, and refuses anything else', () => {
    const minio = { S3_BUCKET: 'b', S3_ENDPOINT: 'http://minio:9000' }
    expect(parseS3({ ...minio, S3_FORCE_PATH_STYLE: '0' })?.forcePathStyle).toBe(false)
    expect(parseS3({ ...minio, S3_FORCE_PATH_STYLE: 'false' })?.forcePathStyle).toBe(false)
    expect(parseS3({ S3_BUCKET: 'b', S3_FORCE_PATH_STYLE: '1' })?.forcePathStyle).toBe(true)
    expect(parseS3({ S3_BUCKET: 'b' })?.forcePathStyle).toBe(false)
    expect(() => parseS3({ ...minio, S3_FORCE_PATH_STYLE: 'yes' })).toThrow('S3_FORCE_PATH_STYLE must be 1 or 0, got "yes"')
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
      commerce: { maxQtyPerLine: 12, deliveryChargePaise: 2500, freeDeliveryAbovePaise: 19900, dispatchBatchSize: 1 },
      logLevel: 'info',
      exposeMetrics: false,
    })
    expect(config.payments.provider.name).toBe('test')
  })

  it('reads LOG_LEVEL, EXPOSE_METRICS and MAIL_FROM through the schema; silent logs under a test runner', () => {
    expect(loadConfig({ ...SECRETS, LOG_LEVEL: 'debug', EXPOSE_METRICS: '1', MAIL_FROM: 'Shop <shop@example.com>' })).toMatchObject({
      logLevel: 'debug',
      exposeMetrics: true,
      mailFrom: 'Shop <shop@example.com>',
    })
    // Empty is unset, as for every variable: the default sender, not an empty one.
    expect(loadConfig({ ...SECRETS, MAIL_FROM: '' }).mailFrom).toBe('Grocery Store <no-reply@localhost>')
    expect(loadConfig({ ...SECRETS, VITEST: 'true' }).logLevel).toBe('silent')
    expect(loadConfig({ ...SECRETS, NODE_ENV: 'test', LOG_LEVEL: 'warn' }).logLevel).toBe('warn')
    expect(() => loadConfig({ ...SECRETS, LOG_LEVEL: 'verbose', EXPOSE_METRICS: 'yes' })).toThrow(
      /LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent, got "verbose"[\s\S]*EXPOSE_METRICS: must be 1 or 0/,
    )
  })

  it('reads API_ONLY (an API host alone, no pages) and refuses it together with API_URL', () => {
    expect(loadConfig({ ...SECRETS }).apiOnly).toBe(false)
    expect(loadConfig({ ...SECRETS, API_ONLY: '1' }).apiOnly).toBe(true)
    expect(loadConfig({ ...SECRETS, API_ONLY: '0', API_URL: 'http://api.internal:3000' }).apiOnly).toBe(false)
    expect(() => loadConfig({ ...SECRETS, API_ONLY: '1', API_URL: 'http://api.internal:3000' })).toThrow(
      /API_ONLY: an API host alone cannot also call the API at API_URL/,
    )
    expect(() => loadConfig({ ...SECRETS, API_ONLY: 'yes' })).toThrow(/API_ONLY: must be 1 or 0/)
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
      'S3_BUCKET, S3_ENDPOINT, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, S3_FORCE_PATH_STYLE, S3_PUBLIC_URL, S3_PREFIX',
    ])
    const message = (error as Error).message
    expect(message).toContain('  - PORT: must be a whole number from 0 to 65535, got "eighty"')
    expect(message).toContain('  - CART_MAX_QTY_PER_LINE: must be a whole number from 1 to 999, got "0"')
    expect(message).toContain('needs RAZORPAY_KEY_ID, RAZORPAY_KEY_SECRET and RAZORPAY_WEBHOOK_SECRET')
    expect(message).toContain('Set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY')
  })
})

describe('TEST_PAYMENT_SECRET', () => {
  const SECRETS = { SESSION_SECRET: 's'.repeat(32), JWT_SECRET: 'j'.repeat(32) }
  const signature = (config: ReturnType<typeof loadConfig>) => config.payments.provider.verifyWebhookSignature('{}', hmacHex('x', '{}'))

  it('signs alike on every instance given one value, and differently with another', () => {
    const dirs = [1, 2, 3].map(() => fs.mkdtempSync(path.join(os.tmpdir(), 'grocery-config-')))
    try {
      const secret = 't'.repeat(40)
      const [a, b, c] = dirs.map((dir, i) =>
        loadConfig({ ...SECRETS, DATA_DIR: dir, TEST_PAYMENT_SECRET: i < 2 ? secret : 'u'.repeat(40) }),
      )
      const body = '{"event":"payment.captured"}'
      const { webhookSecret, keySecret } = testProviderSecrets(secret)
      expect(webhookSecret).not.toBe(keySecret)
      for (const config of [a!, b!]) expect(config.payments.provider.verifyWebhookSignature(body, hmacHex(webhookSecret, body))).toBe(true)
      expect(c!.payments.provider.verifyWebhookSignature(body, hmacHex(webhookSecret, body))).toBe(false)
      expect(signature(a!)).toBe(false)
      // Set explicitly with the other two secrets: nothing is read from DATA_DIR.
      expect(a!.secretsFile).toBeUndefined()
    } finally {
      for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true })
    }
  })

  it('unset: generated once into DATA_DIR/secrets.json, added to an older file without replacing its secrets', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'grocery-config-'))
    try {
      fs.writeFileSync(path.join(dir, 'secrets.json'), JSON.stringify({ jwtSecret: 'old-jwt', sessionSecret: 'old-session' }))
      const first = loadConfig({ DATA_DIR: dir })
      const stored = JSON.parse(fs.readFileSync(path.join(dir, 'secrets.json'), 'utf8'))
      expect(stored).toMatchObject({ jwtSecret: 'old-jwt', sessionSecret: 'old-session' })
      expect(stored.testPaymentSecret).toMatch(/^[A-Za-z0-9_-]{43}$/)
      expect(first.secretsFile).toBe(path.join(dir, 'secrets.json'))
      const again = loadConfig({ ...SECRETS, DATA_DIR: dir })
      const { webhookSecret } = testProviderSecrets(stored.testPaymentSecret)
      for (const config of [first, again])
        expect(config.payments.provider.verifyWebhookSignature('{}', hmacHex(webhookSecret, '{}'))).toBe(true)
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })

  it('refuses one shorter than 32 characters', () => {
    expect(() => loadConfig({ ...SECRETS, TEST_PAYMENT_SECRET: 'short' })).toThrow(/TEST_PAYMENT_SECRET.*at least 32 characters/)
  })
})

describe('localPaths', () => {
  it('names DATA_DIR’s folders on the embedded default, the bucket with S3, and leaves out what is not local', () => {
    const base = { dataDir: '/srv/grocery', databaseUrl: undefined, s3: null, smtpUrl: undefined, secretsFile: '/srv/grocery/secrets.json' }
    expect(localPaths(base)).toEqual({
      dataDir: '/srv/grocery',
      secrets: '/srv/grocery/secrets.json',
      pglite: '/srv/grocery/pglite',
      uploads: '/srv/grocery/uploads',
      outbox: '/srv/grocery/outbox',
    })
    const s3 = parseS3({ S3_BUCKET: 'shop-images', S3_PREFIX: 'prod/' })
    expect(localPaths({ ...base, secretsFile: undefined, databaseUrl: 'postgres://db/grocery', s3, smtpUrl: 'smtp://mail:25' })).toEqual({
      dataDir: '/srv/grocery',
      uploads: 's3://shop-images/prod/',
    })
  })
})

describe('DISPATCH_BATCH_SIZE (docs/delivery.md, "Dispatch")', () => {
  const SECRETS = { SESSION_SECRET: 's'.repeat(32), JWT_SECRET: 'j'.repeat(32) }

  it('is 1 unset, takes 1 or 2, and stops the start on anything else', () => {
    expect(loadConfig({ ...SECRETS }).commerce.dispatchBatchSize).toBe(1)
    expect(loadConfig({ ...SECRETS, DISPATCH_BATCH_SIZE: '2' }).commerce.dispatchBatchSize).toBe(2)
    for (const bad of ['0', '3', 'two', '1.5', '-1']) {
      expect(() => loadConfig({ ...SECRETS, DISPATCH_BATCH_SIZE: bad })).toThrow(/DISPATCH_BATCH_SIZE: must be 1 or 2/)
    }
  })
})

describe('DELIVERY_CODE_ABOVE (docs/delivery.md, "Delivery code")', () => {
  const SECRETS = { SESSION_SECRET: 's'.repeat(32), JWT_SECRET: 'j'.repeat(32) }

  it('is ₹1,000 unset, takes rupees (0: every order), and stops the start on anything else', () => {
    expect(loadConfig({ ...SECRETS }).commerce.deliveryCodeAbovePaise).toBe(100_000)
    expect(loadConfig({ ...SECRETS, DELIVERY_CODE_ABOVE: '499.50' }).commerce.deliveryCodeAbovePaise).toBe(49_950)
    expect(loadConfig({ ...SECRETS, DELIVERY_CODE_ABOVE: '0' }).commerce.deliveryCodeAbovePaise).toBe(0)
    for (const bad of ['-1', 'lots', '1.234'])
      expect(() => loadConfig({ ...SECRETS, DELIVERY_CODE_ABOVE: bad })).toThrow(/DELIVERY_CODE_ABOVE/)
  })
})

describe('the named fees (docs/commerce-api.md, "Fees")', () => {
  const SECRETS = { SESSION_SECRET: 's'.repeat(32), JWT_SECRET: 'j'.repeat(32) }

  it('default to handling ₹2, a small cart fee of ₹20 below ₹99 and ₹15 from 23:00 to 05:00 IST', () => {
    expect(loadConfig({ ...SECRETS }).commerce.fees).toEqual({
      handlingChargePaise: 200,
      smallCartFeePaise: 2000,
      smallCartBelowPaise: 9900,
      lateNightSurchargePaise: 1500,
      lateNightHours: { startMinute: 1380, endMinute: 300 },
    })
  })

  it('take rupees and a window, each 0 turning its fee off', () => {
    const fees = loadConfig({
      ...SECRETS,
      HANDLING_CHARGE: '0',
      SMALL_CART_FEE: '15.50',
      SMALL_CART_BELOW: '149',
      LATE_NIGHT_SURCHARGE: '0',
      LATE_NIGHT_HOURS: '22:30-06:00',
    }).commerce.fees
    expect(fees).toEqual({
      handlingChargePaise: 0,
      smallCartFeePaise: 1550,
      smallCartBelowPaise: 14900,
      lateNightSurchargePaise: 0,
      lateNightHours: { startMinute: 1350, endMinute: 360 },
    })
  })

  it('stop the start on a bad value, naming the variable', () => {
    for (const [name, bad] of [
      ['HANDLING_CHARGE', '-2'],
      ['SMALL_CART_FEE', 'twenty'],
      ['SMALL_CART_BELOW', '99.999'],
      ['LATE_NIGHT_SURCHARGE', '1e3'],
      ['LATE_NIGHT_HOURS', '23:00'],
      ['LATE_NIGHT_HOURS', '24:00-05:00'],
      ['LATE_NIGHT_HOURS', '11pm-5am'],
    ] as const) {
      let err: unknown
      try {
        loadConfig({ ...SECRETS, [name]: bad })
      } catch (e) {
        err = e
      }
      expect(err, `${name}=${bad}`).toBeInstanceOf(EnvError)
      expect(String((err as Error).message)).toContain(name)
    }
  })
})
