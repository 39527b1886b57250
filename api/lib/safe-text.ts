/**
 * Text that may be stored: no control characters and no unpaired UTF-16 surrogates (OWASP Input
 * Validation Cheat Sheet, "Validating free-form Unicode text"). PostgreSQL refuses NUL in text and
 * an unpaired surrogate cannot be encoded as UTF-8, so either would otherwise fail deep inside a
 * query (a 500, with the driver's message in the log) instead of at validation (a 400).
 *
 * Allowed: tab, line feed and carriage return (multi-line descriptions). Refused: the other C0
 * controls (U+0000–U+001F), DEL (U+007F) and the C1 controls (U+0080–U+009F).
 */

// eslint-disable-next-line no-control-regex -- these are exactly the characters refused
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/** Deepest nesting of arrays and objects a JSON body may have; no endpoint needs more than 4. */
export const MAX_JSON_DEPTH = 32

/** Why `text` may not be stored, or null when it may. */
export function unsafeTextReason(text: string): string | null {
  if (CONTROL.test(text)) return 'must not contain control characters'
  if (LONE_SURROGATE.test(text)) return 'must not contain unpaired surrogate characters'
  return null
}

/** A problem found in a parsed JSON value: where (dotted path, '' for the root) and what. */
export interface UnsafeValue {
  path: string
  message: string
}

/**
 * Walks a parsed JSON value (iteratively: a deeply nested body cannot exhaust the stack) and returns
 * the first string or object key that is not safe text, or a container nested deeper than
 * {@link MAX_JSON_DEPTH}. Returns null when the whole value is safe.
 */
export function findUnsafeValue(root: unknown): UnsafeValue | null {
  const stack: { value: unknown; path: string[] }[] = [{ value: root, path: [] }]
  while (stack.length > 0) {
    const { value, path } = stack.pop()!
    if (typeof value === 'string') {
      const reason = unsafeTextReason(value)
      if (reason) return { path: path.join('.'), message: reason }
      continue
    }
    if (value === null || typeof value !== 'object') continue
    if (path.length >= MAX_JSON_DEPTH) return { path: path.join('.'), message: `is nested more than ${MAX_JSON_DEPTH} levels deep` }
    for (const [key, child] of Object.entries(value)) {
      const reason = unsafeTextReason(key)
      if (reason) return { path: path.join('.'), message: `has a field name that ${reason}` }
      stack.push({ value: child, path: [...path, key] })
    }
  }
  return null
}
