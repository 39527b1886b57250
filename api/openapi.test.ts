/**
 * The OpenAPI document (docs/api.md): valid OpenAPI 3.1 by an independent validator
 * (@readme/openapi-parser), every mounted route documented and every documented route mounted, the
 * error answers of each route listed, and the reference page served from our origin under a nonce
 * policy.
 */
import { compileErrors, validate } from '@readme/openapi-parser'
import type { OpenAPIV3_1 } from 'openapi-types'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from './testing/app.ts'

let t: TestApp
let doc: OpenAPIV3_1.Document

beforeAll(async () => {
  t = await createTestApp()
  const res = await t.app.request('/api/openapi.json')
  expect(res.status).toBe(200)
  doc = (await res.json()) as OpenAPIV3_1.Document
})
afterAll(() => t.close())

const METHODS = ['get', 'post', 'put', 'delete', 'patch'] as const

/** Every `METHOD /path` of the document. */
function documented(): string[] {
  return Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
    METHODS.filter((method) => item?.[method]).map((method) => `${method.toUpperCase()} ${path}`),
  )
}

/** Every `METHOD /path` a handler answers (middleware registered for all methods is not a route). */
function mounted(): string[] {
  const routes = t.app.routes.filter((r) => r.method !== 'ALL').map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, '{$1}')}`)
  return [...new Set(routes)]
}

function operations(): Array<{ key: string; op: OpenAPIV3_1.OperationObject }> {
  return Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
    METHODS.flatMap((method) => (item?.[method] ? [{ key: `${method.toUpperCase()} ${path}`, op: item[method]! }] : [])),
  )
}

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.1', async () => {
    expect(doc.openapi).toBe('3.1.0')
    const result = await validate(structuredClone(doc) as never)
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true)
  })

  it('documents every mounted route, and every documented route is mounted', () => {
    const inDoc = documented().sort()
    const onApp = mounted().sort()
    expect(onApp.length).toBeGreaterThan(50)
    expect(inDoc).toEqual(onApp)
  })

  it('lists the error answers of each route: 400 with issues, 413 and 415 for a body; 401 and 403 behind a guard; Retry-After on 429', () => {
    for (const { key, op } of operations()) {
      const statuses = Object.keys(op.responses ?? {})
      if (op.requestBody) expect(statuses, key).toEqual(expect.arrayContaining(['400', '413', '415']))
      if (op.security && op.security.length > 0) expect(statuses, key).toEqual(expect.arrayContaining(['401', '403']))
      const tooMany = op.responses?.['429'] as OpenAPIV3_1.ResponseObject | undefined
      if (tooMany) expect(Object.keys(tooMany.headers ?? {}), key).toContain('Retry-After')
    }
    const failure = JSON.stringify(doc.components?.schemas?.Failure)
    expect(failure).toContain('issues')
    // Some routes are rate-limited, some are guarded, some answer 404 and 409: all of it is written down.
    const all = operations().flatMap(({ op }) => Object.keys(op.responses ?? {}))
    for (const status of ['400', '401', '403', '404', '409', '413', '415', '422', '429']) expect(all).toContain(status)
  })

  it('describes the product answer and the create body from contract/', () => {
    const product = doc.components?.schemas?.Product as OpenAPIV3_1.SchemaObject
    expect(Object.keys(product.properties ?? {})).toEqual(
      expect.arrayContaining(['_id', 'price', 'sellingPrice', 'discount', 'more_details']),
    )
    const create = doc.paths?.['/api/product/create']?.post
    const body = (create?.requestBody as OpenAPIV3_1.RequestBodyObject).content['application/json']?.schema as OpenAPIV3_1.SchemaObject
    expect(body.required).toEqual(expect.arrayContaining(['name', 'image', 'category', 'price', 'description']))
    expect(JSON.stringify(body.properties?.name)).toContain('"maxLength":200')
  })
})

describe('the reference page', () => {
  it('serves Scalar from our origin, its scripts under a per-request nonce', async () => {
    const res = await t.app.request('/api/docs')
    expect(res.status).toBe(200)
    const policy = res.headers.get('content-security-policy') ?? ''
    const nonce = /'nonce-([^']+)'/.exec(policy)?.[1]
    expect(nonce).toBeTruthy()
    expect(policy).not.toMatch(/https?:/)
    const html = await res.text()
    const scripts = html.match(/<script[^>]*>/g) ?? []
    expect(scripts.length).toBeGreaterThan(0)
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`)
    expect(html).toContain('src="/api/docs/scalar.js"')
    expect(html).toContain('/api/openapi.json')
    expect(html).not.toMatch(/cdn\.jsdelivr|https:\/\//)
    const second = await t.app.request('/api/docs')
    expect(second.headers.get('content-security-policy')).not.toBe(policy)
  })

  it('serves the standalone bundle as JavaScript', async () => {
    const res = await t.app.request('/api/docs/scalar.js')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/javascript/)
    expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(100_000)
  })
})
