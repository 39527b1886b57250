/**
 * One process per embedded database folder (api/db/folder-lock.ts), with real processes: a second
 * process on a held folder stops at once naming the holder's pid; after the holder is killed with
 * SIGKILL its stale lock is taken over; a clean close frees the folder.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { openDatabase } from './client.ts'
import { FolderLockedError, lockFolder, lockPathOf } from './folder-lock.ts'

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'grocery-lock-'))
afterAll(() => fs.rmSync(root, { recursive: true, force: true }))

/** Starts a process holding the database in `folder`; resolves with it once the folder is open. */
function holder(folder: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, '../testing/hold-database.ts'), folder], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  return new Promise((resolve, reject) => {
    let out = ''
    child.stdout!.on('data', (chunk) => {
      out += chunk
      if (out.includes('ready')) resolve(child)
    })
    child.on('exit', (code) => reject(new Error(`holder exited with ${code}`)))
  })
}

describe('one process per embedded database folder', () => {
  it('refuses a second process, naming the holder and what to do; takes over after a SIGKILL', async () => {
    const folder = path.join(root, 'pglite')
    const child = await holder(folder)
    try {
      const err = await openDatabase({ dataDir: folder }).catch((e: unknown) => e)
      expect(err).toBeInstanceOf(FolderLockedError)
      expect((err as Error).message).toContain(`process ${child.pid}`)
      expect((err as Error).message).toMatch(/stop that process first/)
    } finally {
      child.kill('SIGKILL')
      await new Promise((resolve) => child.once('exit', resolve))
    }
    // The killed holder left its lock behind; it is stale and taken over.
    expect(fs.existsSync(lockPathOf(folder))).toBe(true)
    const database = await openDatabase({ dataDir: folder })
    await database.close()
    expect(fs.existsSync(lockPathOf(folder))).toBe(false)
  }, 60_000)

  it('lets only one of two locks on one folder win, and frees it on release', () => {
    const folder = path.join(root, 'other')
    const first = lockFolder(folder)
    expect(() => lockFolder(folder)).toThrow(FolderLockedError)
    first.release()
    lockFolder(folder).release()
  })

  it('the admin command refuses while the server holds the folder, with exit code 1 and no stack', async () => {
    const dataDir = path.join(root, 'data')
    const child = await holder(path.join(dataDir, 'pglite'))
    try {
      const admin = spawn(
        process.execPath,
        ['--import', 'tsx', path.join(import.meta.dirname, '../scripts/admin.ts'), '--email', 'x@example.com'],
        {
          env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      )
      let stderr = ''
      admin.stderr!.on('data', (chunk) => (stderr += chunk))
      const code = await new Promise((resolve) => admin.on('exit', resolve))
      expect(code).toBe(1)
      expect(stderr).toContain(`process ${child.pid}`)
      expect(stderr).not.toMatch(/\n\s+at /)
    } finally {
      child.kill('SIGTERM')
      await new Promise((resolve) => child.once('exit', resolve))
    }
  }, 60_000)
})
