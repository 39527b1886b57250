import fs from 'node:fs'
import path from 'node:path'
import sharp from 'sharp'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { images } from '../db/schema.ts'
import { createTestApp, type TestApp } from '../testing/app.ts'
import { processImage, recordImage } from './images.ts'
import { sweepUnusedImages } from './image-sweep.ts'
import { insertCategory } from '../testing/fixtures.ts'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => {
  await t.close()
})

const png = (r: number) =>
  sharp({ create: { width: 40, height: 40, channels: 3, background: { r, g: 10, b: 10 } } })
    .png()
    .toBuffer()
const uploadsDir = () => path.join(t.tmpDir, 'uploads')
const filesOf = (url: string) => fs.readdirSync(uploadsDir()).filter((f) => f.startsWith(path.basename(url, '.webp')))

async function storeAndRecord(r: number) {
  const image = await processImage(await png(r), { storage: t.deps.storage, maxBytes: 5_000_000 })
  await recordImage(t.db, image)
  return image.url
}

describe('sweepUnusedImages', () => {
  it('removes old unused uploads with all their widths, keeps used ones and recent ones', async () => {
    const unused = await storeAndRecord(1)
    const used = await storeAndRecord(2)
    await insertCategory(t.db, { name: 'Swept Category', image: used })
    expect(filesOf(unused).length).toBe(4)

    // Nothing is older than the cut-off yet: a form being filled in keeps its upload.
    expect(await sweepUnusedImages({ db: t.db, storage: t.deps.storage, olderThan: new Date(Date.now() - 60_000) })).toBe(0)
    expect(filesOf(unused).length).toBe(4)

    const removed = await sweepUnusedImages({ db: t.db, storage: t.deps.storage, olderThan: new Date(Date.now() + 60_000) })
    expect(removed).toBe(1)
    expect(filesOf(unused)).toEqual([])
    expect((await t.db.select().from(images).where(eq(images.url, unused))).length).toBe(0)
    expect(filesOf(used).length).toBe(4)
    expect((await t.db.select().from(images).where(eq(images.url, used))).length).toBe(1)
  })
})
