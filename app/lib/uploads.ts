/**
 * Upload rules shared by every form that sends an image (avatar, category and sub category images,
 * product images; messages: docs/product.md, "Category and sub category"), in the browser (checked
 * when a file is picked) and on the server (checked before a body is read). The cap is the API's
 * (contract/file.ts: `UPLOAD_MAX_BYTES`, 5 MB by default; the BFF reads the same variable through
 * app/.server/env.ts); the types are those the API accepts (api/lib/images.ts: decoded by content,
 * SVG refused).
 */
import { useRouteLoaderData } from 'react-router'
import { DEFAULT_UPLOAD_MAX_BYTES, formatByteSize, MULTIPART_OVERHEAD_BYTES } from '../../contract/file.ts'

/**
 * The default cap in bytes (5 MB). The browser's early check uses the configured cap the root loader
 * sends (`useUploadMaxBytes`); the server's checks use app/.server/env.ts `uploadMaxBytes`, and the
 * API checks again.
 */
export const UPLOAD_MAX_BYTES = DEFAULT_UPLOAD_MAX_BYTES

export { formatByteSize, MULTIPART_OVERHEAD_BYTES }

/** The message of a file over `maxBytes` ("The image is too large: choose one of 5 MB or less"). */
export const imageTooLargeMessage = (maxBytes: number) => `The image is too large: choose one of ${formatByteSize(maxBytes)} or less`

export const IMAGE_TOO_LARGE_MESSAGE = imageTooLargeMessage(UPLOAD_MAX_BYTES)
export const IMAGE_TYPE_MESSAGE = 'Choose a JPEG, PNG, WebP, AVIF or GIF image'
export const CHOOSE_IMAGE_MESSAGE = 'Choose an image to upload'
/** The types the API accepts: the file pickers' `accept`. */
export const IMAGE_ACCEPT = 'image/jpeg,image/png,image/webp,image/avif,image/gif'
/** Field name of an admin form's file input without JavaScript; with JavaScript the file is uploaded at once. */
export const IMAGE_FILE_FIELD = 'imageFile'

/** The chosen file of field `name`, or null when none was chosen (browsers send an empty, nameless part). */
export function readImageFile(formData: FormData, name: string): File | null {
  const value = formData.get(name)
  return value instanceof File && value.size > 0 ? value : null
}

/**
 * The check of a picked file before it is sent: a message for a file over `maxBytes` (the upload
 * cap, 5 MB by default) or of a type the API refuses, else null. The API checks the bytes again.
 */
export function checkImageFile(file: { size: number; type: string }, maxBytes: number = UPLOAD_MAX_BYTES): string | null {
  if (file.size > maxBytes) return imageTooLargeMessage(maxBytes)
  if (file.type && !IMAGE_ACCEPT.split(',').includes(file.type)) return IMAGE_TYPE_MESSAGE
  return null
}

/** What an `intent=upload` submission answers: the stored url, or the reason it was not stored. */
export interface UploadReply {
  intent: 'upload'
  url: string | null
  error: string | null
}

/** Said when a form is submitted while its picked image is still uploading (JavaScript only). */
export const UPLOAD_PENDING_MESSAGE = 'Wait until the image is uploaded'

/**
 * The upload cap in bytes from the root loader's data (`uploadMaxBytes`, the configured
 * `UPLOAD_MAX_BYTES`); `UPLOAD_MAX_BYTES` (5 MB) when the data has no valid cap.
 */
export function uploadMaxBytesFrom(rootData: unknown): number {
  const value = typeof rootData === 'object' && rootData !== null ? (rootData as { uploadMaxBytes?: unknown }).uploadMaxBytes : undefined
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : UPLOAD_MAX_BYTES
}

/** The configured upload cap in bytes, for the early check of a picked file (see `uploadMaxBytesFrom`). */
export function useUploadMaxBytes(): number {
  return uploadMaxBytesFrom(useRouteLoaderData('root'))
}
