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
  let current: unknown = err
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code
    if (typeof code === 'string' && SQLSTATE.test(code)) return { errorClass, sqlState: code }
    current = (current as { cause?: unknown }).cause
  }
  return { errorClass }
}

/** The answer for a database refusal caused by the request, or null for a real fault (500). */
export function statusForSqlState(sqlState: string | undefined): { status: 400 | 409 | 503; message: string } | null {
  if (!sqlState) return null
  if (sqlState.startsWith('22')) return { status: 400, message: 'A value in the request is not valid here (out of range, too long or malformed)' }
  if (sqlState === '23514') return { status: 400, message: 'A value in the request breaks a rule of the catalogue (out of range)' }
  if (sqlState === '23505') return { status: 409, message: 'This conflicts with an existing record' }
  if (sqlState === '23503') return { status: 409, message: 'This refers to a record that does not exist or is still in use' }
  if (sqlState === '57014') return { status: 503, message: 'The request took too long, try again' }
  return null
}
