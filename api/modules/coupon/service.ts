/**
 * Coupons as an admin manages them (docs/offers.md, "Coupons"): listed, created and changed (the
 * active switch included), each change one audit entry written in the change's own transaction
 * (api/lib/audit.ts). Amounts are whole rupees on the wire and integer paise in the database; the
 * validity window is typed in IST (Asia/Kolkata, UTC+05:30, no daylight saving) and kept as a
 * timestamp with time zone.
 */
import { asc, desc, eq } from 'drizzle-orm'
import type { AppDeps } from '../../deps.ts'
import type { Tx } from '../../db/db.ts'
import { categories, coupons, stores } from '../../db/schema.ts'
import { changedFields, recordAudit, type AuditValues } from '../../lib/audit.ts'
import { BadRequest, Conflict, NotFound } from '../../lib/errors.ts'
import { COUPON_MESSAGES, couponShapeIssues, type Coupon, type CreateCoupon, type UpdateCouponSchema } from '../../../contract/coupon.ts'
import type { z } from 'zod'

/** What the coupon services need: the database and the actor (the signed-in admin's id). */
export type CouponDeps = Pick<AppDeps, 'db'> & { actor: string | null }

type CouponRow = typeof coupons.$inferSelect

/** An IST datetime-local value ("2026-12-01T09:00") as the moment it names. */
export function istMinuteToDate(value: string): Date {
  return new Date(`${value}:00+05:30`)
}

/** A moment as the IST datetime-local value a form shows ("2026-12-01T09:00"). */
export function dateToIstMinute(at: Date): string {
  return new Date(at.getTime() + 330 * 60_000).toISOString().slice(0, 16)
}

const rupeesOrNull = (paise: number | null) => (paise === null ? null : paise / 100)

/** A row as answered (contract/coupon.ts `CouponSchema`). */
export function couponAnswer(row: CouponRow): Coupon {
  return {
    _id: row.id,
    code: row.code,
    description: row.description,
    kind: row.kind,
    amount: rupeesOrNull(row.amountPaise),
    percent: row.percent,
    maxDiscount: rupeesOrNull(row.maxDiscountPaise),
    minBasket: row.minBasketPaise / 100,
    startsAt: row.startsAt?.toISOString() ?? null,
    endsAt: row.endsAt?.toISOString() ?? null,
    firstOrderOnly: row.firstOrderOnly,
    perUserLimit: row.perUserLimit,
    totalLimit: row.totalLimit,
    storeId: row.storeId,
    categoryId: row.categoryId,
    active: row.active,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  }
}

/** The audited view of a coupon: its answer without the timestamps. */
function audited(row: CouponRow): AuditValues {
  const { createdAt: _c, updatedAt: _u, _id: _i, ...rest } = couponAnswer(row)
  return rest
}

/** Every coupon, active first, then by code. */
export async function listCoupons(db: AppDeps['db']): Promise<Coupon[]> {
  const rows = await db.select().from(coupons).orderBy(desc(coupons.active), asc(coupons.code))
  return rows.map(couponAnswer)
}

/** @throws 400 with the field's issue when the store or category named does not exist. */
async function checkScope(tx: Tx, scope: { storeId?: string | null; categoryId?: string | null }): Promise<void> {
  if (scope.storeId) {
    const [store] = await tx.select({ id: stores.id }).from(stores).where(eq(stores.id, scope.storeId))
    if (!store) throw BadRequest(COUPON_MESSAGES.unknownStore, [{ path: 'storeId', message: COUPON_MESSAGES.unknownStore }])
  }
  if (scope.categoryId) {
    const [category] = await tx.select({ id: categories.id }).from(categories).where(eq(categories.id, scope.categoryId))
    if (!category) throw BadRequest(COUPON_MESSAGES.unknownCategory, [{ path: 'categoryId', message: COUPON_MESSAGES.unknownCategory }])
  }
}

/** @throws 409 codeTaken when another coupon has `code`. */
async function checkCodeFree(tx: Tx, code: string): Promise<void> {
  const [other] = await tx.select({ id: coupons.id }).from(coupons).where(eq(coupons.code, code))
  if (other) throw Conflict(COUPON_MESSAGES.codeTaken)
}

/**
 * Creates an active coupon and audits it (`create`). A code already taken is 409 (the unique index
 * `coupons_code_key` decides between two creates at once: the loser's insert fails and is answered
 * the same way).
 * @throws 400 unknown store or category; 409 codeTaken
 */
export async function createCoupon(deps: CouponDeps, input: CreateCoupon): Promise<Coupon> {
  try {
    return await deps.db.transaction(async (tx) => {
      await checkCodeFree(tx, input.code)
      await checkScope(tx, input)
      const [row] = await tx
        .insert(coupons)
        .values({
          code: input.code,
          description: input.description,
          kind: input.kind,
          amountPaise: input.kind === 'flat' ? input.amount * 100 : null,
          percent: input.kind === 'percent' ? input.percent : null,
          maxDiscountPaise: input.kind === 'percent' && input.maxDiscount !== undefined ? input.maxDiscount * 100 : null,
          minBasketPaise: input.minBasket * 100,
          startsAt: input.startsAt ? istMinuteToDate(input.startsAt) : null,
          endsAt: input.endsAt ? istMinuteToDate(input.endsAt) : null,
          firstOrderOnly: input.firstOrderOnly,
          perUserLimit: input.perUserLimit ?? null,
          totalLimit: input.totalLimit ?? null,
          storeId: input.storeId ?? null,
          categoryId: input.categoryId ?? null,
        })
        .returning()
      await recordAudit(tx, {
        actor: deps.actor,
        action: 'create',
        entity: 'coupon',
        entityId: row!.id,
        before: null,
        after: audited(row!),
      })
      return couponAnswer(row!)
    })
  } catch (err) {
    // Two creates of one code at once: the unique index refuses the second (SQLSTATE 23505).
    if (
      (err as { code?: string; cause?: { code?: string } }).code === '23505' ||
      (err as { cause?: { code?: string } }).cause?.code === '23505'
    )
      throw Conflict(COUPON_MESSAGES.codeTaken)
    throw err
  }
}

/**
 * Changes a coupon (the row locked: two admins' changes apply one after the other) and audits the
 * fields that changed (`update`). `null` clears an optional field. The coupon as it would be is
 * checked again (a flat coupon keeps an amount, the window's end after its start); the kind and the
 * code never change (a new code is a new coupon, so orders keep naming what they used).
 * @throws 404 unknown coupon; 400 unknown store or category, or the coupon as changed is not whole
 */
export async function updateCoupon(deps: CouponDeps, input: z.output<typeof UpdateCouponSchema>): Promise<Coupon> {
  return deps.db.transaction(async (tx) => {
    const [row] = await tx.select().from(coupons).where(eq(coupons.id, input._id)).for('update')
    if (!row) throw NotFound(COUPON_MESSAGES.unknownCoupon)
    await checkScope(tx, input)
    const pick = <T>(value: T | undefined, was: T): T => (value === undefined ? was : value)
    const toPaise = (rupees: number | null | undefined, was: number | null) =>
      rupees === undefined ? was : rupees === null ? null : rupees * 100
    const toDate = (value: string | null | undefined, was: Date | null) =>
      value === undefined ? was : value === null ? null : istMinuteToDate(value)
    const next = {
      description: pick(input.description, row.description),
      amountPaise: row.kind === 'flat' ? toPaise(input.amount, row.amountPaise) : null,
      percent: row.kind === 'percent' ? pick(input.percent, row.percent) : null,
      maxDiscountPaise: row.kind === 'percent' ? toPaise(input.maxDiscount, row.maxDiscountPaise) : null,
      minBasketPaise: toPaise(input.minBasket, row.minBasketPaise)!,
      startsAt: toDate(input.startsAt, row.startsAt),
      endsAt: toDate(input.endsAt, row.endsAt),
      firstOrderOnly: pick(input.firstOrderOnly, row.firstOrderOnly),
      perUserLimit: pick(input.perUserLimit, row.perUserLimit),
      totalLimit: pick(input.totalLimit, row.totalLimit),
      storeId: pick(input.storeId, row.storeId),
      categoryId: pick(input.categoryId, row.categoryId),
      active: pick(input.active, row.active),
    }
    const issues = couponShapeIssues({
      kind: row.kind,
      amount: next.amountPaise,
      percent: next.percent,
      startsAt: next.startsAt?.toISOString() ?? null,
      endsAt: next.endsAt?.toISOString() ?? null,
    })
    if (issues.length > 0) throw BadRequest(issues[0]!.message, issues)
    const [updated] = await tx
      .update(coupons)
      .set({ ...next, version: row.version + 1 })
      .where(eq(coupons.id, row.id))
      .returning()
    const change = changedFields(audited(row), audited(updated!))
    await recordAudit(tx, { actor: deps.actor, action: 'update', entity: 'coupon', entityId: row.id, ...change })
    return couponAnswer(updated!)
  })
}
