/**
 * Body validation: every JSON body is parsed by a zod schema; a body that is not JSON, or that fails
 * the schema (wrong types, missing fields, an object where a string belongs), is a 400 with field
 * issues (contract, "Defects": no query objects from the body).
 */
import type { Context } from 'hono'
import type { z } from 'zod'
import { BadRequest } from './errors.ts'

/** Reads and validates the JSON body of `c`. An empty body is treated as `{}`. Throws 400 on failure. */
export async function readBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  let raw: unknown = {}
  const text = await c.req.text()
  if (text.trim() !== '') {
    try {
      raw = JSON.parse(text)
    } catch {
      throw BadRequest('Request body must be JSON')
    }
  }
  const result = schema.safeParse(raw)
  if (!result.success) {
    const issues = result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }))
    throw BadRequest(issues[0] ? `${issues[0].path || 'body'}: ${issues[0].message}` : 'Invalid body', issues)
  }
  return result.data
}
