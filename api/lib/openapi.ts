/**
 * Routes declared from contract/ (docs/api.md; docs/decisions/0017-one-contract-openapi.md).
 * Each module declares its endpoints with `endpoint()`: the method, the path, who may call it, the
 * body, query and header schemas and the answers, all zod schemas from `contract/`. One declaration
 * both mounts the handlers and enters the route in the OpenAPI 3.1 document served at
 * `GET /api/openapi.json` (@hono/zod-openapi's `createRoute` and registry).
 *
 * The declared body schema is the one the handler receives: after the guards, `endpoint()` reads the
 * body with api/lib/validate.ts `readBody` and passes the result as the handler's second argument, so
 * the streaming size cap (413), the content-type rule (415) and the `issues` of a 400 stay as
 * docs/api-contract.md, "Errors" describes them (not a generated validator). Uploads are read by the handler
 * (api/lib/multipart.ts).
 *
 * The error answers a route can give follow from the declaration (a body: 400, 413, 415; a guard:
 * 401, 403) plus those it lists (404, 409, 422, 429 with `Retry-After`), each with the failure
 * envelope (contract/envelope.ts).
 */
import { createRoute, OpenAPIHono, type RouteConfig } from '@hono/zod-openapi'
import type { Context, MiddlewareHandler, Next } from 'hono'
import { matchedRoutes } from 'hono/route'
import { z } from 'zod'
import { FailureSchema, successOf } from '../../contract/envelope.ts'
import { SAFE_TEXT_PATTERN } from '../../contract/fields.ts'
import { readBody } from './validate.ts'

/** Who may call an endpoint: anyone, a signed-in user, an ADMIN, an ADMIN or STAFF, or the owner of a cart (a user or a guest cart id). */
export type Access = 'public' | 'user' | 'admin' | 'staff' | 'rider' | 'cart'

/** Error statuses a declaration may list beyond those that follow from its body and guard. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 503

/** One success answer: the schema of `data` and of the keys beside it, or a raw (non-envelope) body. */
export interface Answer {
  description: string
  data?: z.ZodType
  extra?: z.ZodRawShape
  /** A body that is not the envelope (the OpenAPI document itself, the reference page). */
  raw?: { mediaType: string; schema: z.ZodType }
}

/** An endpoint as a module declares it. `path` is relative to the module's mount point. */
export interface Endpoint {
  method: 'get' | 'post' | 'put' | 'delete'
  path: string
  summary: string
  description?: string
  access: Access
  /** The JSON body's schema: read with `readBody` after the guards and handed to the handler. */
  body?: z.ZodType
  /** The multipart field carrying an uploaded file (read by the handler with `readFileField`). */
  upload?: string
  /** What the uploaded file must be, for the document (default: an image). */
  uploadDescription?: string
  /** The query's schema. */
  query?: z.ZodObject
  /** The path parameters' schema (`{jobId}` in `path`); the handler reads them with it (400 on a bad one). */
  params?: z.ZodObject
  /** Request headers the endpoint reads (Idempotency-Key, X-Guest-Cart), lower-case names. */
  headers?: z.ZodObject
  /** Success answers by status. */
  answers: Partial<Record<200 | 201 | 202, Answer>>
  /** Further error statuses (404, 409, 422, 429…). */
  errors?: ErrorStatus[]
  /** Keys a failure of some status carries beside the envelope, with that status's description. */
  failureExtra?: Partial<Record<ErrorStatus, { description: string; extra: z.ZodRawShape }>>
}

const ERROR_DESCRIPTIONS: Record<ErrorStatus, string> = {
  400: 'Bad input: the failure envelope with `issues` (one `{ path, message }` per field)',
  401: 'No access token, or a bad, expired or ended one',
  403: 'Signed in but not allowed: not an ADMIN, an account not Active, or a cross-site write',
  404: 'The thing named does not exist',
  409: 'Conflict: a duplicate, a stale edit (`updatedAt`), still in use, or over a limit',
  413: 'The body is larger than the cap (JSON_BODY_MAX_BYTES, or UPLOAD_MAX_BYTES for a file)',
  415: 'Wrong content type: JSON bodies must be application/json; an upload must be an image',
  422: 'The Idempotency-Key was used before with another body',
  429: 'Too many requests, or the store busy (every database connection in use): wait the `Retry-After` seconds',
  503: 'The database is unavailable: retry after `Retry-After` seconds',
}

const RETRY_AFTER = { 'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer' as const, minimum: 1 } } }

/** The error statuses of an endpoint: those following from its body, its guard and the database, and those it lists. */
export function errorStatuses(
  endpoint: Pick<Endpoint, 'access' | 'body' | 'upload' | 'query' | 'params' | 'errors' | 'answers'>,
): ErrorStatus[] {
  const statuses = new Set<ErrorStatus>(endpoint.errors ?? [])
  // Every envelope route reads the database, which may be unreachable for a moment (503) or have
  // every pooled connection in use (429 "busy", api/app.ts).
  if (Object.values(endpoint.answers).some((answer) => answer && !answer.raw)) {
    statuses.add(429)
    statuses.add(503)
  }
  if (endpoint.body || endpoint.upload || endpoint.query || endpoint.params) statuses.add(400)
  if (endpoint.body || endpoint.upload) {
    statuses.add(413)
    statuses.add(415)
  }
  if (endpoint.access !== 'public') {
    statuses.add(401)
    statuses.add(403)
  }
  return [...statuses].sort((a, b) => a - b)
}

const json = (schema: z.ZodType) => ({ 'application/json': { schema } })

/** The route configuration of `endpoint` for @hono/zod-openapi's registry. */
export function routeOf(endpoint: Endpoint, tag: string): RouteConfig {
  const responses: RouteConfig['responses'] = {}
  for (const [status, answer] of Object.entries(endpoint.answers)) {
    if (!answer) continue
    responses[status] = {
      description: answer.description,
      content: answer.raw
        ? { [answer.raw.mediaType]: { schema: answer.raw.schema } }
        : json(successOf(answer.data ?? z.null(), answer.extra)),
    }
  }
  for (const status of errorStatuses(endpoint)) {
    const special = endpoint.failureExtra?.[status]
    responses[String(status)] = {
      description: special?.description ?? ERROR_DESCRIPTIONS[status],
      content: json(special ? FailureSchema.extend(special.extra) : FailureSchema),
      ...(status === 429 || status === 503 ? { headers: RETRY_AFTER } : {}),
    }
  }
  const request: NonNullable<RouteConfig['request']> = {}
  // Required when the server refuses an empty body (readBody reads none as `{}`).
  if (endpoint.body) request.body = { content: json(endpoint.body), required: !endpoint.body.safeParse({}).success }
  if (endpoint.upload) {
    const file = z.string().meta({
      type: 'string',
      format: 'binary',
      description: endpoint.uploadDescription ?? 'The image file (JPEG, PNG, WebP, AVIF or GIF)',
    })
    request.body = { content: { 'multipart/form-data': { schema: z.object({ [endpoint.upload]: file }) } }, required: true }
  }
  if (endpoint.query) request.query = endpoint.query
  if (endpoint.params) request.params = endpoint.params
  if (endpoint.headers) request.headers = endpoint.headers
  const signedIn: Record<string, string[]>[] = [{ bearer: [] }, { cookie: [] }]
  const security = endpoint.access === 'public' ? [] : endpoint.access === 'cart' ? [...signedIn, { guestCart: [] }] : signedIn
  return createRoute({
    method: endpoint.method,
    path: endpoint.path,
    summary: endpoint.summary,
    ...(endpoint.description ? { description: endpoint.description } : {}),
    tags: [tag],
    security,
    request,
    responses,
  })
}

/** A guard or a handler of a route: what Hono's `on()` takes (the context of any env, so guards with their own env fit). */
export type RouteStep = (c: Context, next: Next) => Response | void | Promise<Response | void>

/** The handler of a route declaring a body: called with the body as read and parsed by the declared schema. */
export type BodyHandler<B> = (c: Context, body: B) => Response | Promise<Response>

/** The steps of a route: guards, then the handler, which takes the body when the declaration names one. */
export type RouteSteps<B> = [...RouteStep[], B extends z.ZodType ? BodyHandler<z.output<B>> : RouteStep]

/** A module's router: declare each endpoint with `endpoint()`, mount it with `app.route(prefix, router)`. */
export function apiRouter(tag: string) {
  const router = new OpenAPIHono()
  return {
    router,
    /**
     * Declares `endpoint` in the document and mounts `handlers` (guards first, the handler last) on
     * its method and path. With a `body`, the last handler is called with it, read after the guards
     * (so a 401, 403 or 429 of a guard comes before any body error).
     */
    endpoint<B extends z.ZodType | undefined = undefined>(endpoint: Endpoint & { body?: B }, ...handlers: RouteSteps<B>) {
      router.openAPIRegistry.registerPath(routeOf(endpoint, tag))
      // The document writes a path parameter as `{id}` (OpenAPI 3.1, "Path Templating"), Hono as `:id`.
      const path = endpoint.path.replace(/\{(\w+)\}/g, ':$1')
      const body = endpoint.body
      const steps = [...handlers] as RouteStep[]
      if (body) {
        const handler = steps.pop() as unknown as BodyHandler<unknown>
        steps.push(async (c) => handler(c, await readBody(c, body)))
      }
      router.on(endpoint.method.toUpperCase(), path, ...(steps as [MiddlewareHandler]))
    },
  }
}

/** Name of the component holding any JSON value whose texts and field names are safe text. */
const SAFE_JSON = 'SafeJson'
const SAFE_JSON_REF = { $ref: `#/components/schemas/${SAFE_JSON}` }

/**
 * `document` with the text rule every JSON body passes (api/lib/safe-text.ts: no control character but
 * tab and line breaks, in values and in field names) written into its request bodies: each string
 * schema without a pattern, enum or const gets {@link SAFE_TEXT_PATTERN}, each map its
 * `propertyNames`, and a field of any value (`{}`, the original client's ignored totals, the extra keys
 * of a `{ _id }` reference) the `SafeJson` component. The rules of single fields are in their schemas
 * (contract/fields.ts). Returns the same object, changed.
 */
export function withBodyTextRule<T extends { paths?: unknown; components?: unknown }>(document: T): T {
  const isAnything = (node: unknown) =>
    node === true || (!!node && typeof node === 'object' && !Array.isArray(node) && Object.keys(node).length === 0)
  const visit = (node: unknown): void => {
    if (!node || typeof node !== 'object') return
    if (Array.isArray(node)) return node.forEach(visit)
    const schema = node as Record<string, unknown>
    const types = ([] as unknown[]).concat(schema.type ?? [])
    if (types.includes('string') && !('pattern' in schema) && !('enum' in schema) && !('const' in schema))
      schema.pattern = SAFE_TEXT_PATTERN
    if (isAnything(schema.additionalProperties)) schema.additionalProperties = SAFE_JSON_REF
    if (schema.additionalProperties && typeof schema.additionalProperties === 'object' && !schema.propertyNames)
      schema.propertyNames = { pattern: SAFE_TEXT_PATTERN }
    const properties = schema.properties as Record<string, unknown> | undefined
    for (const [name, child] of Object.entries(properties ?? {})) {
      if (isAnything(child)) properties![name] = SAFE_JSON_REF
      else visit(child)
    }
    for (const key of ['items', 'anyOf', 'oneOf', 'allOf', 'additionalProperties'] as const) visit(schema[key])
  }
  for (const item of Object.values(
    (document.paths ?? {}) as Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: unknown }> } }>>,
  )) {
    for (const operation of Object.values(item)) {
      const json = operation?.requestBody?.content?.['application/json']
      if (json?.schema) visit(json.schema)
    }
  }
  const components = ((document as { components?: Record<string, unknown> }).components ??= {})
  const schemas = ((components.schemas as Record<string, unknown> | undefined) ??= {}) as Record<string, unknown>
  components.schemas = schemas
  schemas[SAFE_JSON] = {
    description: 'Any JSON value whose texts and field names hold no control character but tab and line breaks',
    anyOf: [
      { type: 'string', pattern: SAFE_TEXT_PATTERN },
      { type: ['number', 'boolean', 'null'] },
      { type: 'array', items: SAFE_JSON_REF },
      { type: 'object', propertyNames: { pattern: SAFE_TEXT_PATTERN }, additionalProperties: SAFE_JSON_REF },
    ],
  }
  return document
}

/** Base information of the document (docs/api.md). */
export const DOCUMENT_INFO = {
  openapi: '3.1.0',
  info: {
    title: 'Grocery storefront API',
    version: '1.0.0',
    description:
      'The upstream REST API of the grocery storefront (docs/api-contract.md, "Endpoints"; docs/commerce-api.md, "Cart" and "Orders"). Every answer is the envelope ' +
      '`{ message, error, success, data }`; failures carry `issues` on a 400 and `Retry-After` on a 429 or 503.',
  },
} as const

/** Registers the security schemes the routes name: a Bearer access token, the `accessToken` cookie, and a guest cart id. */
export function registerSecuritySchemes(app: OpenAPIHono): void {
  app.openAPIRegistry.registerComponent('securitySchemes', 'bearer', { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' })
  app.openAPIRegistry.registerComponent('securitySchemes', 'cookie', { type: 'apiKey', in: 'cookie', name: 'accessToken' })
  app.openAPIRegistry.registerComponent('securitySchemes', 'guestCart', { type: 'apiKey', in: 'header', name: 'X-Guest-Cart' })
}

/**
 * Middleware for tests: checks every JSON answer of a declared route against the schema declared for
 * its status. A mismatch replaces the answer with a 500 whose message names the route and the field,
 * so a test of any endpoint also proves that the API answers what contract/ says.
 * @param app the top-level app whose registry holds every route with its full path
 */
export function checkAnswers(app: OpenAPIHono): MiddlewareHandler {
  let declared: Map<string, RouteConfig> | null = null
  return async (c, next) => {
    await next()
    declared ??= new Map(
      app.openAPIRegistry.definitions.flatMap((d) =>
        d.type === 'route' ? [[`${d.route.method.toUpperCase()} ${d.route.path}`, d.route] as const] : [],
      ),
    )
    const route = matchedRoutes(c)
      .map((r) => declared!.get(`${c.req.method} ${r.path}`))
      .findLast(Boolean)
    if (!route || !(c.res.headers.get('content-type') ?? '').includes('application/json')) return
    const answer = route.responses[String(c.res.status)]
    const media = answer && 'content' in answer ? answer.content?.['application/json'] : undefined
    const schema = media && 'schema' in media ? media.schema : undefined
    const where = `${c.req.method} ${route.path} answered ${c.res.status}`
    let problem: string | null = null
    if (!(schema instanceof z.ZodType)) problem = `${where}, which its declaration does not list`
    else {
      const parsed = schema.safeParse(await c.res.clone().json())
      const issue = parsed.error?.issues[0]
      if (issue) problem = `${where} off contract/: ${issue.path.join('.') || 'body'}: ${issue.message}`
    }
    if (problem) c.res = new Response(JSON.stringify({ message: problem, error: true, success: false }), { status: 500 })
  }
}
