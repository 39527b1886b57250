/**
 * Values valid by a JSON Schema (the subset the OpenAPI document uses: type, enum, const, anyOf,
 * oneOf, allOf, $ref to components, string length, pattern and the `email` format, number bounds and
 * multipleOf, array items and length, object properties, required and additionalProperties), drawn
 * with fast-check from pools of awkward but legal values (blank text, padding, line breaks, C1
 * controls, emoji, boundary lengths and numbers). What an OpenAPI fuzzer sends a server: used by
 * api/openapi-strictness.test.ts to show that the document promises nothing the server refuses.
 */
import fc from 'fast-check'

/** A JSON Schema object as found in the document (loosely typed: the document is JSON). */
export type JsonSchema = Record<string, unknown>

const STRINGS = [
  '',
  ' ',
  '   ',
  'a',
  'A',
  'x y',
  '  padded  ',
  'Fresh Milk',
  'line one\nline two',
  'tab\there',
  'carriage\rreturn',
  'next\u0085line',
  'bell\u0007',
  'del\u007f',
  'nul\u0000',
  'é',
  'नमस्ते',
  '🙂',
  '0',
  '7',
  '12',
  '12.50',
  '1.005',
  '-1',
  '+3',
  '.5',
  '1.',
  '1e3',
  '560001',
  '9876543210',
  '123456',
  'someone@example.com',
  'a@b',
  'not-an-email',
  'Some.One+tag@example.co.in',
  '0123456789abcdef01234567',
  'abcdefgh',
  'ABCD-efgh_1234',
  'ab',
  '2024-01-01T00:00:00.000Z',
  '2024-01-01T05:30:00+05:30',
  '/uploads/0123456789abcdef01234567.webp',
  'https://cdn.example/0123456789abcdef01234567.webp',
  'javascript:alert(1)',
  'India',
  'Karnataka',
  'Delivered',
  'Placed',
  'ADMIN',
]
const NUMBERS = [0, 1, -1, 0.5, 1.005, 2, 12, 13, 99.99, 100, 100.5, 101, 999, 1000, 100_000, 1_000_000, 10_000_001, 1e21]

/** Draws from `pool` only values valid by `schema`; null when none is. */
function fromPool(pool: readonly unknown[], schema: JsonSchema, extra: unknown[] = []): fc.Arbitrary<unknown> | null {
  const listed = [...(Array.isArray(schema.enum) ? schema.enum : []), ...('const' in schema ? [schema.const] : [])]
  const valid = [...new Set([...listed, ...extra, ...pool])].filter((v) => isValid(v, schema))
  return valid.length > 0 ? fc.constantFrom(...valid) : null
}

function withoutKey(schema: JsonSchema, key: string): JsonSchema {
  const { [key]: _dropped, ...rest } = schema
  return rest
}

function resolve(schema: JsonSchema, root: JsonSchema): JsonSchema {
  const ref = schema.$ref
  if (typeof ref !== 'string') return schema
  const target = ref
    .replace(/^#\//, '')
    .split('/')
    .reduce<unknown>((node, key) => (node as Record<string, unknown>)?.[key], root)
  return resolve(target as JsonSchema, root)
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
const typeOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : Number.isInteger(v) ? 'integer' : typeof v)

/** True when `value` satisfies `schema`'s keywords for scalars (the pools hold scalars only). */
function isValid(value: unknown, schema: JsonSchema): boolean {
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) return false
  if ('const' in schema && schema.const !== value) return false
  if (schema.not && typeof schema.not === 'object' && isValid(value, schema.not as JsonSchema)) return false
  const types = schema.type === undefined ? null : ([] as unknown[]).concat(schema.type)
  if (types && !types.some((t) => t === typeOf(value) || (t === 'number' && typeof value === 'number'))) return false
  if (typeof value === 'string') {
    // Lengths in code points, as JSON Schema counts them.
    const length = [...value].length
    if (typeof schema.minLength === 'number' && length < schema.minLength) return false
    if (typeof schema.maxLength === 'number' && length > schema.maxLength) return false
    if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(value)) return false
    if (schema.format === 'email' && !EMAIL.test(value)) return false
  }
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum) return false
    if (typeof schema.maximum === 'number' && value > schema.maximum) return false
    if (typeof schema.exclusiveMinimum === 'number' && value <= schema.exclusiveMinimum) return false
    if (typeof schema.exclusiveMaximum === 'number' && value >= schema.exclusiveMaximum) return false
    if (typeof schema.multipleOf === 'number' && Math.abs(Math.round(value / schema.multipleOf) * schema.multipleOf - value) > 1e-9)
      return false
  }
  return true
}

/** Strings of boundary lengths for `schema` (at its maxLength, at its minLength), padded or not. */
function boundaryStrings(schema: JsonSchema): string[] {
  const out: string[] = []
  if (typeof schema.maxLength === 'number' && schema.maxLength <= 5000)
    out.push('a'.repeat(schema.maxLength), ` ${'b'.repeat(Math.max(0, schema.maxLength - 2))} `)
  if (typeof schema.minLength === 'number' && schema.minLength > 0) out.push('c'.repeat(schema.minLength), ' '.repeat(schema.minLength))
  return out
}

/**
 * An arbitrary of values valid by `schema` (resolved against `root`, the whole document), or null
 * when the pools hold none (an optional property is then left out).
 */
export function sampleOf(schema: JsonSchema, root: JsonSchema, depth = 0): fc.Arbitrary<unknown> | null {
  const s = resolve(schema, root)
  for (const key of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(s[key])) {
      const branches = (s[key] as JsonSchema[])
        .map((b) => sampleOf({ ...withoutKey(s, key), ...resolve(b, root) }, root, depth + 1))
        .filter((b): b is fc.Arbitrary<unknown> => b !== null)
      return branches.length > 0 ? fc.oneof(...branches) : null
    }
  }
  if (Array.isArray(s.allOf)) return sampleOf(Object.assign({}, ...(s.allOf as JsonSchema[]).map((p) => resolve(p, root))), root, depth)
  const types = s.type === undefined ? ['string', 'number', 'boolean', 'null'] : ([] as string[]).concat(s.type as string)
  const arbitraries: fc.Arbitrary<unknown>[] = []
  for (const type of types) {
    // A recursive schema (any JSON) stops nesting here.
    if (depth > 4 && (type === 'array' || type === 'object')) continue
    if (type === 'string') {
      const a = fromPool(STRINGS, s, boundaryStrings(s))
      if (a) arbitraries.push(a)
    } else if (type === 'number' || type === 'integer') {
      const a = fromPool(
        NUMBERS.filter((n) => type === 'number' || Number.isInteger(n)),
        s,
        [s.minimum, s.maximum].filter((n) => typeof n === 'number'),
      )
      if (a) arbitraries.push(a)
    } else if (type === 'boolean' || type === 'null') {
      const a = fromPool(type === 'boolean' ? [true, false] : [null], s)
      if (a) arbitraries.push(a)
    } else if (type === 'array') {
      const items = s.items ? sampleOf(s.items as JsonSchema, root, depth + 1) : fc.constantFrom<unknown>('x', 1, null, {})
      const minLength = typeof s.minItems === 'number' ? s.minItems : 0
      const maxLength = Math.min(typeof s.maxItems === 'number' ? s.maxItems : 3, minLength + 3)
      if (items) arbitraries.push(fc.array(items, { minLength, maxLength }))
      else if (minLength === 0) arbitraries.push(fc.constant([]))
    } else if (type === 'object') {
      const a = objectOf(s, root, depth)
      if (a) arbitraries.push(a)
    }
  }
  return arbitraries.length > 0 ? fc.oneof(...arbitraries) : null
}

function objectOf(s: JsonSchema, root: JsonSchema, depth: number): fc.Arbitrary<unknown> | null {
  const properties = (s.properties ?? {}) as Record<string, JsonSchema>
  const required = new Set((s.required ?? []) as string[])
  const record: Record<string, fc.Arbitrary<unknown>> = {}
  const requiredKeys: string[] = []
  for (const [key, schema] of Object.entries(properties)) {
    const a = sampleOf(schema, root, depth + 1)
    if (!a) {
      if (required.has(key)) return null
      continue
    }
    record[key] = a
    if (required.has(key)) requiredKeys.push(key)
  }
  const known = fc.record(record, { requiredKeys })
  const additional = s.additionalProperties
  if (!additional || typeof additional !== 'object' || depth > 3) return known
  const value = sampleOf(additional as JsonSchema, root, depth + 1)
  const names = fromPool(STRINGS, resolve((s.propertyNames ?? {}) as JsonSchema, root))
  if (!value || !names) return known
  const minProperties = typeof s.minProperties === 'number' ? s.minProperties : 0
  const maxProperties = Math.min(typeof s.maxProperties === 'number' ? s.maxProperties : 3, 3)
  return fc
    .tuple(
      known,
      fc.dictionary(names as fc.Arbitrary<string>, value, { minKeys: Math.min(minProperties, maxProperties), maxKeys: maxProperties }),
    )
    .map(([a, b]) => ({ ...b, ...(a as object) }))
}
