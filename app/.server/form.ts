/**
 * The one way every BFF action reads its form: app/lib/form-body.ts `readFormOrFail`, with its
 * failures (405, 415, 413, 400) thrown as React Router `data()` responses, so they reach the route's
 * error boundary with their status and are not logged as faults.
 */
import { data } from 'react-router'
import { FormReadError, readFormOrFail } from '../lib/form-body.ts'

export { FormReadError, readFormOrFail, URLENCODED_MAX_BYTES, MULTIPART_MAX_BYTES } from '../lib/form-body.ts'

/** `readFormOrFail` for actions: a failure is thrown as a `data()` response with its status. */
export async function readForm(request: Request, opts: { multipartMaxBytes?: number } = {}): Promise<FormData> {
  try {
    return await readFormOrFail(request, opts)
  } catch (err) {
    if (err instanceof FormReadError) {
      throw data(err.message, {
        status: err.status,
        statusText: err.message,
        headers: err.status === 405 ? { Allow: 'GET, HEAD, POST' } : undefined,
      })
    }
    throw err
  }
}
