/**
 * /rider/position (RIDER; docs/delivery.md, "Live tracking"): where the rider's page sends its
 * position, with JavaScript only (app/components/position-sharer.tsx submits it through a fetcher:
 * the browser never calls the API itself). A resource route: POST only, answered with JSON
 * `{ ok, stored }` or `{ ok: false, message }` with the API's status (403 not a rider, 404 not its
 * order, 409 not out for delivery, 400 a bad body). Each `orderId` of the form (a batch of two may be
 * out at once) gets the same point; the API keeps one per order every 5 s.
 */
import { data } from 'react-router'
import type { Route } from './+types/position'
import { requireUser } from '../../.server/auth.ts'
import { apiOf } from '../../.server/api-context.ts'
import { getSession } from '../../.server/context.ts'
import { readText, tryReadForm } from '../../.server/form.ts'
import { sendPosition } from '../../.server/api/tracking.ts'
import { RiderPositionSchema } from '../../../contract/tracking.ts'

/** A point and up to two order ids: 4 KiB is plenty. */
const FORM_MAX_BYTES = 4 * 1024
/** Orders one report may name: the largest batch (DISPATCH_BATCH_SIZE 2). */
const ORDERS_MAX = 2

/** The number a field holds, or NaN (refused by the schema). */
const numberOf = (form: FormData, name: string) => {
  const text = readText(form, name)
  return text === '' ? Number.NaN : Number(text)
}

export async function action({ request, context, url }: Route.ActionArgs) {
  requireUser(context, url)
  const read = await tryReadForm(request, { multipartMaxBytes: FORM_MAX_BYTES })
  if (!read.ok) return data({ ok: false as const, message: read.message }, { status: 400 })
  const form = read.formData
  const orderIds = form
    .getAll('orderId')
    .filter((v): v is string => typeof v === 'string')
    .slice(0, ORDERS_MAX)
  const point = { lat: numberOf(form, 'lat'), lng: numberOf(form, 'lng'), accuracyM: numberOf(form, 'accuracyM') }
  if (orderIds.length === 0) return data({ ok: false as const, message: 'No order to share the position for' }, { status: 400 })
  let stored = false
  for (const orderId of orderIds) {
    const parsed = RiderPositionSchema.safeParse({ orderId, ...point })
    if (!parsed.success) return data({ ok: false as const, message: parsed.error.issues[0]?.message ?? 'Bad position' }, { status: 400 })
    const result = await sendPosition(apiOf(context), getSession(context), parsed.data)
    if (!result.ok) return data({ ok: false as const, message: result.message }, { status: result.status })
    stored ||= result.data.stored
  }
  return data({ ok: true as const, stored }, { headers: { 'Cache-Control': 'no-store' } })
}
