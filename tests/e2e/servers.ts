/**
 * The e2e servers (scripts/e2e-server.mjs) and which one a Playwright worker drives
 * (docs/decisions/0069-one-e2e-server-per-worker.md). Playwright runs E2E_SERVERS workers (default 2),
 * and each worker drives a server of its own, with its own database, mail folder and SMTP port: what
 * one worker's tests change (a store paused, a price edited, rate-limit counts) never reaches
 * another's, so every server still sees one test at a time, as the suite was written for.
 *
 * Server `i` listens on E2E_PORT + i (default 3310 + i) with SMTP on E2E_SMTP_PORT + i (default
 * 2525 + i); its data and mail folders are E2E_DATA_DIR and E2E_MAIL_DIR (defaults under the OS temp
 * folder) with `-i` appended for i ≥ 1, so server 0 is exactly the one a single-server run
 * (E2E_SERVERS=1) has always used. A worker's server is the one of its TEST_PARALLEL_INDEX, the slot
 * Playwright gives each worker process (Playwright docs, "Parallelism": "Worker index and parallel
 * index"); outside a worker (the runner, which starts the servers) it is server 0.
 */
import os from 'node:os'
import path from 'node:path'

/** How many e2e servers run, and so how many Playwright workers: 1..4 (default 2, one per core of the CI machine). */
export const E2E_SERVERS = Math.min(4, Math.max(1, Number(process.env.E2E_SERVERS ?? 2) || 1))

/** One e2e server's ports and folders. */
export interface E2eServer {
  index: number
  port: number
  smtpPort: number
  /** The server's DATA_DIR (its embedded database and development outboxes). */
  dataDir: string
  /** Where its SMTP sink writes every message received. */
  mailDir: string
  baseURL: string
}

/** Server `index` (0-based) of the run. */
export function e2eServer(index: number): E2eServer {
  const suffix = index === 0 ? '' : `-${index}`
  const port = Number(process.env.E2E_PORT ?? 3310) + index
  return {
    index,
    port,
    smtpPort: Number(process.env.E2E_SMTP_PORT ?? 2525) + index,
    dataDir: path.resolve(process.env.E2E_DATA_DIR ?? path.join(os.tmpdir(), 'grocery-e2e')) + suffix,
    mailDir: path.resolve(process.env.E2E_MAIL_DIR ?? path.join(os.tmpdir(), 'grocery-e2e-mail')) + suffix,
    baseURL: `http://localhost:${port}`,
  }
}

/** The server this process drives: its worker slot's (TEST_PARALLEL_INDEX), server 0 outside a worker. */
export function ownServer(): E2eServer {
  const slot = Number(process.env.TEST_PARALLEL_INDEX ?? 0)
  return e2eServer(Number.isInteger(slot) && slot >= 0 && slot < E2E_SERVERS ? slot : 0)
}
