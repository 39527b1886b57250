/**
 * The storage contract (api/lib/storage.ts `Storage`), run against the local disk and against a local
 * S3-compatible server (s3rver, which speaks the S3 REST protocol) through the S3 store
 * (api/lib/storage-s3.ts): put, exists, read, idempotent delete, overwrite of one key, urls and keys,
 * refused keys; and `/uploads/:key` served from the bucket (api/lib/serve-upload.ts).
 */
import express from 'express'
import fs from 'node:fs'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import S3rver from 's3rver'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { captureLog } from '../testing/log-capture.ts'
import { serveStoredObject } from './serve-upload.ts'
import { createDiskStorage, type Storage } from './storage.ts'
import { createS3Storage, type S3Settings } from './storage-s3.ts'

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'grocery-storage-'))
let s3server: S3rver
let s3: S3Settings

beforeAll(async () => {
  s3server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: path.join(tmp, 's3'),
    configureBuckets: [{ name: 'grocery-test', configs: [] }],
  })
  const { port } = (await s3server.run()) as unknown as AddressInfo
  s3 = {
    bucket: 'grocery-test',
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
  }
})
afterAll(async () => {
  await s3server?.close()
  fs.rmSync(tmp, { recursive: true, force: true })
})

const readAll = async (stream: NodeJS.ReadableStream) => {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer))
  return Buffer.concat(chunks)
}

const stores: Array<[string, () => Storage]> = [
  ['local disk', () => createDiskStorage(path.join(tmp, 'disk'))],
  ['S3-compatible bucket', () => createS3Storage(s3)],
]

describe.each(stores)('the storage contract on %s', (_name, make) => {
  it('stores, finds, reads and deletes an object; delete is idempotent', async () => {
    const store = make()
    const bytes = Buffer.from('RIFF fake webp bytes')
    expect(await store.exists('abc123.webp')).toBe(false)
    expect(await store.read('abc123.webp')).toBeNull()
    expect(await store.put('abc123.webp', bytes, 'image/webp')).toBe('/uploads/abc123.webp')
    expect(await store.exists('abc123.webp')).toBe(true)
    const object = (await store.read('abc123.webp'))!
    expect(object.contentType).toBe('image/webp')
    expect(await readAll(object.body)).toEqual(bytes)
    await store.delete('abc123.webp')
    expect(await store.exists('abc123.webp')).toBe(false)
    await store.delete('abc123.webp')
  })

  it('overwrites one key with the last bytes put', async () => {
    const store = make()
    await store.put('same-key.webp', Buffer.from('one'), 'image/webp')
    await store.put('same-key.webp', Buffer.from('two'), 'image/webp')
    expect(String(await readAll((await store.read('same-key.webp'))!.body))).toBe('two')
  })

  it('maps keys and urls both ways and refuses keys that could leave the store', async () => {
    const store = make()
    expect(store.urlFor('k1-w256.webp')).toBe('/uploads/k1-w256.webp')
    expect(store.keyFor('/uploads/k1-w256.webp')).toBe('k1-w256.webp')
    expect(store.keyFor('https://elsewhere.example/k1.webp')).toBeNull()
    for (const bad of ['../secrets.json', '.hidden', 'a/b.webp', '']) {
      await expect(store.put(bad, Buffer.from('x'), 'image/webp')).rejects.toThrow(/Invalid storage key/)
    }
  })
})

describe('serving /uploads/:key from the bucket', () => {
  async function serve(storage: Parameters<typeof serveStoredObject>[0]) {
    const app = express()
    app.get('/uploads/:key', serveStoredObject(storage, captureLog().logger))
    const server = await new Promise<ReturnType<typeof app.listen>>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s))
    })
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() }
  }

  it('streams an object with immutable cache headers; 404 for a missing or odd key', async () => {
    const store = createS3Storage(s3)
    await store.put('served.webp', Buffer.from('webp!'), 'image/webp')
    const { url, close } = await serve(store)
    const res = await fetch(`${url}/uploads/served.webp`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('image/webp')
    expect(res.headers.get('cache-control')).toContain('immutable')
    expect(await res.text()).toBe('webp!')
    expect((await fetch(`${url}/uploads/missing.webp`)).status).toBe(404)
    expect((await fetch(`${url}/uploads/.env`)).status).toBe(404)
    close()
  })

  it('redirects to the public url when one is set', async () => {
    const { url, close } = await serve(createS3Storage({ ...s3, publicUrl: 'https://cdn.example/img' }))
    const res = await fetch(`${url}/uploads/k.webp`, { redirect: 'manual' })
    expect(res.status).toBe(301)
    expect(res.headers.get('location')).toBe('https://cdn.example/img/k.webp')
    close()
  })
})
