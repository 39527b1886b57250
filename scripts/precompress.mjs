#!/usr/bin/env node
/**
 * After `react-router build`: writes a gzip (`.gz`, Zopfli, 15 iterations) and a brotli (`.br`,
 * quality 11) copy of every script and stylesheet in build/client/assets, which server.ts sends as
 * they are (express-static-gzip) to browsers that accept them. The assets are immutable, so they are
 * compressed once here, at the highest settings, instead of at level 6 on every request: Zopfli's
 * gzip is some 3.5% smaller than zlib's best, which the home page's first-load JavaScript budget
 * needs (docs/decisions/0018-page-cache.md, "First-load JavaScript").
 */
import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'
import { gzipAsync } from '@gfx/zopfli'

const dir = path.resolve(import.meta.dirname, '../build/client/assets')
const started = Date.now()
let files = 0
let bytes = 0
let gzipBytes = 0
for (const name of fs.readdirSync(dir)) {
  if (!/\.(js|css)$/.test(name)) continue
  const file = path.join(dir, name)
  const body = fs.readFileSync(file)
  const gz = Buffer.from(await gzipAsync(body, { numiterations: 15 }))
  const br = zlib.brotliCompressSync(body, {
    params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length },
  })
  fs.writeFileSync(`${file}.gz`, gz)
  fs.writeFileSync(`${file}.br`, br)
  files++
  bytes += body.length
  gzipBytes += gz.length
}
console.log(
  `precompressed ${files} assets (${(bytes / 1024).toFixed(0)} KiB, gzip ${(gzipBytes / 1024).toFixed(0)} KiB) in ${Date.now() - started} ms`,
)
