/**
 * api/config.ts: `parsePublicUrl` (origins accepted and normalised, anything else refused at start),
 * `parseS3`, and the generated-secrets notice printed once per process.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { parsePublicUrl, parseS3 } from './config.ts'

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
