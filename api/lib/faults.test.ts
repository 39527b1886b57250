/** api/lib/faults.ts: what is logged of an error, and which SQLSTATEs are the client's fault. */
import { describe, expect, it } from 'vitest'
import { describeFault, isConnectionFault, isPoolBusy, statusForSqlState } from './faults.ts'

describe('describeFault', () => {
  it('keeps the class and the SQLSTATE, never the message', () => {
    const driver = Object.assign(new Error('insert into users values ($argon2id$v=19$..., asha@example.com)'), { code: '22021' })
    const wrapped = new Error('Failed query: insert ... params: $argon2id$...', { cause: driver })
    const fault = describeFault(wrapped)
    expect(fault).toEqual({ errorClass: 'Error', sqlState: '22021' })
    expect(JSON.stringify(fault)).not.toMatch(/argon2|example\.com/)
  })
  it('ignores codes that are not SQLSTATEs', () => {
    expect(describeFault(Object.assign(new Error('x'), { code: 'ECONNRESET' }))).toEqual({ errorClass: 'Error' })
    expect(describeFault('boom')).toEqual({ errorClass: 'string' })
  })
})

describe('statusForSqlState', () => {
  it('answers data exceptions 400, duplicates and references 409, a cancelled statement 503', () => {
    expect(statusForSqlState('22P05')?.status).toBe(400)
    expect(statusForSqlState('22003')?.status).toBe(400)
    expect(statusForSqlState('23514')?.status).toBe(400)
    expect(statusForSqlState('23505')?.status).toBe(409)
    expect(statusForSqlState('23503')?.status).toBe(409)
    expect(statusForSqlState('57014')?.status).toBe(503)
  })
  it('leaves real faults to be a 500', () => {
    expect(statusForSqlState(undefined)).toBeNull()
    expect(statusForSqlState('42P01')).toBeNull()
    expect(statusForSqlState('42601')).toBeNull()
  })
  it('answers a lock wait that ran out (55P03) with 409: the database is up', () => {
    expect(statusForSqlState('55P03')?.status).toBe(409)
  })
  it('answers a lost or refused connection, a server shutting down and a deadlock with 503 (try again)', () => {
    for (const code of ['08006', '08001', '57P01', '57P03', '53300', '40001', '40P01']) expect(statusForSqlState(code)?.status).toBe(503)
  })
})

describe('isConnectionFault', () => {
  it("knows socket errors and node-postgres's lost-connection messages, also as a cause", () => {
    expect(isConnectionFault(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }))).toBe(true)
    expect(isConnectionFault(new Error('Connection terminated unexpectedly'))).toBe(true)
    expect(isConnectionFault(new Error('Failed query', { cause: new Error('Connection terminated') }))).toBe(true)
    // A request still running while the process shuts its pool down.
    expect(isConnectionFault(new Error('Failed query', { cause: new Error('Cannot use a pool after calling end on the pool') }))).toBe(true)
    expect(isConnectionFault(new Error('syntax error at or near "selec"'))).toBe(false)
    expect(isConnectionFault(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false)
  })
})

describe('isPoolBusy', () => {
  it("knows pg-pool's wait for a free connection running out, and tells it apart from a connection that failed", () => {
    const waited = new Error('timeout exceeded when trying to connect')
    expect(isPoolBusy(waited)).toBe(true)
    expect(isPoolBusy(new Error('Failed query', { cause: waited }))).toBe(true)
    expect(isConnectionFault(waited)).toBe(false)
    // A new connection the server did not accept in time is the database, not the pool.
    const notAccepted = new Error('Connection terminated due to connection timeout')
    expect(isPoolBusy(notAccepted)).toBe(false)
    expect(isConnectionFault(notAccepted)).toBe(true)
    expect(isPoolBusy(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }))).toBe(false)
  })
})
