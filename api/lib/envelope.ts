/**
 * The wire envelope (docs/api-contract.md, "Envelope"): success `{ message, error: false, success: true,
 * data, ...extra }`, failure `{ message, error: true, success: false, issues? }`.
 */
import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { FieldIssue } from '../../contract/envelope.ts'

/** Answers a success envelope; `extra` carries paging keys such as totalCount. */
export function ok<T>(c: Context, message: string, data: T, extra: Record<string, unknown> = {}, status: ContentfulStatusCode = 200) {
  return c.json({ message, error: false as const, success: true as const, data, ...extra }, status)
}

/** Builds a failure envelope body. */
export function failure(message: string, issues?: FieldIssue[]) {
  return { message, error: true as const, success: false as const, ...(issues ? { issues } : {}) }
}
