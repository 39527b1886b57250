/**
 * A picture per product (docs/product.md, "Pictures"; docs/decisions/0030-drawn-product-pictures.md):
 * after the catalogue import the home rows show a different picture for every product, marked
 * `imageKind: 'illustration'`; its files are drawn on first request and stored; an uploaded image
 * replaces it through the admin's product form.
 */
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { AddressInfo } from 'node:net'
import express from 'express'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../testing/app.ts'
import { createAdmin, type SignedIn } from '../../testing/auth.ts'
import { storeTestImage } from '../../testing/fixtures.ts'
import { captureLog } from '../../testing/log-capture.ts'
import { importCatalog } from '../../db/seed/import-catalog.ts'
import { createIllustrationDrawer } from '../../lib/illustration-store.ts'
import { serveStoredObject } from '../../lib/serve-upload.ts'
import type { Storage } from '../../lib/storage.ts'

const FIXTURE = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../db/seed/testdata/catalog-50.csv')

let t: TestApp
let admin: SignedIn
beforeAll(async () => {
  t = await createTestApp()
  const result = await importCatalog({ db: t.db, storage: t.deps.storage, csvPath: FIXTURE, logger: captureLog().logger })
  expect(result.imported).toBe(true)
  admin = await createAdmin(t)
})
afterAll(async () => {
  await t?.close()
})

type AnyProduct = any

async function homeRows(): Promise<{ categoryId: string; products: AnyProduct[] }[]> {
  const categories = await t.call('category/get')
  expect(categories.status).toBe(200)
  const ids = (categories.body.data as { _id: string }[]).map((c) => c._id)
  const res = await t.call('product/get-product-by-category', { json: { id: ids, grouped: true } })
  expect(res.status).toBe(200)
  return res.body.data
}

/** A local server answering /uploads/:key like server.ts does, drawing pictures on first request. */
async function serveUploads(storage: Storage & { publicUrl?: string }) {
  const app = express()
  app.get('/uploads/:key', serveStoredObject(storage, captureLog().logger, createIllustrationDrawer({ db: t.db, storage })))
  const server = await new Promise<ReturnType<typeof app.listen>>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s))
  })
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() }
}

describe('drawn product pictures', () => {
  it('gives two different products on one home row two different pictures, marked as illustrations', async () => {
    const rows = await homeRows()
    expect(rows.length).toBeGreaterThan(5)
    const everyUrl: string[] = []
    for (const row of rows) {
      const urls = row.products.map((p: AnyProduct) => p.image[0])
      expect(new Set(urls).size, row.categoryId).toBe(urls.length)
      for (const p of row.products) {
        expect(p.imageKind).toBe('illustration')
        expect(p.image[0]).toMatch(/^\/uploads\/[0-9a-f]{24}-il\.webp$/)
      }
      everyUrl.push(...urls)
    }
    // And across the whole page.
    expect(new Set(everyUrl).size).toBe(everyUrl.length)
  })

  it('draws a picture on its first request, stores every width, and serves the stored files after', async () => {
    const [row] = await homeRows()
    const url: string = row!.products[0].image[0]
    const stem = path.basename(url, '.webp')
    const uploads = path.join(t.tmpDir, 'uploads')
    const filesOf = () => (fs.existsSync(uploads) ? fs.readdirSync(uploads).filter((f) => f.startsWith(stem)) : [])
    expect(filesOf()).toEqual([])
    const { base, close } = await serveUploads(t.deps.storage)
    try {
      const small = await fetch(`${base}/uploads/${stem}-w256.webp`)
      expect(small.status).toBe(200)
      expect(small.headers.get('content-type')).toBe('image/webp')
      expect(small.headers.get('cache-control')).toContain('immutable')
      expect(await sharp(Buffer.from(await small.arrayBuffer())).metadata()).toMatchObject({ format: 'webp', width: 256 })
      expect(filesOf().sort()).toEqual([`${stem}-w128.webp`, `${stem}-w256.webp`, `${stem}-w512.webp`, `${stem}.webp`])
      const before = fs.statSync(path.join(uploads, `${stem}.webp`)).mtimeMs
      const main = await fetch(`${base}${url}`)
      expect(main.status).toBe(200)
      expect((await sharp(Buffer.from(await main.arrayBuffer())).metadata()).width).toBe(512)
      // Read from storage, not drawn again.
      expect(fs.statSync(path.join(uploads, `${stem}.webp`)).mtimeMs).toBe(before)
      // A picture no product was given is not drawn.
      expect((await fetch(`${base}/uploads/${'0'.repeat(24)}-il.webp`)).status).toBe(404)
    } finally {
      close()
    }
  })

  it('draws before redirecting when the store has a public url (a CDN)', async () => {
    const [, row] = await homeRows()
    const url: string = row!.products[0].image[0]
    const key = t.deps.storage.keyFor(url)!
    expect(await t.deps.storage.exists(key)).toBe(false)
    const { base, close } = await serveUploads({ ...t.deps.storage, publicUrl: 'https://cdn.example/img' })
    try {
      const res = await fetch(`${base}${url}`, { redirect: 'manual' })
      expect(res.status).toBe(301)
      expect(res.headers.get('location')).toBe(`https://cdn.example/img/${key}`)
      expect(await t.deps.storage.exists(key)).toBe(true)
    } finally {
      close()
    }
  })

  it('lets the admin save the form with the drawn picture, and an uploaded image replaces it', async () => {
    const [, , row] = await homeRows()
    const product = row!.products[0]
    const drawn: string = product.image[0]
    const update = (json: unknown) => t.call('product/update-product-details', { method: 'PUT', json, token: admin.token })

    // The form sends the picture back as it read it, drawn or not: accepted.
    const kept = await update({ _id: product._id, updatedAt: product.updatedAt, image: [drawn], stock: 7 })
    expect(kept.status).toBe(200)
    expect(kept.body.data).toMatchObject({ image: [drawn], imageKind: 'illustration' })

    // An upload added beside it replaces it.
    const uploaded = await storeTestImage(t, 42)
    const replaced = await update({ _id: product._id, updatedAt: kept.body.data.updatedAt, image: [drawn, uploaded] })
    expect(replaced.status).toBe(200)
    expect(replaced.body.data).toMatchObject({ image: [uploaded], imageKind: 'photo' })
    const read = await t.call('product/get-product-details', { json: { productId: product._id } })
    expect(read.body.data).toMatchObject({ image: [uploaded], imageKind: 'photo' })

    // A drawn picture's url that no product was given is not one of the store's images.
    const unknown = await update({
      _id: product._id,
      updatedAt: replaced.body.data.updatedAt,
      image: [`/uploads/${'0'.repeat(24)}-il.webp`],
    })
    expect(unknown.status).toBe(400)
  })

  it('an upload in a new product replaces a drawn picture given with it', async () => {
    const [row] = await homeRows()
    const source = row!.products[1]
    const uploaded = await storeTestImage(t, 43)
    const res = await t.call('product/create', {
      token: admin.token,
      json: {
        name: 'Pictured Product',
        image: [source.image[0], uploaded],
        category: [source.category[0]._id],
        subCategory: [],
        unit: '1 kg',
        stock: 3,
        price: 100,
        discount: 0,
        description: 'A product with its own photo.',
        more_details: {},
      },
    })
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    expect(res.body.data).toMatchObject({ image: [uploaded], imageKind: 'photo' })
  })
})
