/**
 * The idempotency key rule shared by the API (api/lib/idempotency.ts, the order and admin create
 * endpoints) and the BFF's forms that carry one (checkout, the admin create forms): 8-128 characters
 * of `[A-Za-z0-9_-]`, so a UUID fits (IETF httpapi draft "The Idempotency-Key HTTP Header Field"
 * leaves the format to the server).
 */
import { z } from 'zod'

/** What a key may look like. */
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_-]{8,128}$/

/** An idempotency key, with the API's messages. */
export const IdempotencyKeySchema = z
  .string({ error: 'An idempotency key is required (Idempotency-Key header)' })
  .trim()
  .regex(IDEMPOTENCY_KEY_PATTERN, 'The idempotency key must be 8-128 letters, digits, "-" or "_"')

/** The form field of a page's idempotency key (rendered with the page, sent as the `Idempotency-Key` header). */
export const IDEMPOTENCY_KEY_FIELD = 'idempotencyKey'

/**
 * An optional `Idempotency-Key` header as the document declares it: when sent, of the key's shape
 * (the server refuses any other with 400). `description` says what the key does on that endpoint.
 */
export function idempotencyHeader(description: string) {
  return z.object({ 'idempotency-key': z.string().regex(IDEMPOTENCY_KEY_PATTERN).optional().meta({ description }) })
}

/** The optional `Idempotency-Key` header of the admin creates, as the document declares it. */
export const IdempotencyHeaderSchema = idempotencyHeader('A key of 8-128 [A-Za-z0-9_-]')
