/**
 * Typed calls to the upstream coupon endpoints (docs/offers.md, "Coupons"): `coupon/list`,
 * `coupon/create` and `coupon/update`, ADMIN only (401 without a token, 403 for anyone else). Answers
 * are parsed with contract/coupon.ts, so an answer off contract becomes a 502 failure; failures come
 * back as `{ ok: false }`, never thrown.
 */
import { z } from 'zod'
import type { RequestSession } from '../session.ts'
import { parseData, upstream, type UpstreamResult } from '../upstream.ts'
import { CouponSchema, type Coupon, type CreateCouponInput, type UpdateCouponInput } from '../../../contract/coupon.ts'
import type { Api } from '../api-context.ts'

export type { Coupon } from '../../../contract/coupon.ts'

/** `GET /api/coupon/list`: every coupon, active first. */
export async function listCoupons(api: Api, session: RequestSession): Promise<UpstreamResult<Coupon[]>> {
  return parseData(await upstream(api, 'coupon/list', { session }), z.array(CouponSchema))
}

/** `POST /api/coupon/create`: the new coupon. Failures: 400 field issues, 409 a code already taken. */
export async function createCoupon(api: Api, session: RequestSession, input: CreateCouponInput): Promise<UpstreamResult<Coupon>> {
  return parseData(await upstream(api, 'coupon/create', { method: 'POST', json: input, session }), CouponSchema)
}

/** `PUT /api/coupon/update` `{ _id, ...fields, active? }`: the coupon as changed. Failures: 400, 404. */
export async function updateCoupon(api: Api, session: RequestSession, input: UpdateCouponInput): Promise<UpstreamResult<Coupon>> {
  return parseData(await upstream(api, 'coupon/update', { method: 'PUT', json: input, session }), CouponSchema)
}
