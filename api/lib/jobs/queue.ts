/**
 * Background jobs on the database (docs/jobs.md; docs/decisions/0026-background-jobs-on-pg-boss.md):
 * pg-boss 10 stores, schedules and retries the jobs (its tables in the `pgboss` schema, created and
 * upgraded by pg-boss itself at `start()`), and this module runs them: one runner per process, one
 * loop per job name, one job at a time per name, each job taken by exactly one process
 * (`FOR UPDATE SKIP LOCKED` in pg-boss's fetch; PostgreSQL docs, "SELECT: The Locking Clause").
 *
 * The same code runs on both engines: pg-boss talks to the database through `executeSql(text,
 * values)` (pg-boss docs, "Constructor: db"), which this module answers with the node-postgres pool on
 * PostgreSQL and with the PGlite instance embedded (one connection; PGlite queues each query behind
 * any open transaction, so a job never runs inside a request's transaction).
 *
 * `send(..., { tx })` writes the job in the caller's transaction: it exists if and only if the
 * transaction commits (an order's email is never lost, nor sent for a rolled-back order).
 *
 * Handlers receive the parsed payload; a throw (or a run longer than the name's `expireInSeconds`) is
 * a failed attempt, retried after the name's delay with backoff (api/lib/jobs/definitions.ts); after
 * the last retry the job is logged as an error and kept (state `failed`) for the operator.
 */
import PgBoss from 'pg-boss'
import { sql, type SQL } from 'drizzle-orm'
import type { Db } from '../../db/db.ts'
import type { Logger } from '../../../server-shared/logger.ts'
import { describeFault } from '../faults.ts'
import { JOB_DEFINITIONS, type JobData, type JobDefinition, type JobName, type JobPayload } from './definitions.ts'

/** A transaction (or database) a job can be written in: anything with Drizzle's `execute`. */
export interface JobExecutor {
  execute(query: SQL): Promise<unknown>
}

/** Options of one `send`. */
export interface SendOptions {
  /** Run no earlier than this many ms from now (a reservation's expiry, a reconciliation). */
  startAfterMs?: number
  /**
   * At most one job with this key per `singletonSeconds` window (e.g. the order id): a second send in
   * the window is dropped and `send` answers null (pg-boss docs, "send(): singletonKey").
   */
  singletonKey?: string
  /** The window of `singletonKey`, seconds (default 60). */
  singletonSeconds?: number
  /** Retries of this job instead of its name's `retryLimit`. */
  retryLimit?: number
  /** Write the job in this transaction (it exists only if the transaction commits). */
  tx?: JobExecutor
}

/** What a handler learns of its job besides the payload. */
export interface JobInfo {
  id: string
  name: JobName
  /** Failed attempts before this one (0 on the first). */
  retryCount: number
  retryLimit: number
}

export type JobHandler<N extends JobName> = (data: JobPayload<N>, job: JobInfo) => Promise<void>

/** A cron expression (UTC, minute resolution) or an interval in ms (see `intervalToCron`). */
export type Every = string | number

/** The queue the API's modules send jobs to and the server runs (see the module comment). */
export interface JobQueue {
  /**
   * Adds a job. @returns its id, or null when `singletonKey` dropped it as a duplicate
   * @throws ZodError when `data` does not fit the name's schema; Error when the queue was never started
   */
  send<N extends JobName>(name: N, data: JobData<N>, opts?: SendOptions): Promise<string | null>
  /** Registers the handler of `name` (before `start`; a second call replaces the first). */
  work<N extends JobName>(name: N, handler: JobHandler<N>): void
  /** Sends `name` (without payload) on `every`, once across all processes (before `start`). */
  schedule(name: JobName, every: Every): void
  /**
   * Creates or upgrades pg-boss's tables (under pg-boss's advisory lock) and creates the missing
   * queues (under the same lock; a deadlock with another process's pg-boss start is retried).
   * Idempotent. The server calls it under its start-up lock (api/embedded.ts).
   */
  prepare(): Promise<void>
  /**
   * `prepare`, then records the schedules and (unless the queue was made with `runner: false`)
   * starts the runner and pg-boss's maintenance and cron. Idempotent.
   */
  start(): Promise<void>
  /**
   * Stops taking jobs, waits up to `graceMs` (default 10 s) for the running ones, then stops pg-boss.
   * A job still running then stays "active" and is retried after its `expireInSeconds`.
   */
  stop(graceMs?: number): Promise<void>
  /**
   * Runs every job due now, in this call, until none is left (retries waiting for their delay and
   * jobs with a later `startAfterMs` are not due). For tests, and for a queue made with `runner: false`.
   * @returns how many jobs ran (failed attempts included)
   */
  drain(): Promise<number>
  /** The stored state of one job (`created`, `retry`, `active`, `completed`, `failed`...), for tests and operators. */
  find(name: JobName, id: string): Promise<{ state: string; retryCount: number; startAfter: Date } | null>
}

/** How often an idle runner asks for new jobs of each name (ms); a local `send` wakes it at once. */
export const POLL_MS = 2000
/** Wake-ups after a `send` in a transaction (ms): the job is visible only once the caller commits. */
const TX_WAKE_MS = [20, 250]
/** pg-boss's database schema. */
const SCHEMA = 'pgboss'
/** The queue pg-boss's cron sends through (pg-boss 10, src/timekeeper.js `QUEUES.SEND_IT`). */
const CRON_QUEUE = '__pgboss__send-it'
/** SQLSTATE deadlock_detected (PostgreSQL docs, Appendix A "Error Codes"). */
const DEADLOCK = '40P01'

/**
 * The `executeSql` pg-boss calls, over the pool or the PGlite instance under a Drizzle handle
 * (`$client`, Drizzle docs, "Connect: access the driver"). Without values the text may hold several
 * statements (pg-boss's migrations): PGlite runs those with `exec`, node-postgres with its simple
 * query protocol.
 */
export function sqlClientOf(db: Db): PgBoss.Db {
  const client = (db as unknown as { $client: unknown }).$client as {
    query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>
    exec?: (text: string) => Promise<{ rows: unknown[] }[]>
    connect?: unknown
  }
  if (typeof client.exec === 'function' && typeof client.connect !== 'function') {
    const exec = client.exec.bind(client)
    return {
      async executeSql(text, values) {
        if (values && values.length > 0) return client.query(text, values)
        const results = await exec(text)
        return results.at(-1) ?? { rows: [] }
      },
    }
  }
  return { executeSql: (text, values) => client.query(text, values) }
}

/**
 * pg-boss's `executeSql` inside a Drizzle transaction: the positional parameters (`$1`...) of
 * pg-boss's statement become Drizzle parameters, in place, so the statement runs on the transaction's
 * connection with the same values.
 */
export function sqlClientOfTx(tx: JobExecutor): PgBoss.Db {
  return {
    async executeSql(text, values = []) {
      const parts = text.split(/\$(\d+)/)
      const chunks: SQL[] = []
      parts.forEach((part, i) => {
        if (i % 2 === 0) chunks.push(sql.raw(part))
        else chunks.push(sql`${values[Number(part) - 1] ?? null}`)
      })
      const result = (await tx.execute(sql.join(chunks))) as { rows?: unknown[] }
      return { rows: result.rows ?? [] }
    },
  }
}

/**
 * The cron of an interval (pg-boss schedules by cron, at minute resolution): whole minutes that divide
 * an hour (`*\/5 * * * *`) or whole hours that divide a day (`0 *\/6 * * *`). A string is taken as a
 * cron expression already.
 * @throws Error for an interval that is not one of those
 */
export function intervalToCron(every: Every): string {
  if (typeof every === 'string') return every
  const minutes = every / 60_000
  if (Number.isInteger(minutes) && minutes >= 1 && minutes < 60 && 60 % minutes === 0) {
    return minutes === 1 ? '* * * * *' : `*/${minutes} * * * *`
  }
  const hours = minutes / 60
  if (Number.isInteger(hours) && hours >= 1 && hours <= 24 && 24 % hours === 0) {
    return hours === 24 ? '0 0 * * *' : hours === 1 ? '0 * * * *' : `0 */${hours} * * *`
  }
  throw new Error(`An interval of ${every} ms has no cron: use whole minutes dividing an hour or whole hours dividing a day`)
}

/** `s` as an SQL string literal (for the fixed job names of definitions.ts). */
const literal = (s: string) => `'${s.replaceAll("'", "''")}'`

/**
 * One statement creating every missing queue of `names`, under the advisory lock pg-boss's own
 * migrations and maintenance take (its key: the database name and schema, hashed). Two processes
 * starting together on an empty database would otherwise deadlock: each `create_queue` attaches a
 * partition to the job table while the other inserts into the queue table (measured: SQLSTATE 40P01
 * on the second instance). A `DO` block is one statement, so the lock lasts exactly as long as it
 * and a failure leaves no transaction open on a pooled connection.
 */
export function createQueuesSql(names: string[]): string {
  const creates = names.map(
    (name) =>
      `PERFORM ${SCHEMA}.create_queue(${literal(name)}, '{"policy":"standard"}'::json) ` +
      `WHERE NOT EXISTS (SELECT 1 FROM ${SCHEMA}.queue WHERE name = ${literal(name)});`,
  )
  return `DO $$ BEGIN
    PERFORM pg_advisory_xact_lock(('x' || encode(sha224((current_database() || '.pgboss.${SCHEMA}')::bytea), 'hex'))::bit(64)::bigint);
    ${creates.join('\n    ')}
  END $$`
}

/**
 * Creates the queue over `db` (nothing is written before `start`).
 * @param opts.runner false: `start` prepares the tables but runs nothing (tests call `drain`);
 *   default true (the server)
 * @param opts.pollMs idle poll interval of each name's loop (default POLL_MS)
 */
export function createJobQueue(opts: { db: Db; logger: Logger; runner?: boolean; pollMs?: number }): JobQueue {
  const { db, logger } = opts
  const runner = opts.runner ?? true
  const pollMs = opts.pollMs ?? POLL_MS
  const client = sqlClientOf(db)
  const boss = new PgBoss({
    db: client,
    schema: SCHEMA,
    migrate: true,
    // Maintenance (expiring stuck jobs, archiving) and cron run only where jobs run; pg-boss takes an
    // advisory lock for each, so N processes do each once.
    supervise: runner,
    schedule: runner,
  })
  // pg-boss reports a failed maintenance query as an event: logged (class and SQLSTATE only), never thrown.
  boss.on('error', (err) => logger.warn(describeFault(err), 'job queue maintenance failed'))

  const handlers = new Map<JobName, JobHandler<JobName>>()
  const schedules = new Map<JobName, string>()
  const wakers = new Map<JobName, () => void>()
  /** Names woken while their loop was not waiting (mid-fetch): the loop fetches again instead of sleeping. */
  const woken = new Set<JobName>()
  const loops: Promise<void>[] = []
  const running = new Set<Promise<void>>()
  let prepared: Promise<void> | null = null
  let started: Promise<void> | null = null
  let stopping = false

  const definitionOf = (name: JobName): JobDefinition => JOB_DEFINITIONS[name]

  /** Runs one job's handler (bounded by its `expireInSeconds`) and records the outcome. */
  async function runJob(name: JobName, job: PgBoss.JobWithMetadata<unknown>): Promise<void> {
    const definition = definitionOf(name)
    const handler = handlers.get(name)
    const info: JobInfo = { id: job.id, name, retryCount: job.retryCount, retryLimit: job.retryLimit }
    let timer: NodeJS.Timeout | undefined
    try {
      if (!handler) throw new Error(`no handler for ${name}`)
      const payload = definition.schema.parse(job.data) as JobPayload<JobName>
      const expired = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`job ran past ${definition.expireInSeconds} s`)), definition.expireInSeconds * 1000)
      })
      await Promise.race([handler(payload, info), expired])
      clearTimeout(timer)
      await boss.complete(name, job.id)
    } catch (err) {
      clearTimeout(timer)
      const last = job.retryCount >= job.retryLimit
      const facts = { ...describeFault(err), job: name, jobId: job.id, retryCount: job.retryCount, retryLimit: job.retryLimit }
      if (last) logger.error(facts, 'job failed for good (no retry left)')
      else logger.warn(facts, 'job failed: will retry')
      await boss
        .fail(name, job.id, { errorClass: describeFault(err).errorClass })
        .catch((e: unknown) => logger.warn(describeFault(e), 'job failure not recorded (it will expire and retry)'))
    }
  }

  /** Takes and runs at most one due job of `name`. @returns whether one was taken */
  async function runOne(name: JobName): Promise<boolean> {
    const [job] = await boss.fetch<unknown>(name, { batchSize: 1, includeMetadata: true })
    if (!job) return false
    const run = runJob(name, job)
    running.add(run)
    try {
      await run
    } finally {
      running.delete(run)
    }
    return true
  }

  /** The runner's loop of one name: take jobs while there are some, else wait for a poll or a wake. */
  async function loop(name: JobName): Promise<void> {
    while (!stopping) {
      let took = false
      // A wake from here on means "fetch again": a send that commits while this fetch is under way
      // may be invisible to it, and its wake must not be lost until the next poll.
      woken.delete(name)
      try {
        took = await runOne(name)
      } catch (err) {
        logger.warn({ ...describeFault(err), job: name }, 'job fetch failed')
      }
      if (took || stopping || woken.has(name)) continue
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, pollMs)
        function done() {
          clearTimeout(timer)
          wakers.delete(name)
          resolve()
        }
        wakers.set(name, done)
      })
    }
  }

  const wake = (name: JobName) => {
    woken.add(name)
    wakers.get(name)?.()
  }

  const queue: JobQueue = {
    async send(name, data, sendOpts = {}) {
      const definition = definitionOf(name)
      const payload = definition.schema.parse(data) as object
      const id = await boss.send(name, payload, {
        retryLimit: sendOpts.retryLimit ?? definition.retryLimit,
        retryDelay: definition.retryDelaySeconds,
        retryBackoff: definition.retryBackoff,
        expireInSeconds: definition.expireInSeconds,
        ...(sendOpts.startAfterMs ? { startAfter: new Date(Date.now() + sendOpts.startAfterMs) } : {}),
        ...(sendOpts.singletonKey ? { singletonKey: sendOpts.singletonKey, singletonSeconds: sendOpts.singletonSeconds ?? 60 } : {}),
        ...(sendOpts.tx ? { db: sqlClientOfTx(sendOpts.tx) } : {}),
      })
      if (!id && !sendOpts.singletonKey) {
        throw new Error(`The job queue has no queue "${name}": call start() before sending`)
      }
      if (id && !sendOpts.startAfterMs) {
        if (sendOpts.tx) for (const ms of TX_WAKE_MS) setTimeout(() => wake(name), ms).unref()
        else wake(name)
      }
      return id
    },
    work(name, handler) {
      handlers.set(name, handler as JobHandler<JobName>)
    },
    schedule(name, every) {
      schedules.set(name, intervalToCron(every))
    },
    prepare() {
      prepared ??= (async () => {
        await boss.start()
        // pg-boss's cron queue is created by its start too, unlocked: listed here so that it exists
        // even when that creation lost a deadlock to another process's (pg-boss ignores the error).
        const names = [...Object.keys(JOB_DEFINITIONS), CRON_QUEUE]
        for (let attempt = 1; ; attempt++) {
          try {
            await client.executeSql(createQueuesSql(names), [])
            return
          } catch (err) {
            if (attempt >= 5 || describeFault(err).sqlState !== DEADLOCK) throw err
          }
        }
      })()
      return prepared
    },
    start() {
      started ??= (async () => {
        await queue.prepare()
        // The schedules are shared by every process: the code's list replaces the stored one.
        for (const stored of await boss.getSchedules()) {
          if (!schedules.has(stored.name as JobName)) await boss.unschedule(stored.name)
        }
        for (const [name, cron] of schedules) await boss.schedule(name, cron, {}, { tz: 'UTC' })
        if (runner) for (const name of handlers.keys()) loops.push(loop(name))
      })()
      return started
    },
    async stop(graceMs = 10_000) {
      if (stopping) return
      stopping = true
      for (const name of [...wakers.keys()]) wake(name)
      let timer: NodeJS.Timeout | undefined
      const timeout = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), graceMs)
      })
      if ((await Promise.race([Promise.all(loops).then(() => 'done' as const), timeout])) === 'timeout') {
        logger.warn({ running: running.size, graceMs }, 'jobs still running at shutdown: they will be retried after they expire')
      }
      clearTimeout(timer)
      // pg-boss started with `prepare` (even when `start` never ran): its timers stop here.
      if (prepared)
        await prepared.then(
          () => boss.stop({ close: false, graceful: false, wait: true }),
          () => undefined,
        )
    },
    async drain() {
      await queue.start()
      let ran = 0
      for (;;) {
        let pass = 0
        for (const name of handlers.keys()) while (await runOne(name)) pass++
        ran += pass
        if (pass === 0) return ran
      }
    },
    async find(name, id) {
      const job = await boss.getJobById(name, id)
      return job ? { state: job.state, retryCount: job.retryCount, startAfter: new Date(job.startAfter) } : null
    },
  }
  return queue
}
