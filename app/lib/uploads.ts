/**
 * Upload rules shared by every form that sends an image (avatar, category and sub category images,
 * product images; messages: docs/product.md, "Category and sub category"), in the browser (checked
 * when a file is picked) and on the server (checked before a body is read). They mirror the API's cap
 * (api/config.ts `UPLOAD_MAX_BYTES`, 5 MB by default; it answers 413 beyond) and the types it
 * accepts (api/lib/images.ts: decoded by content, SVG refused).
 */

/** The largest image file accepted, in bytes (5 MB). */
export const UPLOAD_MAX_BYTES = 5 * 1024 * 1024

/** Room for the multipart boundaries and the other fields around one file, in bytes. */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024

export const IMAGE_TOO_LARGE_MESSAGE = 'The image is too large: choose one of 5 MB or less'
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
 * The check of a picked file before it is sent: a message for a file over UPLOAD_MAX_BYTES or of a
 * type the API refuses, else null. The API checks the bytes again.
 */
export function checkImageFile(file: { size: number; type: string }): string | null {
  if (file.size > UPLOAD_MAX_BYTES) return IMAGE_TOO_LARGE_MESSAGE
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
