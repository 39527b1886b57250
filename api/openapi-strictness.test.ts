/**
 * The OpenAPI document is as strict as the server (docs/api.md, "How the API uses it"): every value
 * the document calls valid for a body, a query or a header is accepted by the schema the server reads
 * it with (contract/), and by the text rule every body passes (api/lib/safe-text.ts). Values are
 * drawn from the document's own JSON Schemas (api/testing/schema-samples.ts), as an OpenAPI fuzzer
 * draws them; a seeded, bounded run. A body the server needs is marked required.
 */
import { StockCsvQuerySchema } from '../contract/stock-csv.ts'
import { AdminProductFilterShape } from '../contract/product-admin.ts'
import fc from 'fast-check'
import type { RouteConfig } from '@hono/zod-openapi'
import type { OpenAPIV3_1 } from 'openapi-types'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { GuestCartIdSchema } from '../contract/cart.ts'
import { IdempotencyKeySchema } from '../contract/idempotency.ts'
import { AdminOrderFilterShape } from '../contract/order.ts'
import { AuditQuerySchema } from '../contract/audit.ts'
import { ImportJobIdSchema } from '../contract/product-import.ts'
import { SitemapPageSchema } from '../contract/sitemap.ts'
import { findUnsafeValue } from './lib/safe-text.ts'
import { createTestApp, type TestApp } from './testing/app.ts'
import { sampleOf, type JsonSchema } from './testing/schema-samples.ts'

import { LatitudeSchema, LongitudeSchema, PincodeSchema, StoreIdHeaderSchema } from '../contract/location.ts'
import { WebhookEventIdSchema, WebhookSignatureSchema } from '../contract/payment.ts'
let t: TestApp
let doc: OpenAPIV3_1.Document
let routes: Map<string, RouteConfig>

beforeAll(async () => {
  t = await createTestApp()
  doc = (await (await t.app.request('/api/openapi.json')).json()) as OpenAPIV3_1.Document
  routes = new Map(
    t.app.openAPIRegistry.definitions.flatMap((d) =>
      d.type === 'route' ? [[`${d.route.method.toUpperCase()} ${d.route.path}`, d.route] as const] : [],
    ),
  )
})
afterAll(() => t?.close())

/** Headers and query parameters by name, with the schema their handler reads them with. */
const SERVER_READS: Record<string, z.ZodType> = {
  'idempotency-key': IdempotencyKeySchema,
  'x-guest-cart': GuestCartIdSchema,
  // Cart writes' `Prefer` (api/lib/prefer.ts): any value is read, a preference not understood is
  // ignored (RFC 7240 section 2), so nothing the document allows is refused.
  prefer: z.string(),
  page: SitemapPageSchema,
  // GET /api/order/admin/export: the admin list's filters (contract/order.ts).
  ...AdminOrderFilterShape,
  // The shopper's store (contract/location.ts) and GET /api/location/resolve's place.
  'x-store-id': StoreIdHeaderSchema,
  pincode: PincodeSchema,
  lat: LatitudeSchema,
  lng: LongitudeSchema,
  // The stock CSV's store (contract/stock-csv.ts): GET /api/inventory/export, POST /api/inventory/import(/apply).
  storeid: StockCsvQuerySchema.shape.storeId,
  // The import jobs' path parameter (contract/product-import.ts).
  jobid: ImportJobIdSchema,
  // POST /api/payment/webhook/razorpay (contract/payment.ts).
  'x-razorpay-signature': WebhookSignatureSchema,
  'x-razorpay-event-id': WebhookEventIdSchema,
  // GET /api/audit/list's filters (contract/audit.ts); its from/to and page are read as above's.
  actor: AuditQuerySchema.shape.actor,
  entity: AuditQuerySchema.shape.entity,
  action: AuditQuerySchema.shape.action,
}

/** GET /api/product/export's filters (contract/product-admin.ts): its `q` and `sort` are not the order list's. */
const PRODUCT_EXPORT_READS: Record<string, z.ZodType> = AdminProductFilterShape

// STRICT_SEED and STRICT_RUNS widen a run by hand (a new seed, more values per route).
const SEED = Number(process.env.STRICT_SEED ?? 18_014)
const RUNS_PER_ROUTE = Number(process.env.STRICT_RUNS ?? 60)

/** Every operation of the document with its JSON body schema and the zod schema the server reads the body with. */
function bodies() {
  return Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
    (['get', 'post', 'put', 'delete'] as const).flatMap((method) => {
      const op = item?.[method]
      const body = op?.requestBody as OpenAPIV3_1.RequestBodyObject | undefined
      const schema = body?.content['application/json']?.schema
      if (!op || !body || !schema) return []
      const key = `${method.toUpperCase()} ${path}`
      const zod = (routes.get(key)?.request?.body?.content['application/json'] as { schema?: unknown } | undefined)?.schema
      return [{ key, required: body.required === true, schema: schema as JsonSchema, zod: zod as z.ZodType }]
    }),
  )
}

/**
 * Rules JSON Schema cannot state, which the document says in words instead: extra field names of a
 * product are unique without regard to case (`uniqueItems` compares exact values, and names are keys).
 */
const UNSTATABLE = [/^Two extra fields are named/]

/** Why the server would refuse `value` as a body (its text rule, then its schema), or null when it reads it. */
function refusal(value: unknown, zod: z.ZodType): string | null {
  const unsafe = findUnsafeValue(value)
  if (unsafe) return `${unsafe.path}: ${unsafe.message}`
  const parsed = zod.safeParse(value)
  const issue = parsed.error?.issues.find((i) => !UNSTATABLE.some((rule) => rule.test(i.message)))
  return issue ? `${issue.path.join('.')}: ${issue.message}` : null
}

describe('the document is as strict as the server', () => {
  it('marks a body required exactly where the server refuses none', () => {
    const list = bodies()
    expect(list.length).toBeGreaterThan(30)
    for (const { key, required, zod } of list) {
      expect(zod, key).toBeInstanceOf(z.ZodType)
      expect(required, key).toBe(refusal({}, zod) !== null)
    }
  })

  it('every body valid by the document is read by the server (a seeded run over every route)', () => {
    const refused: string[] = []
    for (const { key, schema, zod } of bodies()) {
      const arbitrary = sampleOf(schema, doc as unknown as JsonSchema)
      expect(arbitrary, `${key}: the pools hold a valid body`).not.toBeNull()
      for (const value of fc.sample(arbitrary!, { seed: SEED, numRuns: RUNS_PER_ROUTE })) {
        const why = refusal(value, zod)
        if (why) refused.push(`${key} ${JSON.stringify(value).slice(0, 200)} → ${why}`)
      }
    }
    expect(refused.slice(0, 30), `${refused.length} bodies valid by the document were refused`).toEqual([])
  })

  it('every header and query value valid by the document is read by the server', () => {
    const refused: string[] = []
    for (const [path, item] of Object.entries(doc.paths ?? {})) {
      for (const method of ['get', 'post', 'put', 'delete'] as const) {
        const op = item?.[method]
        for (const parameter of (op?.parameters ?? []) as OpenAPIV3_1.ParameterObject[]) {
          const arbitrary = sampleOf(parameter.schema as JsonSchema, doc as unknown as JsonSchema)
          if (!arbitrary) continue
          for (const value of fc.sample(arbitrary, { seed: SEED, numRuns: 30 })) {
            const name = parameter.name.toLowerCase()
            // The schemas the server reads these with (the handlers, not the declarations).
            const zod = (path === '/api/product/export' ? PRODUCT_EXPORT_READS[parameter.name] : undefined) ?? SERVER_READS[name]
            expect(zod, `${path}: which schema reads ${name}`).toBeDefined()
            const parsed = zod!.safeParse(String(value))
            const why = parsed.success ? null : (parsed.error.issues[0]?.message ?? 'refused')
            if (why) refused.push(`${method.toUpperCase()} ${path} ${parameter.in} ${parameter.name}=${JSON.stringify(value)} → ${why}`)
          }
        }
      }
    }
    expect(refused.slice(0, 30), `${refused.length} parameters valid by the document were refused`).toEqual([])
  })
})
