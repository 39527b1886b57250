/**
 * The team (docs/product.md, "Staff"): admins and staff listed, invited, given another role or store,
 * deactivated and reactivated by an admin, each change an audit entry written in the change's own
 * transaction (docs/product.md, "Audit trail").
 *
 * Rules that keep an owner from locking the shop out (OWASP Authorization Cheat Sheet, "Enforce least
 * privilege" and its note on administrative lock-out):
 * - an admin cannot change their own role or deactivate themselves (another admin must);
 * - the last active admin can be neither demoted nor deactivated. Concurrent demotions are serialised
 *   by locking every active admin's row (`SELECT … FOR UPDATE`) before counting, so two admins
 *   demoting each other at once leave one admin, not none.
 *
 * Deactivating ends the member's sessions at once: every refresh token is revoked, so the access token
 * in hand is refused too (401, its session ended; api/lib/auth.ts), and a new sign-in gets 403 "Contact
 * to Admin" while the account is not Active.
 */
import { randomBytes } from 'node:crypto'
import { and, asc, eq, isNull, ne, sql } from 'drizzle-orm'
import type { AppDeps } from '../../deps.ts'
import type { Db } from '../../db/client.ts'
import { refreshTokens, riderShifts, stores, users } from '../../db/schema.ts'
import { recordAudit } from '../../lib/audit.ts'
import { BadRequest, Conflict, NotFound } from '../../lib/errors.ts'
import { escapeHtml, type MailMessage } from '../../lib/mail.ts'
import {
  type InviteStaffSchema,
  STAFF_MESSAGES,
  TEAM_ROLE_LABELS,
  type InviteAnswer,
  type StaffMember,
  type TeamRole,
  type UpdateStaffSchema,
} from '../../../contract/staff.ts'
import type { z } from 'zod'
import { createUser, findUserByEmail } from '../user/service.ts'
import { handBackRiderOrders } from '../dispatch/service.ts'

/** What the staff services need: the database, the actor (the signed-in admin's id), mail and the public origin for the invite's link. */
export type StaffDeps = Pick<AppDeps, 'db' | 'mailer' | 'logger' | 'publicUrl' | 'clock'> &
  Partial<Pick<AppDeps, 'dispatch' | 'commerce' | 'orderEvents'>> & { actor: string }

const memberColumns = {
  _id: users.id,
  name: users.name,
  email: users.email,
  mobile: users.mobile,
  role: users.role,
  status: users.status,
  storeId: users.storeId,
  storeName: stores.name,
  lastLoginDate: users.lastLoginDate,
  createdAt: users.createdAt,
}

type MemberRow = {
  _id: string
  name: string
  email: string | null
  mobile: string | null
  role: string
  status: StaffMember['status']
  storeId: string | null
  storeName: string | null
  lastLoginDate: Date | null
  createdAt: Date
}

function toMember(row: MemberRow): StaffMember {
  return {
    ...row,
    role: row.role as StaffMember['role'],
    lastLoginDate: row.lastLoginDate?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  }
}

/** Every admin and staff account, active or not: admins first, then by name (a team is tens of rows: no paging). */
export async function listTeam(db: Db): Promise<StaffMember[]> {
  const rows = await db
    .select(memberColumns)
    .from(users)
    .leftJoin(stores, eq(stores.id, users.storeId))
    .where(ne(users.role, 'USER'))
    .orderBy(asc(users.role), asc(sql`lower(${users.name})`), asc(users.id))
  return rows.map(toMember)
}

async function memberById(db: Db, id: string): Promise<StaffMember> {
  const [row] = await db.select(memberColumns).from(users).leftJoin(stores, eq(stores.id, users.storeId)).where(eq(users.id, id))
  if (!row) throw NotFound(STAFF_MESSAGES.unknownMember)
  return toMember(row)
}

/** @throws 400 (on `storeId`) when no store has the id */
async function assertStore(db: Db, storeId: string): Promise<void> {
  const [store] = await db.select({ id: stores.id }).from(stores).where(eq(stores.id, storeId))
  if (!store) throw BadRequest(STAFF_MESSAGES.unknownStore, [{ path: 'storeId', message: STAFF_MESSAGES.unknownStore }])
}

/**
 * Invites one person to the team (POST /api/staff/invite):
 * - an email that already has an account: that account gets the role and store (a shopper becomes
 *   staff; an inactive member is not reactivated here), and a mail says so;
 * - a new email: an account with a random password nobody is shown, and a mail saying how to set one
 *   ("Forgot password" on the sign-in page, which proves the address).
 * The role change or creation and its audit entry are one transaction; the mail is sent after it.
 * @throws 400 for an unknown store; 409 for the inviting admin's own email, or when demoting the last
 *   active admin; 409 EMAIL_TAKEN when a concurrent sign-up takes the email first
 */
export async function inviteStaff(deps: StaffDeps, input: z.output<typeof InviteStaffSchema>): Promise<InviteAnswer> {
  const { email, role, name } = input
  const storeId = input.role === 'STAFF' || input.role === 'RIDER' ? input.storeId : null
  if (storeId) await assertStore(deps.db, storeId)
  const existing = await findUserByEmail(deps.db, email)
  if (existing?.id === deps.actor) throw Conflict(STAFF_MESSAGES.self)

  if (existing) {
    await deps.db.transaction(async (tx) => {
      const [locked] = await tx.select().from(users).where(eq(users.id, existing.id)).for('update')
      if (!locked) throw NotFound(STAFF_MESSAGES.unknownMember)
      if (locked.role === 'ADMIN' && locked.status === 'Active' && role !== 'ADMIN') await assertAnotherActiveAdmin(tx, locked.id)
      await tx.update(users).set({ role, storeId }).where(eq(users.id, locked.id))
      await recordAudit(tx, {
        actor: deps.actor,
        action: 'role',
        entity: 'user',
        entityId: locked.id,
        before: { role: locked.role, storeId: locked.storeId },
        after: { role, storeId },
      })
    })
    await sendInviteMail(deps, email, { name: existing.name, role, needsPassword: !existing.passwordHash })
    return { member: await memberById(deps.db, existing.id), created: false }
  }

  const memberName = name ?? TEAM_ROLE_LABELS[role]
  const id = await deps.db.transaction(async (tx) => {
    const user = await createUser(tx, { name: memberName, email, password: randomBytes(24).toString('base64url'), role })
    if (storeId) await tx.update(users).set({ storeId }).where(eq(users.id, user.id))
    await recordAudit(tx, {
      actor: deps.actor,
      action: 'invite',
      entity: 'user',
      entityId: user.id,
      before: null,
      after: { email, role, storeId },
    })
    return user.id
  })
  await sendInviteMail(deps, email, { name: memberName, role, needsPassword: true })
  return { member: await memberById(deps.db, id), created: true }
}

/**
 * Locks every active admin's row and checks one other than `userId` remains.
 * @throws 409 lastAdmin when `userId` is the only active admin
 */
async function assertAnotherActiveAdmin(tx: Db, userId: string): Promise<void> {
  const admins = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.role, 'ADMIN'), eq(users.status, 'Active')))
    .orderBy(asc(users.id))
    .for('update')
  if (!admins.some((a) => a.id !== userId)) throw Conflict(STAFF_MESSAGES.lastAdmin)
}

/**
 * Changes a member (PUT /api/staff/update): the role (USER takes them off the team and clears the
 * store), the status (Inactive revokes every refresh token), the store (STAFF and RIDER only; null
 * clears a STAFF member's, and a RIDER always has one).
 * One transaction with its audit entries (`role`, `status`, `update` for the store).
 * @throws 400 invalid input or unknown store; 404 unknown account or one not on the team; 409 for the
 *   admin's own account or the last active admin
 */
export async function updateStaff(deps: StaffDeps, input: z.output<typeof UpdateStaffSchema>): Promise<StaffMember> {
  if (input._id === deps.actor && (input.role !== undefined || input.status !== undefined)) throw Conflict(STAFF_MESSAGES.self)
  if (input.storeId) await assertStore(deps.db, input.storeId)
  let released: { storeId: string | null; orders: { id: string; version: number }[] } | null = null
  await deps.db.transaction(async (tx) => {
    const [member] = await tx.select().from(users).where(eq(users.id, input._id)).for('update')
    if (!member || member.role === 'USER') throw NotFound(STAFF_MESSAGES.unknownMember)
    const role = input.role ?? member.role
    const status = input.status ?? member.status
    const storeId = role === 'STAFF' || role === 'RIDER' ? (input.storeId !== undefined ? input.storeId : member.storeId) : null
    // A rider delivers one store's orders: never none (docs/delivery.md).
    if (role === 'RIDER' && !storeId)
      throw BadRequest(STAFF_MESSAGES.riderStoreRequired, [{ path: 'storeId', message: STAFF_MESSAGES.riderStoreRequired }])
    const losesAdmin = member.role === 'ADMIN' && member.status === 'Active' && (role !== 'ADMIN' || status !== 'Active')
    if (losesAdmin) await assertAnotherActiveAdmin(tx, member.id)
    const leavesRounds = member.role === 'RIDER' && (role !== 'RIDER' || status !== 'Active' || storeId !== member.storeId)
    if (leavesRounds) released = await releaseRider(tx, { id: member.id, storeId: member.storeId }, deps.clock())
    await tx.update(users).set({ role, status, storeId }).where(eq(users.id, member.id))
    if (status !== 'Active' && member.status === 'Active') {
      await tx
        .update(refreshTokens)
        .set({ revokedAt: deps.clock() })
        .where(and(eq(refreshTokens.userId, member.id), isNull(refreshTokens.revokedAt)))
    }
    const entry = { actor: deps.actor, entity: 'user', entityId: member.id } as const
    if (role !== member.role) await recordAudit(tx, { ...entry, action: 'role', before: { role: member.role }, after: { role } })
    if (status !== member.status)
      await recordAudit(tx, { ...entry, action: 'status', before: { status: member.status }, after: { status } })
    if (storeId !== member.storeId)
      await recordAudit(tx, { ...entry, action: 'update', before: { storeId: member.storeId }, after: { storeId } })
  })
  const handedBack = released as { storeId: string | null; orders: { id: string; version: number }[] } | null
  if (handedBack?.storeId && deps.dispatch && deps.commerce) {
    for (const o of handedBack.orders) deps.orderEvents?.publish({ orderId: o.id, status: 'packed', version: o.version })
    await deps.dispatch.run({ ...deps, commerce: deps.commerce }, handedBack.storeId)
  }
  return memberById(deps.db, input._id)
}

/**
 * A rider leaving its rounds (another role, deactivated, another store; docs/delivery.md, "Riders"):
 * its shift ends and the orders given to it but not picked up go back to the store's queue, in the
 * caller's transaction.
 * @throws 409 riderInHand while it has an order out for delivery (it must be delivered or handed back first)
 */
async function releaseRider(
  tx: Db,
  rider: { id: string; storeId: string | null },
  now: Date,
): Promise<{ storeId: string | null; orders: { id: string; version: number }[] }> {
  const handedBack = await handBackRiderOrders(tx, rider.id, now, STAFF_MESSAGES.riderInHand)
  await tx.update(riderShifts).set({ onShift: false, freeSince: now, updatedAt: now }).where(eq(riderShifts.userId, rider.id))
  return { storeId: rider.storeId, orders: handedBack }
}

/**
 * The invite mail: the role, and for an account without a password of its own (a new one, or one made
 * by phone sign-in) how to set one: the password-reset flow proves the address; the random password
 * set at creation is never shown to anyone. Sent after the
 * transaction; a refused mail is logged (with no address) and does not undo the invite.
 */
async function sendInviteMail(
  deps: Pick<StaffDeps, 'mailer' | 'logger' | 'publicUrl'>,
  email: string,
  who: { name: string; role: TeamRole; needsPassword: boolean },
): Promise<void> {
  await deps.mailer.send(inviteMail(email, who, deps.publicUrl)).catch((err: unknown) => {
    deps.logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'staff invite mail could not be sent')
  })
}

/** The invite mail's text and HTML (the name escaped in the HTML); with `publicUrl`, the address of its sign-in page. */
export function inviteMail(email: string, who: { name: string; role: TeamRole; needsPassword: boolean }, publicUrl?: string): MailMessage {
  const roleLabel = TEAM_ROLE_LABELS[who.role].toLowerCase()
  const origin = publicUrl?.replace(/\/+$/, '')
  const how = who.needsPassword
    ? `To sign in, set your password first: choose "Forgot password" on the sign-in page${origin ? ` (${origin}/forgot-password)` : ''} and enter this email.`
    : `Sign in as usual${origin ? ` at ${origin}/login` : ''}; the dashboard shows your new pages.`
  // A rider's pages are not in the dashboard (docs/delivery.md, "The rider's pages").
  const riderPage = who.role === 'RIDER' ? ['', `Your deliveries are at ${origin ? `${origin}/rider` : '/rider'} once signed in.`] : []
  const lines = [`Hi ${who.name},`, '', `You have been added to the team as ${roleLabel}.`, '', how, ...riderPage]
  const html = `<!doctype html>
<html><body style="font-family: system-ui, sans-serif; color: #1f2937">
${lines
  .filter(Boolean)
  .map((line) => `<p>${escapeHtml(line)}</p>`)
  .join('\n')}
</body></html>`
  const subject = roleLabel === 'admin' ? 'an admin' : roleLabel === 'rider' ? 'a delivery rider' : 'staff'
  return { to: email, subject: `You are now ${subject} of the store`, text: lines.join('\n'), html }
}
