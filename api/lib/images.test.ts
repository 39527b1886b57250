/**
 * The image pipeline on real images made by sharp: accepted formats, refusals (renamed text, SVG with
 * a script, oversize, decompression bomb, damaged file), sizes and variants, EXIF rotation and
 * stripping, first GIF frame, square crop, idempotence and deletion.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { deflateSync } from 'node:zlib'
import sharp from 'sharp'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { HttpError } from './errors.ts'
import { createDiskStorage, type Storage } from './storage.ts'
import {
  contentHash,
  deleteImage,
  formatByteSize,
  processImage,
  sniffImageFormat,
  srcSetFor,
  storedImageKeys,
  variantUrl,
} from './images.ts'

const MB = 1024 * 1024
let dir: string
let storage: Storage
let puts: string[]

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'images-test-'))
  const disk = createDiskStorage(dir)
  puts = []
  storage = { ...disk, put: (key, bytes, type) => (puts.push(key), disk.put(key, bytes, type)) }
})
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }))

const solid = (width: number, height: number, background: string, channels: 3 | 4 = 3) =>
  sharp({ create: { width, height, channels, background } })

async function stored(key: string) {
  const file = path.join(dir, key)
  const meta = await sharp(file).metadata()
  return { meta, bytes: fs.readFileSync(file) }
}

async function rejection(p: Promise<unknown>): Promise<HttpError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(HttpError)
  return err as HttpError
}

/** A PNG whose header claims `width`×`height` pixels with a tiny (garbage) body: a decompression bomb stand-in. */
function pngHeaderOnly(width: number, height: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    return c >>> 0
  })
  const crc = (buf: Buffer) => {
    let c = 0xffffffff
    for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8)
    return (c ^ 0xffffffff) >>> 0
  }
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4)
    len.writeUInt32BE(data.length)
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
    const sum = Buffer.alloc(4)
    sum.writeUInt32BE(crc(body))
    return Buffer.concat([len, body, sum])
  }
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(width, 0)
  ihdr.writeUInt32BE(height, 4)
  ihdr.set([8, 0, 0, 0, 0], 8) // 8-bit greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(1024))),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

describe('processImage: accepted images', () => {
  it('re-encodes a large PNG to a 1024 px WebP plus 128/256/512 px variants under content-addressed keys', async () => {
    const png = await solid(1600, 1200, '#ff000080', 4).png().toBuffer()
    const result = await processImage(png, { storage, maxBytes: 5 * MB })
    const hash = contentHash(png)
    expect(hash).toMatch(/^[0-9a-f]{24}$/)
    expect(result).toMatchObject({
      url: `/uploads/${hash}.webp`,
      key: `${hash}.webp`,
      width: 1024,
      height: 768,
      format: 'webp',
    })
    const main = await stored(`${hash}.webp`)
    expect(main.meta).toMatchObject({ format: 'webp', width: 1024, height: 768, hasAlpha: true })
    expect(result.bytes).toBe(main.bytes.length)
    for (const w of [128, 256, 512]) {
      const v = await stored(`${hash}-w${w}.webp`)
      expect(v.meta).toMatchObject({ format: 'webp', width: w, height: (w * 3) / 4 })
    }
    expect(fs.readdirSync(dir).sort()).toEqual([`${hash}-w128.webp`, `${hash}-w256.webp`, `${hash}-w512.webp`, `${hash}.webp`].sort())
  })

  it('turns a JPEG upright by its EXIF orientation and strips its metadata', async () => {
    // 60×20 landscape pixels with orientation 6 (rotate 90° clockwise to view): upright it is 20×60.
    const jpeg = await solid(60, 20, 'green')
      .jpeg()
      .withMetadata({ orientation: 6, exif: { IFD0: { Copyright: 'secret camera owner' } } })
      .toBuffer()
    expect((await sharp(jpeg).metadata()).orientation).toBe(6)
    const result = await processImage(jpeg, { storage, maxBytes: 5 * MB })
    expect([result.width, result.height]).toEqual([20, 60])
    const main = await stored(result.key)
    expect(main.meta.orientation).toBeUndefined()
    expect(main.meta.exif).toBeUndefined()
    expect(main.bytes.includes(Buffer.from('secret camera owner'))).toBe(false)
  })

  it('keeps the first frame of an animated GIF', async () => {
    const frame = (c: string) => solid(40, 30, c).png().toBuffer()
    const gif = await sharp([await frame('red'), await frame('blue'), await frame('lime')], {
      join: { animated: true },
    })
      .gif({ loop: 0 })
      .toBuffer()
    expect((await sharp(gif).metadata()).pages).toBe(3)
    const result = await processImage(gif, { storage, maxBytes: 5 * MB })
    expect([result.width, result.height]).toEqual([40, 30])
    const main = await stored(result.key)
    expect(main.meta.pages ?? 1).toBe(1)
    const { dominant } = await sharp(path.join(dir, result.key)).stats()
    expect(dominant.r).toBeGreaterThan(200)
    expect(dominant.b).toBeLessThan(50)
  })

  it('never enlarges: on a 300 px WebP the 512 px variant and the main file are the source size', async () => {
    const webp = await solid(300, 200, 'orange').webp().toBuffer()
    const result = await processImage(webp, { storage, maxBytes: 5 * MB })
    expect([result.width, result.height]).toEqual([300, 200])
    const stem = result.key.replace('.webp', '')
    expect((await stored(`${stem}-w512.webp`)).meta.width).toBe(300)
    expect((await stored(`${stem}-w256.webp`)).meta.width).toBe(256)
    expect((await stored(`${stem}-w128.webp`)).meta).toMatchObject({ width: 128, height: 85 })
  })

  it('accepts AVIF', async () => {
    const avif = await solid(64, 48, 'purple').avif().toBuffer()
    expect(sniffImageFormat(avif)).toBe('avif')
    const result = await processImage(avif, { storage, maxBytes: 5 * MB })
    expect([result.width, result.height]).toEqual([64, 48])
  })

  it('stores a 1×1 image with every variant at 1×1', async () => {
    const tiny = await solid(1, 1, 'black').png().toBuffer()
    const result = await processImage(tiny, { storage, maxBytes: 5 * MB })
    expect([result.width, result.height]).toEqual([1, 1])
    for (const key of storedImageKeys(storage, result.url)) {
      expect((await stored(key)).meta).toMatchObject({ width: 1, height: 1 })
    }
  })

  it('crops to a centred square for avatars, under a name apart from the uncropped image', async () => {
    // 300×200: green 50 px on the left, red 200 px in the middle, blue 50 px on the right.
    const base = await solid(300, 200, 'red')
      .composite([
        { input: await solid(50, 200, 'lime').png().toBuffer(), left: 0, top: 0 },
        { input: await solid(50, 200, 'blue').png().toBuffer(), left: 250, top: 0 },
      ])
      .png()
      .toBuffer()
    const square = await processImage(base, { storage, maxBytes: 5 * MB, square: true })
    expect([square.width, square.height]).toEqual([200, 200])
    expect(square.key).toBe(`${contentHash(base)}-sq.webp`)
    const { channels } = await sharp(path.join(dir, square.key)).stats()
    expect(channels[0].min).toBeGreaterThan(200) // red everywhere: neither side strip survived
    expect(channels[2].max).toBeLessThan(60)
    expect((await stored(`${contentHash(base)}-sq-w128.webp`)).meta).toMatchObject({ width: 128, height: 128 })
    const plain = await processImage(base, { storage, maxBytes: 5 * MB })
    expect(plain.url).not.toBe(square.url)
    expect([plain.width, plain.height]).toEqual([300, 200])
  })

  it('is idempotent: the same bytes again write nothing and return the same url', async () => {
    const png = await solid(700, 500, 'teal').png().toBuffer()
    const first = await processImage(png, { storage, maxBytes: 5 * MB })
    expect(puts).toHaveLength(4)
    const mtime = fs.statSync(path.join(dir, first.key)).mtimeMs
    const second = await processImage(Buffer.from(png), { storage, maxBytes: 5 * MB })
    expect(second).toEqual(first)
    expect(puts).toHaveLength(4)
    expect(fs.statSync(path.join(dir, first.key)).mtimeMs).toBe(mtime)
  })
})

describe('processImage: refusals', () => {
  it('refuses a text file named x.png with 415, whatever its name says', async () => {
    const text = Buffer.from('just some notes, saved as x.png\n'.repeat(10))
    const err = await rejection(processImage(text, { storage, maxBytes: 5 * MB }))
    expect(err.status).toBe(415)
    expect(err.message).toBe('Only images can be uploaded: JPEG, PNG, WebP, AVIF or GIF')
    expect(fs.readdirSync(dir)).toEqual([])
  })

  it('refuses an SVG carrying a script with 415', async () => {
    const svg = Buffer.from(
      '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">' +
        '<script>fetch("/api/user/user-details")</script><rect width="100" height="100" fill="red"/></svg>',
    )
    expect((await sharp(svg).metadata()).format).toBe('svg') // sharp itself would happily render it
    const err = await rejection(processImage(svg, { storage, maxBytes: 5 * MB }))
    expect(err.status).toBe(415)
    expect(fs.readdirSync(dir)).toEqual([])
  })

  it('refuses a file over the cap with 413 and a message naming the cap', async () => {
    const big = Buffer.alloc(5 * MB + 1, 0xff)
    const err = await rejection(processImage(big, { storage, maxBytes: 5 * MB }))
    expect(err.status).toBe(413)
    expect(err.message).toBe('Image is larger than 5 MB')
    const small = await solid(10, 10, 'red').png().toBuffer()
    const err2 = await rejection(processImage(small, { storage, maxBytes: 20 }))
    expect(err2.message).toBe('Image is larger than 20 bytes')
  })

  it('refuses a decompression bomb (small file, 400 megapixels) before decoding it', async () => {
    const bomb = pngHeaderOnly(20_000, 20_000)
    expect(bomb.length).toBeLessThan(2000)
    const err = await rejection(processImage(bomb, { storage, maxBytes: 5 * MB }))
    expect(err.status).toBe(413)
    expect(err.message).toBe('Image is larger than 40 megapixels')
    expect(fs.readdirSync(dir)).toEqual([])
    const real = await solid(9000, 5000, 'black').png().toBuffer() // 45 megapixels in ~130 KB
    expect(real.length).toBeLessThan(MB)
    expect((await rejection(processImage(real, { storage, maxBytes: 5 * MB }))).status).toBe(413)
  })

  it('refuses a damaged image (valid signature, broken body) with 415', async () => {
    const png = await solid(200, 200, 'red').png().toBuffer()
    const broken = Buffer.concat([png.subarray(0, 40), Buffer.alloc(200, 0x41)])
    const err = await rejection(processImage(broken, { storage, maxBytes: 5 * MB }))
    expect(err.status).toBe(415)
    expect(fs.readdirSync(dir)).toEqual([])
  })

  it('refuses an empty buffer and a format outside the list (TIFF)', async () => {
    expect((await rejection(processImage(Buffer.alloc(0), { storage, maxBytes: 5 * MB }))).status).toBe(415)
    const tiff = await solid(10, 10, 'red').tiff().toBuffer()
    expect((await rejection(processImage(tiff, { storage, maxBytes: 5 * MB }))).status).toBe(415)
  })
})

describe('urls, srcset and deletion', () => {
  const url = '/uploads/0123456789abcdef01234567.webp'

  it('names variants beside the main file and leaves foreign urls alone', () => {
    expect(variantUrl(url, 256)).toBe('/uploads/0123456789abcdef01234567-w256.webp')
    expect(variantUrl('https://cdn.example/0123456789abcdef01234567-sq.webp?v=1', 128)).toBe(
      'https://cdn.example/0123456789abcdef01234567-sq-w128.webp?v=1',
    )
    expect(variantUrl('https://example.com/photo.jpg', 128)).toBe('https://example.com/photo.jpg')
    expect(variantUrl('', 128)).toBe('')
  })

  it('builds a srcset with width descriptors, trimmed to the real width when known', () => {
    expect(srcSetFor(url)).toBe(
      '/uploads/0123456789abcdef01234567-w128.webp 128w, /uploads/0123456789abcdef01234567-w256.webp 256w, ' +
        '/uploads/0123456789abcdef01234567-w512.webp 512w, /uploads/0123456789abcdef01234567.webp 1024w',
    )
    expect(srcSetFor(url, 256)).toBe('/uploads/0123456789abcdef01234567-w128.webp 128w, /uploads/0123456789abcdef01234567.webp 256w')
    expect(srcSetFor('https://example.com/photo.jpg')).toBe('')
  })

  it('deleteImage removes the main file and every variant, and ignores foreign urls', async () => {
    const keep = await processImage(await solid(50, 50, 'red').png().toBuffer(), { storage, maxBytes: MB })
    const gone = await processImage(await solid(600, 400, 'blue').png().toBuffer(), { storage, maxBytes: MB })
    expect(fs.readdirSync(dir)).toHaveLength(8)
    expect(await deleteImage(storage, gone.url)).toBe(true)
    expect(fs.readdirSync(dir).sort()).toEqual(storedImageKeys(storage, keep.url).sort())
    expect(await deleteImage(storage, 'https://example.com/a.webp')).toBe(false)
    expect(await deleteImage(storage, '/uploads/not-ours.webp')).toBe(false)
    expect(fs.readdirSync(dir)).toHaveLength(4)
  })

  it('formats the cap as people read it', () => {
    expect(formatByteSize(5 * MB)).toBe('5 MB')
    expect(formatByteSize(1.5 * MB)).toBe('1.5 MB')
    expect(formatByteSize(800 * 1024)).toBe('800 KB')
  })
})
