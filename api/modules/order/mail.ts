/**
 * The order emails (docs/jobs.md, "Order emails"; docs/product.md, "Order page"), sent by the job
 * runner from the `order.mail` jobs the order service writes in the same transaction as the order or
 * its status change (api/modules/order/service.ts). Each job names the order (and, for a status
 * change, the status it moved to); the mail is written when it is sent, from the order as stored.
 *
 * A mail server that refuses or times out makes `sendOrderMail` throw: the job is retried with backoff
 * (api/lib/jobs/definitions.ts, `order.mail`). The order itself never waits for mail.
 *
 * Jobs run at least once (docs/jobs.md, "Order emails"): each mail carries a stable `Message-ID` of
 * its order, event and version (RFC 5322 §3.6.4), recorded in `sent_mails` right after the send and
 * before the job is acknowledged; a job run again finds it there and sends nothing.
 */
import { and, desc, eq } from 'drizzle-orm'
import type { AppDeps } from '../../deps.ts'
import { orderStatusHistory, sentMails, users } from '../../db/schema.ts'
import type { MailMessage } from '../../lib/mail.ts'
import type { OrderMailJob } from '../../lib/jobs/definitions.ts'
import { orderWithCustomer } from './service.ts'
import type { Order } from '../../../contract/order.ts'
import type { OrderStatus } from '../../../contract/order-status.ts'
import { addressOneLine } from '../../../contract/address.ts'
import { statusWords } from './status.ts'
import { failedDeliveryMoneyWords } from '../../../contract/delivery-failure.ts'

type OrderMailDeps = Pick<AppDeps, 'db' | 'commerce' | 'mailer' | 'sms' | 'logger'> & Partial<Pick<AppDeps, 'publicUrl'>>

/** `n` rupees as the email writes them: ₹256 for whole rupees, ₹255.81 otherwise (as the pages do). */
const rupees = (n: number) => `₹${Number.isInteger(n) ? String(n) : n.toFixed(2)}`

/** The rounding off line of an email: "+₹0.19" or "−₹0.31". */
const signedRupees = (n: number) => `${n < 0 ? '−' : '+'}${rupees(Math.abs(n))}`

/** `s` with the five HTML-special characters escaped (OWASP XSS Prevention Cheat Sheet, rule 1). */
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`)

/**
 * The text of the order confirmation email: the lines, the bill (with the rounding off when the cash
 * to collect was rounded) and the address.
 */
function confirmationText(name: string, order: Order): string {
  const lines = order.items.map((l) => `${l.quantity} × ${l.name}${l.unit ? ` (${l.unit})` : ''}: ${rupees(l.lineTotal)}`)
  const a = order.delivery_address
  return [
    `Hi ${name},`,
    '',
    `Thank you for your order ${order.orderId}. It is on its way: expect it in about ${order.promisedMinutes ?? 10} minutes.`,
    '',
    ...lines,
    '',
    `Items total: ${rupees(order.bill.itemsTotal)}`,
    // The coupon's discount (docs/offers.md, "At placement"), so the lines add up to what is paid.
    ...(order.bill.couponCode && order.bill.couponDiscount
      ? [`Coupon (${order.bill.couponCode}): −${rupees(order.bill.couponDiscount)}`]
      : []),
    `Delivery: ${order.bill.deliveryCharge === 0 ? 'FREE' : rupees(order.bill.deliveryCharge)}`,
    // The named fees (docs/commerce-api.md, "Fees"): part of what is paid, each by name.
    ...(order.bill.handlingCharge ? [`Handling charge: ${rupees(order.bill.handlingCharge)}`] : []),
    ...(order.bill.smallCartFee ? [`Small cart fee: ${rupees(order.bill.smallCartFee)}`] : []),
    ...(order.bill.lateNightFee ? [`Late night fee: ${rupees(order.bill.lateNightFee)}`] : []),
    // The tip (docs/commerce-api.md, "Tip and delivery instructions"): part of what is paid.
    ...(order.bill.tip ? [`Delivery partner tip: ${rupees(order.bill.tip)}`] : []),
    ...(order.bill.roundingOff !== 0 ? [`Rounding off: ${signedRupees(order.bill.roundingOff)}`] : []),
    order.payment.state === 'cod'
      ? `To pay on delivery (cash): ${rupees(order.totalAmt)}`
      : `Paid online (${order.payment.method.toUpperCase()}): ${rupees(order.totalAmt)}`,
    '',
    `Delivering to: ${a.label ? `${a.label}, ` : ''}${addressOneLine(a)}`,
  ].join('\n')
}

/** The link to an order's page in mail: absolute on PUBLIC_URL, else the path alone (no origin is known). */
export function orderPageLink(publicUrl: string | undefined, orderId: string): string {
  return `${publicUrl ?? ''}/dashboard/myorder/${encodeURIComponent(orderId)}`
}

/** The confirmation of a placed order (cash on delivery) or of a paid one (online), to its customer. */
function placedMail(order: Order, customer: { name: string; email: string }): MailMessage {
  const text = confirmationText(customer.name, order)
  const html = `<p>${text.split('\n').map(escapeHtml).join('<br>')}</p>`
  const subject = order.payment.state === 'cod' ? `Order ${order.orderId} placed` : `Order ${order.orderId} paid`
  return { to: customer.email, subject, text, html }
}

/** The first line of a status mail or SMS: "is packed", or "could not be delivered" for a failed delivery. */
const statusSentence = (orderNumber: string, status: string) =>
  status === 'delivery_failed' ? `Your order ${orderNumber} could not be delivered` : `Your order ${orderNumber} is ${statusWords(status)}`

/**
 * "Your order <number> is <status>" (and a cancelled order's reason), with a link to the order page;
 * for a failed delivery "could not be delivered", its reason and what happens to the money.
 */
function statusMail(order: Order, customer: { name: string; email: string }, status: string, publicUrl: string | undefined): MailMessage {
  const sentence = statusSentence(order.orderId, status)
  const link = orderPageLink(publicUrl, order._id)
  const reason =
    status === 'cancelled' && order.cancelReason
      ? `Reason: ${order.cancelReason}`
      : status === 'delivery_failed' && order.deliveryFailure
        ? `Reason: ${order.deliveryFailure.text}`
        : null
  const money = status === 'delivery_failed' ? failedDeliveryMoneyWords(order) : null
  const extra = [...(reason ? [reason] : []), ...(money ? [money] : [])]
  const text = [`Hi ${customer.name},`, '', `${sentence}.`, ...extra, '', `See your order: ${link}`].join('\n')
  const html =
    `<p>Hi ${escapeHtml(customer.name)},</p><p>${escapeHtml(sentence)}.</p>` +
    extra.map((line) => `<p>${escapeHtml(line)}</p>`).join('') +
    `<p><a href="${escapeHtml(link)}">See your order</a></p>`
  return { to: customer.email, subject: sentence, text, html }
}

/** The host part of the order mails' Message-IDs: PUBLIC_URL's host, else `grocery.localhost`. */
function messageIdHost(publicUrl: string | undefined): string {
  try {
    return publicUrl ? new URL(publicUrl).hostname : 'grocery.localhost'
  } catch {
    return 'grocery.localhost'
  }
}

/**
 * The `Message-ID` of an order mail (RFC 5322 §3.6.4, `<left@right>`): the order, the event
 * (`placed`, `paid`, or `status-<status>`) and its version (when the order reached that status, ms
 * since 1970; 0 when no such step is recorded), so every run of one job writes the same id and two
 * different events never share one.
 */
export function orderMailMessageId(input: { orderId: string; event: string; version: number; publicUrl?: string }): string {
  return `<order.${input.orderId}.${input.event}.v${input.version}@${messageIdHost(input.publicUrl)}>`
}

/** When `orderId` last reached `status` (ms), from its status history; 0 when it never did. */
async function reachedAt(deps: Pick<AppDeps, 'db'>, orderId: string, status: string): Promise<number> {
  const [step] = await deps.db
    .select({ at: orderStatusHistory.at })
    .from(orderStatusHistory)
    .where(and(eq(orderStatusHistory.orderId, orderId), eq(orderStatusHistory.status, status)))
    .orderBy(desc(orderStatusHistory.at))
    .limit(1)
  return step?.at.getTime() ?? 0
}

/**
 * The handler of an `order.mail` job: writes the email of `job` from the stored order and sends it
 * with its stable Message-ID, then records that id in `sent_mails`; a Message-ID already recorded
 * (the job ran before and was not acknowledged) sends nothing. An order gone since (nothing deletes
 * orders today) sends nothing. An account without an email (made by phone sign-in) gets no mail.
 * For a status change, a shopper who switched on order updates by SMS and has a verified mobile also
 * gets an SMS, after the mail and recorded the same way (`orderSmsKey`), so a retry sends neither twice.
 * @throws whatever the mailer or the SMS provider throws (the job is then retried), or a database
 *   error recording the send (the job is retried and the mail sent again with the same Message-ID:
 *   docs/jobs.md)
 */
export async function sendOrderMail(deps: OrderMailDeps, job: OrderMailJob): Promise<void> {
  const order = await orderWithCustomer(deps, job.orderId)
  if (!order?.customer) {
    deps.logger.warn({ orderId: job.orderId, kind: job.kind }, 'order email skipped: the order is gone')
    return
  }
  const status = job.kind === 'placed' ? 'placed' : job.status
  const event = job.kind === 'placed' ? (order.payment.state === 'cod' ? 'placed' : 'paid') : `status-${job.status}`
  const messageId = orderMailMessageId({
    orderId: order._id,
    event,
    version: await reachedAt(deps, order._id, status),
    publicUrl: deps.publicUrl,
  })
  if (!order.customer.email) {
    deps.logger.info({ orderId: order._id, kind: job.kind }, 'order email skipped: the account has no email')
  } else if (await wasSent(deps, messageId)) {
    deps.logger.info({ orderId: order._id, kind: job.kind }, 'order email already sent: not sent again')
  } else {
    const message =
      job.kind === 'placed' ? placedMail(order, order.customer) : statusMail(order, order.customer, job.status, deps.publicUrl)
    await deps.mailer.send({ ...message, messageId })
    await deps.db.insert(sentMails).values({ messageId }).onConflictDoNothing()
  }
  if (job.kind === 'status') await sendOrderSms(deps, order, job.status, messageId)
}

/** True when the mail or SMS of `key` was sent already (recorded in `sent_mails`). */
async function wasSent(deps: Pick<AppDeps, 'db'>, key: string): Promise<boolean> {
  const [done] = await deps.db.select({ id: sentMails.messageId }).from(sentMails).where(eq(sentMails.messageId, key))
  return Boolean(done)
}

/** The `sent_mails` key of the SMS of the order mail `messageId`: `<sms.order...>`. */
export const orderSmsKey = (messageId: string) => messageId.replace(/^<order\./, '<sms.order.')

/**
 * "Your order <number> is out for delivery." with the link to the order page: the status SMS ("could
 * not be delivered" for a failed delivery, whose page says why and what happens to the money).
 */
export function orderStatusSmsText(order: Pick<Order, '_id' | 'orderId'>, status: string, publicUrl: string | undefined): string {
  return `${statusSentence(order.orderId, status)}. See your order: ${orderPageLink(publicUrl, order._id)}`
}

/**
 * The status SMS of `order`, when its shopper has switched order updates by SMS on and has a verified
 * mobile; sent once per status step (recorded under `orderSmsKey(messageId)`).
 */
async function sendOrderSms(deps: OrderMailDeps, order: Order, status: OrderStatus, messageId: string): Promise<void> {
  const [shopper] = await deps.db
    .select({ mobile: users.mobile, verified: users.mobileVerified, wanted: users.smsOrderUpdates })
    .from(users)
    .where(eq(users.id, order.userId))
  if (!shopper?.mobile || !shopper.verified || !shopper.wanted) return
  const key = orderSmsKey(messageId)
  if (await wasSent(deps, key)) return
  await deps.sms.send({ to: shopper.mobile, text: orderStatusSmsText(order, status, deps.publicUrl), template: 'order-status' })
  await deps.db.insert(sentMails).values({ messageId: key }).onConflictDoNothing()
}
