import { describe, expect, it } from 'vitest'
import {
  IMAGE_TOO_LARGE_MESSAGE,
  IMAGE_TYPE_MESSAGE,
  UPLOAD_MAX_BYTES,
  checkImageFile,
  readImageFile,
  uploadMaxBytesFrom,
} from './uploads.ts'

const form = (entries: Array<[string, string | Blob]>) => {
  const fd = new FormData()
  for (const [key, value] of entries) fd.append(key, value)
  return fd
}

describe('readImageFile', () => {
  it('gives the chosen file and ignores the empty part a browser sends when nothing was chosen', () => {
    const file = new File([new Uint8Array([1, 2, 3])], 'a.png', { type: 'image/png' })
    expect(readImageFile(form([['imageFile', file]]), 'imageFile')?.name).toBe('a.png')
    expect(readImageFile(form([['imageFile', new File([], '')]]), 'imageFile')).toBeNull()
    expect(readImageFile(form([['imageFile', 'not a file']]), 'imageFile')).toBeNull()
  })
})

describe('checkImageFile: the check before an upload', () => {
  it('refuses a file over 5 MB and a type the API refuses (SVG)', () => {
    expect(checkImageFile({ size: UPLOAD_MAX_BYTES + 1, type: 'image/png' })).toBe(IMAGE_TOO_LARGE_MESSAGE)
    expect(checkImageFile({ size: 100, type: 'image/svg+xml' })).toBe(IMAGE_TYPE_MESSAGE)
  })
  it('accepts JPEG, PNG, WebP, AVIF and GIF up to exactly 5 MB', () => {
    for (const type of ['image/jpeg', 'image/png', 'image/webp', 'image/avif', 'image/gif']) {
      expect(checkImageFile({ size: UPLOAD_MAX_BYTES, type })).toBeNull()
    }
  })
})

describe('uploadMaxBytesFrom (the configured cap the root loader sends)', () => {
  it('takes a positive whole number of bytes from the root data', () => {
    expect(uploadMaxBytesFrom({ uploadMaxBytes: 10 * 1024 * 1024 })).toBe(10 * 1024 * 1024)
    expect(
      checkImageFile({ size: 7 * 1024 * 1024, type: 'image/png' }, uploadMaxBytesFrom({ uploadMaxBytes: 10 * 1024 * 1024 })),
    ).toBeNull()
  })

  it('falls back to the 5 MB default without data or with a value that is not a cap', () => {
    for (const data of [
      undefined,
      null,
      {},
      { uploadMaxBytes: '5' },
      { uploadMaxBytes: 0 },
      { uploadMaxBytes: -1 },
      { uploadMaxBytes: 1.5 },
    ]) {
      expect(uploadMaxBytesFrom(data)).toBe(UPLOAD_MAX_BYTES)
    }
  })
})
