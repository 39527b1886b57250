/**
 * Builds the API on a fresh test database (PGlite, or PostgreSQL with TEST_DATABASE_URL) with a
 * temporary upload folder and outbox, checking every answer against the schemas of contract/, and
 * offers a small `call()` helper for JSON requests. Its job queue is started without a runner: the
 * jobs a request wrote (order emails) run when the test calls `t.deps.jobs.drain()`.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { createApp, type AppOptions } from '../app.ts'
import { createDiskStorage } from '../lib/storage.ts'
import { createMailer } from '../lib/mail.ts'
import { createSmsOutbox } from '../lib/sms.ts'
import { createTestDatabase } from './db.ts'

export interface CallOptions {
  method?: string
  json?: unknown
  body?: BodyInit
  token?: string
  headers?: Record<string, string>
}

/** The JWT secret of every test API: tests sign and check their tokens with it, and nothing else does. */
export const TEST_JWT_SECRET = 'test-secret-not-for-production-0123456789'

/**
 * A fresh API: `{ app, deps, db, tmpDir, call, close }`. Close it in afterAll.
 * @param dbOptions.pool PostgreSQL only: the pool's size and wait for a connection (the pool tests)
 */
export async function createTestApp(overrides: Partial<AppOptions> = {}, dbOptions: Parameters<typeof createTestDatabase>[0] = {}) {
  const database = await createTestDatabase(dbOptions)
  const tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'grocery-test-'))
  const { app, deps } = createApp({
    db: database.db,
    jwtSecret: TEST_JWT_SECRET,
    storage: createDiskStorage(path.join(tmpDir, 'uploads')),
    mailer: createMailer({ outboxDir: path.join(tmpDir, 'outbox') }),
    sms: createSmsOutbox({ dir: path.join(tmpDir, 'outbox', 'sms') }),
    // Every answer of every API test is checked against contract/ (api/lib/openapi.ts).
    checkAnswers: true,
    ...overrides,
  })
  // The queue's tables and queues, without a runner: a test runs the jobs due with `t.deps.jobs.drain()`.
  await deps.jobs.start()
  /** Sends a request to `/api/<path>`; returns status, headers and the parsed JSON body. */
  async function call(pathname: string, opts: CallOptions = {}) {
    const headers = new Headers(opts.headers)
    if (opts.token) headers.set('Authorization', `Bearer ${opts.token}`)
    let body = opts.body
    if (opts.json !== undefined) {
      headers.set('Content-Type', 'application/json')
      body = typeof opts.json === 'string' ? opts.json : JSON.stringify(opts.json)
    }
    const method = opts.method ?? (body !== undefined ? 'POST' : 'GET')
    const res = await app.request(`/api/${pathname.replace(/^\//, '')}`, { method, headers, body })
    const text = await res.text()
    // The answers are checked field by field by each test: `any` keeps those checks short.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    let json: any
    try {
      json = text ? JSON.parse(text) : null
    } catch {
      json = text
    }
    return { status: res.status, headers: res.headers, body: json }
  }
  return {
    app,
    deps,
    db: database.db,
    kind: database.kind,
    /** The open database (its pool and URL on PostgreSQL). */
    database,
    tmpDir,
    call,
    async close() {
      await deps.jobs.stop()
      await database.close()
      fs.rmSync(tmpDir, { recursive: true, force: true })
    },
  }
}
export type TestApp = Awaited<ReturnType<typeof createTestApp>>
