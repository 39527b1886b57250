/**
 * The wire envelope (docs/api-contract.md, "Envelope"): success `{ message, error: false, success:
 * true, data, ...extra }`, failure `{ message, error: true, success: false, issues? }`. The API
 * answers these (api/lib/envelope.ts) and the BFF reads them (app/.server/upstream.ts).
 */
import { z } from 'zod'

/** A field issue of a 400: the dotted path of the field ('' for the body) and the message for it. */
export const FieldIssueSchema = z.object({ path: z.string(), message: z.string() }).meta({ id: 'FieldIssue' })
export type FieldIssue = z.output<typeof FieldIssueSchema>

/** A failure answer (every 4xx and 5xx). */
export const FailureSchema = z
  .object({
    message: z.string(),
    error: z.literal(true),
    success: z.literal(false),
    issues: z.array(FieldIssueSchema).optional(),
  })
  .meta({ id: 'Failure' })
export type Failure = z.output<typeof FailureSchema>

/**
 * A success answer carrying `data`, with `extra` keys beside it (paging: `totalCount`, `page`…).
 * @param data the schema of `data`
 * @param extra the schemas of the keys answered beside `data`
 */
export function successOf<D extends z.ZodType, E extends z.ZodRawShape = Record<never, never>>(data: D, extra?: E) {
  return z.object({ message: z.string(), error: z.literal(false), success: z.literal(true), data, ...(extra ?? ({} as E)) })
}

/** `data: null`: the answer of a delete or a sign-out. */
export const NullDataSchema = z.null()
