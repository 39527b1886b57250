/**
 * Idempotency keys of the BFF's create forms (docs/scale-out.md, "Write safety"): a page that
 * offers a create (an admin's Add Category, Add Sub Category, Upload Product) renders a fresh key as
 * a hidden field; the action sends it to the API as the `Idempotency-Key` header, so a form posted
 * twice (a double click, a browser retry, a request cut off after the save) makes one row. The next
 * page render gets a new key for the next create.
 */
import { randomUUID } from 'node:crypto'
import { IDEMPOTENCY_KEY_FIELD, IDEMPOTENCY_KEY_PATTERN } from '../../contract/idempotency.ts'

/** A fresh key for one rendered create form (a UUID v4: 122 random bits). */
export function newIdempotencyKey(): string {
  return randomUUID()
}

/**
 * The key a form carried, when it is well formed (contract/idempotency.ts); undefined otherwise, and
 * the create then runs without one, as the original client's do.
 */
export function formIdempotencyKey(formData: FormData): string | undefined {
  const value = formData.get(IDEMPOTENCY_KEY_FIELD)
  return typeof value === 'string' && IDEMPOTENCY_KEY_PATTERN.test(value) ? value : undefined
}
