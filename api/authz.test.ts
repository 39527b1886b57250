/**
 * The authorization matrix of the catalogue writes (docs/product.md, "Roles and permissions";
 * docs/api-contract.md, "Differences from the original contract": every catalogue write and upload
 * requires the ADMIN role on the server). For EVERY admin endpoint of the API:
 *
 *   visitor (no token) → 401 · a bad, forged or expired token → 401 · shopper (USER) → 403 ·
 *   a USER whose token claims ADMIN → 403 (the row's role decides) · an admin no longer Active → 403 ·
 *   staff (STAFF) → 403 except on the stock (docs/product.md, "Roles and permissions") · admin → success
 *
 * and on every refusal nothing was written: every catalogue row, the images table, the upload
 * folder and the audit trail are unchanged; every admin change adds its audit entry (docs/product.md,
 * "Audit trail"), in the change's own transaction: when the entry cannot be written, nothing is.
 * Runs on PGlite, or PostgreSQL with TEST_DATABASE_URL.
 */
import { decodeJwt } from 'jose'
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryRows } from './db/query.ts'
import { products, users } from './db/schema.ts'
import { signAccessToken } from './lib/tokens.ts'
import { createTestApp, type TestApp } from './testing/app.ts'
import { createAdmin, createShopper, createStaff, type SignedIn } from './testing/auth.ts'
import {
  catalogSnapshot,
  insertCategory,
  insertProduct,
  insertSubCategory,
  storedFiles,
  storeTestImage,
  testPng,
} from './testing/fixtures.ts'

let t: TestApp
let admin: SignedIn
let shopper: SignedIn
let staff: SignedIn
let suspendedAdmin: SignedIn
/** A shopper's id in a token signed with our secret that claims the ADMIN role. */
let liarToken: string
let forgedToken: string
let expiredToken: string

beforeAll(async () => {
  t = await createTestApp()
  admin = await createAdmin(t)
  shopper = await createShopper(t)
  staff = await createStaff(t)
  suspendedAdmin = await createAdmin(t)
  await t.db.update(users).set({ status: 'Suspended' }).where(eq(users.id, suspendedAdmin.user.id))
  // Live sessions of their users, so that only the property under test (role, secret, expiry) differs.
  const shopperSession = decodeJwt(shopper.token).sid as string
  const adminSession = decodeJwt(admin.token).sid as string
  liarToken = await signAccessToken({ userId: shopper.user.id, role: 'ADMIN', sessionId: shopperSession }, t.deps.jwtSecret, t.deps.clock())
  forgedToken = await signAccessToken(
    { userId: admin.user.id, role: 'ADMIN', sessionId: adminSession },
    'another-secret-0123456789-abcdefghij',
    t.deps.clock(),
  )
  expiredToken = await signAccessToken(
    { userId: admin.user.id, role: 'ADMIN', sessionId: adminSession },
    t.deps.jwtSecret,
    new Date(Date.now() - 60 * 60 * 1000),
  )
})
afterAll(() => t?.close())

/** One request to an admin endpoint: a JSON body or a multipart form. */
type AdminRequest = { json?: unknown; form?: () => FormData }

interface AdminEndpoint {
  method: 'POST' | 'PUT' | 'DELETE'
  path: string
  /** The query string the call sends (`?storeId=…`), not part of the route. */
  query?: string
  /** Makes what a successful call needs (rows, a stored image) and returns the request. */
  prepare(): Promise<AdminRequest>
  /** Status of the admin's successful call. */
  success: number
  /** A STAFF member may call it too (the stores' stock). */
  staffAllowed?: boolean
  /** False for calls that change nothing an admin sees as a change (an upload, an import's dry run): no audit entry. */
  audited?: boolean
}

/** How many audit entries there are. */
async function auditCount(): Promise<number> {
  const [row] = await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from audit_log`)
  return row!.n
}

/** A category, sub category and product made for one case; images are real stored files. */
async function catalogue(tag: string) {
  const image = await storeTestImage(t)
  const category = await insertCategory(t.db, { name: `Category ${tag}`, image })
  const subCategory = await insertSubCategory(t.db, { name: `Sub category ${tag}`, image, categoryIds: [category.id] })
  return { image, category, subCategory }
}

const ENDPOINTS: AdminEndpoint[] = [
  {
    method: 'POST',
    path: 'file/upload',
    success: 201,
    audited: false,
    async prepare() {
      const png = await testPng()
      return {
        form: () => {
          const form = new FormData()
          form.append('image', new File([new Uint8Array(png)], 'photo.png', { type: 'image/png' }))
          return form
        },
      }
    },
  },
  {
    method: 'POST',
    path: 'category/add-category',
    success: 201,
    prepare: async () => ({ json: { name: 'Authz New Category', image: await storeTestImage(t) } }),
  },
  {
    method: 'PUT',
    path: 'category/update',
    success: 200,
    async prepare() {
      const { category } = await catalogue('to rename')
      return { json: { _id: category.id, name: 'Renamed Category', image: await storeTestImage(t) } }
    },
  },
  {
    method: 'DELETE',
    path: 'category/delete',
    success: 200,
    async prepare() {
      const category = await insertCategory(t.db, { name: 'Unused Category', image: await storeTestImage(t) })
      return { json: { _id: category.id } }
    },
  },
  {
    method: 'POST',
    path: 'subcategory/create',
    success: 201,
    async prepare() {
      const { category, image } = await catalogue('for a new sub category')
      return { json: { name: 'Authz New Sub Category', image, category: [{ _id: category.id, name: category.name }] } }
    },
  },
  {
    method: 'PUT',
    path: 'subcategory/update',
    success: 200,
    async prepare() {
      const { category, subCategory, image } = await catalogue('sub category to rename')
      return { json: { _id: subCategory.id, name: 'Renamed Sub Category', image, category: [category.id] } }
    },
  },
  {
    method: 'DELETE',
    path: 'subcategory/delete',
    success: 200,
    async prepare() {
      const { subCategory } = await catalogue('sub category to delete')
      return { json: { _id: subCategory.id } }
    },
  },
  {
    method: 'POST',
    path: 'product/create',
    success: 201,
    async prepare() {
      const { category, subCategory, image } = await catalogue('for a new product')
      return {
        json: {
          name: 'Authz Paneer',
          image: [image],
          category: [category.id],
          subCategory: [subCategory.id],
          unit: '200 g',
          stock: '10',
          price: '95',
          discount: '5',
          description: 'Fresh.',
          more_details: { Brand: 'Amul' },
        },
      }
    },
  },
  {
    method: 'PUT',
    path: 'product/update-product-details',
    success: 200,
    async prepare() {
      const { category, image } = await catalogue('product to edit')
      const product = await insertProduct(t.db, { name: 'Editable', image: [image], categoryIds: [category.id], price: 50 })
      return { json: { _id: product.id, price: 1, stock: 0 } }
    },
  },
  {
    method: 'DELETE',
    path: 'product/delete-product',
    success: 200,
    async prepare() {
      const { category, image } = await catalogue('product to delete')
      const product = await insertProduct(t.db, { name: 'Deletable', image: [image], categoryIds: [category.id] })
      return { json: { _id: product.id } }
    },
  },
  {
    method: 'POST',
    path: 'product/import',
    success: 200,
    audited: false,
    async prepare() {
      const { category, image } = await catalogue('for an import check')
      const csv = `sku,name,unit,mrp,categories,images,description\nAUTHZ-1,Imported,1 pc,10,${category.name},${image},x\n`
      return { form: () => csvForm(csv) }
    },
  },
  {
    method: 'POST',
    path: 'product/import/apply',
    success: 200,
    async prepare() {
      const { category, image } = await catalogue('for an import')
      const csv = `sku,name,unit,mrp,categories,images,description\nAUTHZ-2,Imported,1 pc,10,${category.name},${image},x\n`
      const checked = await t.call('product/import', { method: 'POST', body: csvForm(csv), token: admin.token })
      return { json: { upload: checked.body.data.upload } }
    },
  },
  {
    method: 'POST',
    path: 'product/bulk-update',
    success: 200,
    async prepare() {
      const { category, image } = await catalogue('for a bulk edit')
      const product = await insertProduct(t.db, { name: 'Bulk', image: [image], categoryIds: [category.id], price: 50, stock: 3 })
      return { json: { items: [{ _id: product.id, stock: 4 }] } }
    },
  },
  {
    method: 'POST',
    path: 'store/create',
    success: 201,
    async prepare() {
      return { json: { name: 'Domlur', area: 'Domlur', city: 'Bengaluru', addressLine: '1, Domlur Layout', pincode: '560071' } }
    },
  },
  {
    method: 'PUT',
    path: 'store/update',
    success: 200,
    async prepare() {
      return { json: { _id: 'storeMumAndheriEast', pickers: 7 } }
    },
  },
  {
    method: 'PUT',
    path: 'inventory/update',
    success: 200,
    staffAllowed: true,
    async prepare() {
      const product = await insertProduct(t.db, { name: 'Stocked', price: 50, stock: 3 })
      return { json: { rows: [{ storeId: 'storeMumAndheriEast', productId: product.id, stock: 11 }] } }
    },
  },
  {
    method: 'POST',
    path: 'inventory/import/apply',
    query: '?storeId=storeMumAndheriEast',
    success: 200,
    staffAllowed: true,
    async prepare() {
      const sku = await skuProduct()
      return { form: () => csvForm(`sku,stock\n${sku},13\n`) }
    },
  },
]

let skuSeq = 0
/** A new product with a SKU of its own (the stock import's rows name products by SKU). */
async function skuProduct(): Promise<string> {
  const product = await insertProduct(t.db, { name: `Stock CSV ${++skuSeq}`, price: 50, stock: 3 })
  const sku = `AUTHZ-STOCK-${skuSeq}`
  await t.db.update(products).set({ sku }).where(eq(products.id, product.id))
  return sku
}

/** A multipart body with `csv` as the file of field `file` (the import's upload). */
function csvForm(csv: string): FormData {
  const form = new FormData()
  form.append('file', new File([csv], 'products.csv', { type: 'text/csv' }))
  return form
}

function send(endpoint: AdminEndpoint, request: AdminRequest, token: string | undefined, headers?: Record<string, string>) {
  return t.call(`${endpoint.path}${endpoint.query ?? ''}`, {
    method: endpoint.method,
    json: request.json,
    body: request.form?.(),
    token,
    headers,
  })
}

it('uses tokens that are otherwise valid: the shopper and the lying token are signed in (so 403 means "not admin")', async () => {
  expect((await t.call('user/user-details', { token: shopper.token })).status).toBe(200)
  expect((await t.call('user/user-details', { token: liarToken })).body.data).toMatchObject({ _id: shopper.user.id, role: 'USER' })
  expect((await t.call('user/user-details', { token: admin.token })).body.data).toMatchObject({ role: 'ADMIN' })
})

describe.each(ENDPOINTS.map((e) => [`${e.method} /api/${e.path}`, e] as const))('%s', (_route, endpoint) => {
  it.runIf(endpoint.audited !== false)(
    'is undone when its audit entry cannot be written: the change and its entry are one transaction',
    async () => {
      // First of the endpoint's cases: its request then still changes something (a fresh name, a new value).
      const request = await endpoint.prepare()
      const rowsBefore = await catalogSnapshot(t.db)
      await t.db.execute(sql`alter table audit_log rename to audit_log_away`)
      try {
        const res = await send(endpoint, request, admin.token)
        expect(res.status, JSON.stringify(res.body)).toBeGreaterThanOrEqual(500)
      } finally {
        await t.db.execute(sql`alter table audit_log_away rename to audit_log`)
      }
      expect(await catalogSnapshot(t.db)).toEqual(rowsBefore)
    },
  )

  it('refuses visitors, bad tokens and non-admins (401/403) writing nothing, and lets an admin through', async () => {
    const request = await endpoint.prepare()
    const rowsBefore = await catalogSnapshot(t.db)
    const filesBefore = storedFiles(t.tmpDir)
    const invalidations = { before: 0 }
    const invalidate = t.deps.cache.invalidate
    t.deps.cache.invalidate = () => {
      invalidations.before++
      invalidate()
    }
    try {
      const refusals: [string, string | undefined, number, Record<string, string>?][] = [
        ['a visitor (no token)', undefined, 401],
        ['a junk token', 'not-a-jwt', 401],
        ['a token signed with another secret', forgedToken, 401],
        ['an expired admin token', expiredToken, 401],
        ['a refresh-style cookie only', undefined, 401, { Cookie: 'refreshToken=whatever' }],
        ['a shopper', shopper.token, 403],
        ['a shopper whose token claims ADMIN', liarToken, 403],
        ['a suspended admin', suspendedAdmin.token, 403],
        ...(endpoint.staffAllowed ? [] : [['a staff member', staff.token, 403] as [string, string, number]]),
      ]
      const auditBefore = await auditCount()
      for (const [who, token, status, headers] of refusals) {
        const res = await send(endpoint, request, token, headers)
        expect(res.status, who).toBe(status)
        expect(res.body, who).toMatchObject({ success: false, error: true, message: expect.any(String) })
      }
      expect(await catalogSnapshot(t.db)).toEqual(rowsBefore)
      expect(storedFiles(t.tmpDir)).toEqual(filesBefore)
      expect(await auditCount()).toBe(auditBefore)
      // A refused request leaves the storefront's cache alone too.
      expect(invalidations.before).toBe(0)
    } finally {
      t.deps.cache.invalidate = invalidate
    }

    // The admin's token also works as the accessToken cookie (docs/api-contract.md, "Authentication").
    const auditBefore = await auditCount()
    const res = await send(endpoint, request, undefined, { Cookie: `accessToken=${admin.token}`, Origin: 'http://localhost' })
    expect(res.status, JSON.stringify(res.body)).toBe(endpoint.success)
    expect(await auditCount()).toBe(auditBefore + (endpoint.audited === false ? 0 : 1))
    expect(res.body).toMatchObject({ success: true, error: false })
    // The same request did write once allowed (an upload adds an images row), so the refusals above
    // were refusals, not a request that could not have written anything anyway.
    expect(await catalogSnapshot(t.db)).not.toEqual(rowsBefore)
  })

  it('answers 401, not 400, to a visitor sending a bad body (the guard comes first)', async () => {
    const res = await t.call(endpoint.path, { method: endpoint.method, json: { name: { $ne: null } } })
    expect(res.status).toBe(401)
    const asShopper = await t.call(endpoint.path, { method: endpoint.method, json: { name: { $ne: null } }, token: shopper.token })
    expect(asShopper.status).toBe(403)
  })
})

it('covers every admin route the API has', () => {
  const covered = new Set(ENDPOINTS.map((e) => `${e.method} /api/${e.path}`))
  const writes = t.app.routes
    .filter((r) => ['POST', 'PUT', 'DELETE', 'PATCH'].includes(r.method))
    .map((r) => `${r.method} ${r.path}`)
    .filter((route) => /^(POST|PUT|DELETE|PATCH) \/api\/(category|subcategory|product|file|store|inventory)\//.test(route))
    // The admin's stock reads and product grid are sent with POST, like the catalogue's (the grid's
    // 401/403: api/modules/product/admin-list.test.ts; the stock CSV's dry run, which writes nothing:
    // api/modules/inventory/stock-csv.test.ts). The import jobs' starts write only the job, never the
    // catalogue in the request (their 401/403: api/modules/product/import-jobs.test.ts).
    .filter(
      (route) =>
        ![
          'POST /api/inventory/list',
          'POST /api/inventory/product',
          'POST /api/product/admin-list',
          'POST /api/inventory/import',
          'POST /api/product/import/jobs',
          'POST /api/product/import/jobs/:jobId/apply',
        ].includes(route),
    )
    // The catalogue's reads called with POST (docs/api-contract.md, "Endpoints") are open to everyone.
    .filter(
      (route) =>
        !/\/(get|get-product-by-category|get-product-by-category-and-subcategory|get-pruduct-by-category-and-subcategory|get-product-details|search-product|similar)$/.test(
          route,
        ),
    )
  expect(new Set(writes)).toEqual(covered)
})
