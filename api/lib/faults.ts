/**
 * What the API logs of an unexpected error, and which database refusals are the client's fault.
 *
 * `describeFault` keeps only the error's class name and its SQLSTATE (the PostgreSQL error code, on
 * the error or its `cause`, as node-postgres, PGlite and Drizzle nest them): never the message or
 * stack, which for a failed query include every bound parameter (OWASP Logging Cheat Sheet).
 *
 * `statusForSqlState` maps SQLSTATE classes that a request's own values cause (PostgreSQL
 * documentation, Appendix A "Error Codes": class 22 data exception, 23 integrity constraint
 * violation: 23514 check, 23505 unique, 23503 foreign key) to a 4xx, and a cancelled statement (57014, e.g. a statement timeout) to 503, so that bad
 * input that slipped past validation is still never a 500.
 */

/** The loggable facts of an error: class name and SQLSTATE (when it came from the database). */
export interface Fault {
  errorClass: string
  sqlState?: string
}

const SQLSTATE = /^[0-9A-Z]{5}$/

/** The class and SQLSTATE of `err` (looked for on the error and up to three `cause`s deep). */
export function describeFault(err: unknown): Fault {
  const errorClass = err instanceof Error ? err.constructor.name : typeof err
  let sqlState: string | undefined
  someCause(err, ({ code }) => {
    if (typeof code !== 'string' || !SQLSTATE.test(code)) return false
    sqlState = code
    return true
  })
  return sqlState ? { errorClass, sqlState } : { errorClass }
}

/**
 * True when `test` holds for `err` or one of the errors it wraps, up to three `cause`s deep (Drizzle
 * wraps the driver's error; node-postgres and PGlite may wrap theirs): the one walk of the chain that
 * every check of this module shares.
 */
function someCause(err: unknown, test: (error: { code?: unknown; message?: unknown }) => boolean): boolean {
  let current: unknown = err
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    if (test(current as { code?: unknown; message?: unknown })) return true
    current = (current as { cause?: unknown }).cause
  }
  return false
}

/**
 * True when `err` (or an error it wraps: Drizzle wraps driver errors) carries PostgreSQL's SQLSTATE
 * `code` (PostgreSQL, "Appendix A. Error Codes"): `23505` unique_violation, `23503`
 * foreign_key_violation… The one place an error's code is read, on pg and on PGlite alike.
 */
export function hasSqlState(err: unknown, code: string): boolean {
  return describeFault(err).sqlState === code
}

/** The answer for a database refusal caused by the request, or null for a real fault (500). */
export function statusForSqlState(sqlState: string | undefined): { status: 400 | 409 | 503; message: string } | null {
  if (!sqlState) return null
  if (sqlState.startsWith('22'))
    return { status: 400, message: 'A value in the request is not valid here (out of range, too long or malformed)' }
  if (sqlState === '23514') return { status: 400, message: 'A value in the request breaks a rule of the catalogue (out of range)' }
  if (sqlState === '23505') return { status: 409, message: 'This conflicts with an existing record' }
  if (sqlState === '23503') return { status: 409, message: 'This refers to a record that does not exist or is still in use' }
  if (sqlState === '57014') return { status: 503, message: 'The request took too long, try again' }
  // 55P03 lock_not_available: a `lock_timeout` ran out while someone else held the rows (an order
  // placement handles its own, api/modules/order/service.ts); the database is up.
  if (sqlState === '55P03') return { status: 409, message: 'Someone else is changing the same records right now, try again' }
  // Class 08 connection exception, 57P01-57P03 the server shutting down or starting, 53300 too many
  // connections, 40001/40P01 serialization failure or deadlock: nothing the request did wrong, and
  // the next attempt may well succeed.
  if (sqlState.startsWith('08') || /^57P0[1-3]$/.test(sqlState) || sqlState === '53300')
    return { status: 503, message: DATABASE_UNAVAILABLE }
  if (sqlState === '40001' || sqlState === '40P01') return { status: 503, message: 'The store is busy, try again' }
  return null
}

/** The 503 message of a lost or refused database connection. */
export const DATABASE_UNAVAILABLE = 'The database is unavailable for a moment, try again'

/** Node's socket error codes of a connection that could not be made or was cut. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN'])
/**
 * node-postgres's own messages for a connection that ended under a query or could not be made in
 * time (they carry no code): "Connection terminated due to connection timeout" is a new connection
 * the server did not accept within `connectionTimeoutMillis`; "Cannot use a pool after calling end"
 * and "Client was closed" are a request still running while the process shuts its pool down.
 */
const LOST_CONNECTION =
  /^(Connection terminated|Client has encountered a connection error|Cannot use a pool after calling end|Client was closed and is not queryable)/

/**
 * pg-pool's message when every connection of the pool stayed in use for its whole
 * `connectionTimeoutMillis` (DATABASE_CONNECT_TIMEOUT_MS): the request never reached the server.
 */
const POOL_WAIT_TIMED_OUT = 'timeout exceeded when trying to connect'

/** The 429 message of a request that found every connection of the pool in use (`Retry-After: 1`). */
export const POOL_BUSY = 'The store is busy right now, try again in a moment'

/**
 * True when `err` (or a `cause` up to three deep) is pg-pool's wait for a free connection running
 * out: the database answers, this instance's connections are all in use (slow transactions, a
 * burst). Answered 429 "busy", never 503 "database unavailable"
 * (docs/decisions/0043-flash-sale-and-busy-pool.md). A server that accepts no connection at all
 * fails the connection attempts themselves (`isConnectionFault`).
 */
export function isPoolBusy(err: unknown): boolean {
  return someCause(err, ({ message }) => message === POOL_WAIT_TIMED_OUT)
}

/**
 * True when `err` (or a `cause` up to three deep) is a lost or refused database connection: a socket
 * error code, or node-postgres's "Connection terminated…" messages. Such a request answers 503 and
 * the pool makes a new connection for the next one (node-postgres docs, "Pooling": a client that
 * errored is removed from the pool).
 */
export function isConnectionFault(err: unknown): boolean {
  return someCause(
    err,
    ({ code, message }) =>
      (typeof code === 'string' && SOCKET_CODES.has(code)) || (typeof message === 'string' && LOST_CONNECTION.test(message)),
  )
}
