/**
 * The audit trail's one writer (docs/product.md, "Audit trail"; docs/decisions/0024-staff-role-and-audit-trail.md).
 *
 * Every admin or staff write calls `recordAudit(tx, entry)` inside its own transaction, so an entry
 * exists exactly when its change was committed: a refused or failed change rolls its entry back with
 * it. `before`/`after` are kept small with `changedFields`: only the fields that differ, never whole
 * rows (no image lists, descriptions are cut to AUDIT_TEXT_MAX characters).
 */
import { sql } from 'drizzle-orm'
import type { Db } from '../db/db.ts'
import { newId } from './ids.ts'
import type { AuditAction, AuditEntity } from '../../contract/audit.ts'

export type { AuditAction, AuditEntity }

/** Field values an entry holds: JSON scalars (money in rupees as the API answers it), or short lists. */
export type AuditValues = Record<string, unknown>

/**
 * The actor of a change no person made: a one-off data fix run at start-up (api/db/seed/data-fixes.ts).
 * Its entries name `system` as their author (no user id is ever this word: ids are 24 hex digits, ./ids.ts).
 */
export const SYSTEM_ACTOR = 'system'

/**
 * One change. `actor` is the user id of who made it; null = the operator's command line (`npm run
 * admin`); SYSTEM_ACTOR = a data fix.
 */
export interface AuditEntry {
  actor: string | null
  action: AuditAction
  entity: AuditEntity
  entityId: string
  before: AuditValues | null
  after: AuditValues | null
}

/** What a service needs to name the author of its change: the signed-in user's id (null: the command line). */
export interface ActorDeps {
  actor: string | null
}

/** Longest text value kept in an entry (characters); longer ones end with "…". */
export const AUDIT_TEXT_MAX = 200

/**
 * Writes one entry, or many in one statement (a bulk update, an import), with the actor's email as it
 * is now (so the trail still names an author whose account is later removed; `system` for SYSTEM_ACTOR;
 * `user:<id>` for an account without an email, made by phone sign-in, since null means the command line). `db` must be the
 * change's transaction. Entries whose before and after are both empty (nothing changed) are skipped.
 */
export async function recordAudit(db: Pick<Db, 'execute'>, entry: AuditEntry | AuditEntry[]): Promise<void> {
  const entries = (Array.isArray(entry) ? entry : [entry]).filter((e) => !isEmpty(e.before) || !isEmpty(e.after))
  if (entries.length === 0) return
  const rows = entries.map((e) => ({
    id: newId(),
    actor: e.actor,
    action: e.action,
    entity: e.entity,
    entity_id: e.entityId,
    before: e.before && compact(e.before),
    after: e.after && compact(e.after),
  }))
  await db.execute(
    sql`insert into audit_log (id, actor_id, actor_email, action, entity, entity_id, before, after)
        select v.id, v.actor,
               case when v.actor = ${SYSTEM_ACTOR} then ${SYSTEM_ACTOR} else (select coalesce(u.email, 'user:' || u.id) from users u where u.id = v.actor) end,
               v.action, v.entity, v.entity_id, v.before, v.after
        from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
          as v(id text, actor text, action text, entity text, entity_id text, before jsonb, after jsonb)`,
  )
}

/**
 * The fields of `after` (limited to `keys` when given) whose value differs from `before`'s, as a
 * `{ before, after }` pair of small objects; both null when nothing differs. Values are compared as
 * JSON, so 10 and "10.00" differ (callers pass both sides in the same form).
 */
export function changedFields(
  before: AuditValues,
  after: AuditValues,
  keys: readonly string[] = Object.keys(after),
): { before: AuditValues | null; after: AuditValues | null } {
  const was: AuditValues = {}
  const now: AuditValues = {}
  for (const key of keys) {
    if (!(key in after)) continue
    if (JSON.stringify(before[key] ?? null) === JSON.stringify(after[key] ?? null)) continue
    was[key] = before[key] ?? null
    now[key] = after[key] ?? null
  }
  return isEmpty(now) ? { before: null, after: null } : { before: was, after: now }
}

/** `values` with `keys` only (those present). */
export function pick(values: AuditValues, keys: readonly string[]): AuditValues {
  return Object.fromEntries(keys.filter((key) => key in values).map((key) => [key, values[key]]))
}

function isEmpty(values: AuditValues | null): boolean {
  return values === null || Object.keys(values).length === 0
}

function compact(values: AuditValues): AuditValues {
  return Object.fromEntries(
    Object.entries(values).map(([key, value]) => [
      key,
      typeof value === 'string' && value.length > AUDIT_TEXT_MAX ? `${value.slice(0, AUDIT_TEXT_MAX - 1)}…` : value,
    ]),
  )
}
