/**
 * One process per embedded database folder. PGlite keeps the whole database in one process's memory
 * and writes it back to its folder; two processes on one folder each overwrite the other's writes
 * (acknowledged rows vanish) or abort on start. So the folder is locked for as long as it is open:
 * a lock file beside it, created exclusively (`O_EXCL`), holding the owner's pid, host and start.
 *
 * A lock whose pid no longer runs on this host (the process crashed or was killed with SIGKILL) is
 * stale and taken over. A live holder makes the second process stop at once with a message naming
 * the pid and what to do (docs/decisions/0003-database-pglite-and-postgres.md).
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

/** What the lock file says about its holder. */
export interface LockHolder {
  pid: number
  host: string
  startedAt: string
}

/** Thrown when another live process holds the folder; `message` says which and what to do. */
export class FolderLockedError extends Error {
  constructor(
    readonly folder: string,
    readonly holder: LockHolder,
  ) {
    super(
      `The embedded database in ${folder} is already open in process ${holder.pid} on ${holder.host} (since ${holder.startedAt}). ` +
        'Only one process may use it: stop that process first (for `npm run admin` and `npm run import:catalog` too), ' +
        'or give each process its own DATA_DIR, or use a PostgreSQL server (DATABASE_URL) for several processes.',
    )
    this.name = 'FolderLockedError'
  }
}

/** The lock file of `folder`: `<folder>.lock`, beside it (PGlite owns the folder's contents). */
export const lockPathOf = (folder: string) => `${path.resolve(folder)}.lock`

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    // EPERM: it runs, as another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

function readHolder(file: string): LockHolder | null {
  try {
    const holder = JSON.parse(fs.readFileSync(file, 'utf8')) as LockHolder
    return Number.isInteger(holder.pid) && typeof holder.host === 'string' ? holder : null
  } catch {
    return null
  }
}

/**
 * Takes the lock of `folder` for this process.
 * @returns `release()`, which removes the lock if it is still this process's (call it after close)
 * @throws FolderLockedError when a live process holds it
 */
export function lockFolder(folder: string): { release(): void } {
  const file = lockPathOf(folder)
  fs.mkdirSync(path.dirname(file), { recursive: true })
  const me: LockHolder = { pid: process.pid, host: os.hostname(), startedAt: new Date().toISOString() }
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = fs.openSync(file, 'wx', 0o644)
      fs.writeSync(fd, JSON.stringify(me))
      fs.closeSync(fd)
      return {
        release() {
          if (readHolder(file)?.pid === me.pid) fs.rmSync(file, { force: true })
        },
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
    }
    const holder = readHolder(file)
    // A lock being written right now reads as empty: give its writer a moment.
    if (!holder) {
      const age = Date.now() - (fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0)
      if (age < 2000) {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100)
        continue
      }
    } else if (holder.host !== me.host || isRunning(holder.pid)) {
      throw new FolderLockedError(path.resolve(folder), holder)
    }
    // Stale (its process is gone) or unreadable for a while: take it over.
    fs.rmSync(file, { force: true })
  }
  const holder = readHolder(file)
  throw new FolderLockedError(path.resolve(folder), holder ?? { pid: -1, host: 'unknown', startedAt: 'unknown' })
}
