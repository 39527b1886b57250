/**
 * Routes of /api/coupon (ADMIN only; docs/offers.md, "Coupons"):
 *
 * - GET /api/coupon/list → every coupon, active first
 * - POST /api/coupon/create `{ code, kind, amount | percent, ... }` → 201 the coupon
 * - PUT /api/coupon/update `{ _id, ...fields, active? }` → the coupon
 */
import { z } from 'zod'
import type { AppDeps } from '../../deps.ts'
import { currentUser, requireAdmin } from '../../lib/auth.ts'
import { ok } from '../../lib/envelope.ts'
import { apiRouter } from '../../lib/openapi.ts'
import { CouponSchema, CreateCouponSchema, UpdateCouponSchema } from '../../../contract/coupon.ts'
import { createCoupon, listCoupons, updateCoupon } from './service.ts'

/** Builds the /api/coupon router. */
export function couponRoutes(deps: AppDeps) {
  const { router, endpoint } = apiRouter('Coupons')
  const admin = requireAdmin(deps)
  const couponDeps = (actor: string) => ({ db: deps.db, actor })

  endpoint(
    {
      method: 'get',
      path: '/list',
      summary: 'Every coupon, active first, then by code (ADMIN)',
      access: 'admin',
      answers: { 200: { description: 'The coupons', data: z.array(CouponSchema) } },
    },
    admin,
    async (c) => ok(c, 'Coupons', await listCoupons(deps.db)),
  )

  endpoint(
    {
      method: 'post',
      path: '/create',
      summary: 'Create an active coupon (ADMIN); amounts in whole rupees, times in IST',
      access: 'admin',
      body: CreateCouponSchema,
      answers: { 201: { description: 'The coupon', data: CouponSchema } },
      errors: [409],
    },
    admin,
    async (c, input) => ok(c, 'Coupon created', await createCoupon(couponDeps(currentUser(c).id), input), {}, 201),
  )

  endpoint(
    {
      method: 'put',
      path: '/update',
      summary: "Change a coupon's fields or switch it on or off (ADMIN); null clears an optional field",
      access: 'admin',
      body: UpdateCouponSchema,
      answers: { 200: { description: 'The coupon', data: CouponSchema } },
      errors: [404],
    },
    admin,
    async (c, input) => ok(c, 'Coupon saved', await updateCoupon(couponDeps(currentUser(c).id), input)),
  )

  return router
}
