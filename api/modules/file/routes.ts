import type { AppDeps } from '../../deps.ts'
import { requireAdmin } from '../../lib/auth.ts'
import { ok } from '../../lib/envelope.ts'
import { readFileField } from '../../lib/multipart.ts'
import { UPLOAD_DONE, uploadCatalogImage } from './service.ts'
import { UploadAnswerSchema } from '../../../contract/file.ts'
import { apiRouter } from '../../lib/openapi.ts'

/**
 * Routes of /api/file (docs/api-contract.md, "Endpoints").
 *
 * - POST /upload (ADMIN; multipart field `image`) → 201 `{ url, width, height, format, bytes }`.
 *   401 without a valid token, 403 for a non-admin (checked before a byte of the body is read),
 *   400 without a file, 413 over deps.uploadMaxBytes, 415 not an image (by content; SVG refused).
 */
export function fileRoutes(deps: AppDeps) {
  const { router, endpoint } = apiRouter('File')

  endpoint(
    {
      method: 'post',
      path: '/upload',
      summary: 'Upload a catalogue image (ADMIN): stored as WebP in four widths',
      access: 'admin',
      upload: 'image',
      answers: { 201: { description: 'The stored image', data: UploadAnswerSchema } },
    },
    requireAdmin(deps),
    async (c) => {
      const file = await readFileField(c, 'image', deps.uploadMaxBytes)
      return ok(c, UPLOAD_DONE, await uploadCatalogImage(deps, file.bytes), {}, 201)
    },
  )

  return router
}
