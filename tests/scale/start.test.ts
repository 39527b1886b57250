/**
 * `npm start` (scripts/start.mjs) under a supervisor: a SIGTERM to the `npm` process reaches the
 * server, which drains and exits, instead of leaving it running and holding the port. npm passes the
 * signal to the `sh -c` that runs the script, and that shell dies of it without passing it on.
 * Needs a build (`npm test` runs it after the build): SKIP_BUILD=1 serves it as it is.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, expect, it } from 'vitest'

const root = path.resolve(import.meta.dirname, '../..')
const port = Number(process.env.START_PORT ?? 3478)
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'grocery-start-'))
let serverPid = 0

/** True while process `pid` exists. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

afterAll(() => {
  if (serverPid && alive(serverPid)) process.kill(serverPid, 'SIGKILL')
  fs.rmSync(dataDir, { recursive: true, force: true })
})

it('a SIGTERM to `npm start` ends the server', async () => {
  const npm = spawn('npm', ['start'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, SKIP_BUILD: '1', SEED_CATALOG: '0', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let log = ''
  npm.stdout!.on('data', (d) => (log += String(d)))
  npm.stderr!.on('data', (d) => (log += String(d)))
  const npmExited = new Promise((resolve) => npm.on('exit', resolve))
  // The server's own pid, from its "storefront on" log line (pino writes `pid` on every line).
  const started = Date.now()
  while (!serverPid) {
    const line = log.split('\n').find((l) => l.includes('"msg":"storefront on'))
    if (line) serverPid = (JSON.parse(line) as { pid: number }).pid
    if (Date.now() - started > 90_000) throw new Error(`the server did not start:\n${log}`)
    await new Promise((r) => setTimeout(r, 100))
  }
  const res = await fetch(`http://127.0.0.1:${port}/healthz`)
  expect(res.status).toBe(200)

  npm.kill('SIGTERM')
  await npmExited
  const signalled = Date.now()
  while (alive(serverPid) && Date.now() - signalled < 10_000) await new Promise((r) => setTimeout(r, 100))
  expect(alive(serverPid)).toBe(false)
  await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow()
  expect(log).toContain('shut down')
})
