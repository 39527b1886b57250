/**
 * Idempotency keys for creates (IETF httpapi draft "The Idempotency-Key HTTP Header Field"); what a
 * retry, a concurrent twin, a failed create and a reused key get (422, the draft's "Idempotency-Key
 * is already used with a different request payload"): docs/scale-out.md, "Duplicated creates". A
 * request without a key behaves as it always did (the original client sends none).
 *
 * Why it holds: the key is claimed by inserting a row into `idempotency_keys` inside the create's own
 * transaction, and the answer is stored in that row before the transaction commits, so the key and
 * the created row commit together or not at all; a concurrent twin's insert waits for the first
 * transaction (PostgreSQL's `ON CONFLICT DO NOTHING` waits on a concurrent insert of the same key),
 * then replays. Keys are per user and per endpoint (`scope`) and kept for IDEMPOTENCY_KEY_TTL_HOURS.
 */
import { createHash } from 'node:crypto'
import { and, eq, sql } from 'drizzle-orm'
import type { Context } from 'hono'
import { IdempotencyKeySchema } from '../../contract/idempotency.ts'
import type { Db } from '../db/client.ts'
import { idempotencyKeys } from '../db/schema.ts'
import { BadRequest, Conflict, HttpError } from './errors.ts'

/** The request header carrying the key. */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key'
/** The answer header of a replayed create (the name Stripe's API uses). */
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed'
/** How long a key is remembered, in hours; an older key counts as new. */
export const IDEMPOTENCY_KEY_TTL_HOURS = 24
/** Most expired rows removed by one claim: a small, bounded cost per create, no timer per instance. */
const EXPIRED_ROWS_PER_CLAIM = 100

/** 422: the key was first used with another body. */
export const KEY_REUSED = 'This idempotency key was already used for a different request: use a new key'

/** A create's claim on a key: whose, for which endpoint, and the fingerprint of its body. */
export interface IdempotencyClaim {
  userId: string
  /** The endpoint, e.g. `product:create`: one key may be used once per endpoint. */
  scope: string
  key: string
  /** SHA-256 (hex) of the validated body (`requestFingerprint`). */
  requestHash: string
  /** Called when the answer is the replay of an earlier request's. */
  onReplay?: () => void
}

/** SHA-256 (hex) of a validated request body's JSON: the same body always gives the same fingerprint. */
export function requestFingerprint(input: unknown): string {
  return createHash('sha256').update(JSON.stringify(input)).digest('hex')
}

/**
 * The claim of a create request: undefined without an `Idempotency-Key` header.
 * @param input the body as validated (its fingerprint tells a retry from another request)
 * @throws 400 on `idempotencyKey` when the header is not 8-128 of `[A-Za-z0-9_-]`
 */
export function idempotencyClaim(c: Context, userId: string, scope: string, input: unknown): IdempotencyClaim | undefined {
  const header = c.req.header(IDEMPOTENCY_KEY_HEADER)
  if (header === undefined) return undefined
  const key = IdempotencyKeySchema.safeParse(header)
  if (!key.success) {
    const message = key.error.issues[0]!.message
    throw BadRequest(message, [{ path: 'idempotencyKey', message }])
  }
  return {
    userId,
    scope,
    key: key.data,
    requestHash: requestFingerprint(input),
    onReplay: () => c.header(IDEMPOTENT_REPLAYED_HEADER, 'true'),
  }
}

type Executor = Pick<Db, 'execute' | 'insert' | 'select'>

/**
 * Runs `create` at most once per claim. Call it inside the create's transaction `tx`, before any
 * other check of the create (a replay must not be refused as, say, a duplicate name), with every
 * write of the create inside `create`.
 * @returns the answer of `create`, or the stored answer of the request that first used the key
 * @throws 422 KEY_REUSED when the key was used with another body; whatever `create` throws
 */
export async function runOnce<T>(tx: Executor, claim: IdempotencyClaim | undefined, create: () => Promise<T>): Promise<T> {
  if (!claim) return create()
  const { userId, scope, key, requestHash } = claim
  const thisKey = sql`user_id = ${userId} and scope = ${scope} and key = ${key}`
  const expired = sql`created_at < now() - make_interval(hours => ${IDEMPOTENCY_KEY_TTL_HOURS})`
  await tx.execute(sql`delete from idempotency_keys where ${thisKey} and ${expired}`)
  const claimed = await tx
    .insert(idempotencyKeys)
    .values({ userId, scope, key, requestHash })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key })
  if (claimed.length === 0) {
    const [earlier] = await tx
      .select({ requestHash: idempotencyKeys.requestHash, response: sql<T | null>`${idempotencyKeys.response}` })
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key)))
    // Gone between the insert and the select: only an expiry sweep racing this request can do that.
    if (!earlier || earlier.response === null) throw Conflict('This request is being processed: try again in a moment')
    if (earlier.requestHash !== requestHash) throw new HttpError(422, KEY_REUSED)
    claim.onReplay?.()
    return earlier.response
  }
  await tx.execute(
    sql`delete from idempotency_keys where (user_id, scope, key) in
          (select user_id, scope, key from idempotency_keys where ${expired} limit ${EXPIRED_ROWS_PER_CLAIM})`,
  )
  const answer = await create()
  await tx.execute(sql`update idempotency_keys set response = ${JSON.stringify(answer)}::jsonb where ${thisKey}`)
  return answer
}
