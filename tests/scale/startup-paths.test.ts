/**
 * The start-up log names the folders the server really uses (README.md, "Configuration": DATA_DIR):
 * `npm start`'s script (scripts/start.mjs) started from another directory with a relative DATA_DIR
 * opens that folder under the starting directory, and its "storefront on" line names the data
 * folder, the generated secrets file, the PGlite folder, the uploads folder and the dev mail outbox,
 * each checked against the disk: the database files, the secrets, and a one-time-code mail landing
 * in the outbox. Needs a build (`npm run build`); SKIP_BUILD=1 serves it as it is.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, expect, it } from 'vitest'

const root = path.resolve(import.meta.dirname, '../..')
const port = Number(process.env.STARTUP_PATHS_PORT ?? 3492)
const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'grocery-startup-'))
let starter: ReturnType<typeof spawn> | undefined

afterAll(async () => {
  if (starter && starter.exitCode === null) {
    const exited = new Promise((resolve) => starter!.on('exit', resolve))
    starter.kill('SIGTERM')
    await exited
  }
  fs.rmSync(cwd, { recursive: true, force: true })
})

/** The JSON log lines printed so far whose `msg` starts with `prefix`. */
const linesOf = (log: string, prefix: string) =>
  log
    .split('\n')
    .filter((l) => l.startsWith('{') && l.includes(`"msg":"${prefix}`))
    .map((l) => JSON.parse(l) as Record<string, unknown>)

it('every path the start-up log prints is the folder it means', async () => {
  starter = spawn(process.execPath, [path.join(root, 'scripts/start.mjs')], {
    cwd,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      DATA_DIR: 'state',
      SKIP_BUILD: '1',
      SEED_CATALOG: '0',
      LOG_LEVEL: 'info',
      JWT_SECRET: '',
      SESSION_SECRET: '',
      TEST_PAYMENT_SECRET: '',
      DATABASE_URL: '',
      SMTP_URL: '',
      S3_BUCKET: '',
      PAYMENT_PROVIDER: 'test',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let log = ''
  starter.stdout!.on('data', (d) => (log += String(d)))
  starter.stderr!.on('data', (d) => (log += String(d)))
  const started = Date.now()
  while (linesOf(log, 'storefront on').length === 0) {
    if (starter.exitCode !== null || Date.now() - started > 120_000) throw new Error(`the server did not start:\n${log}`)
    await new Promise((r) => setTimeout(r, 100))
  }
  const line = linesOf(log, 'storefront on')[0]!
  const dataDir = path.join(fs.realpathSync(cwd), 'state')
  // The folder under the directory it was started from, not under the repository.
  expect(fs.realpathSync(String(line.dataDir))).toBe(dataDir)
  expect(line).toMatchObject({
    secrets: path.join(String(line.dataDir), 'secrets.json'),
    pglite: path.join(String(line.dataDir), 'pglite'),
    uploads: path.join(String(line.dataDir), 'uploads'),
    outbox: path.join(String(line.dataDir), 'outbox'),
  })
  // Each is what it says: the generated secrets, the embedded database's files.
  expect(Object.keys(JSON.parse(fs.readFileSync(String(line.secrets), 'utf8'))).sort()).toEqual([
    'jwtSecret',
    'sessionSecret',
    'testPaymentSecret',
  ])
  expect(fs.existsSync(path.join(String(line.pglite), 'PG_VERSION'))).toBe(true)
  expect(log).toContain(`using the generated ones in ${line.secrets}`)
  // A one-time code mailed without SMTP_URL lands in the outbox the log named.
  const res = await fetch(`http://127.0.0.1:${port}/api/user/forgot-password`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@example.com' }),
  })
  expect(res.status).toBe(200)
  const mailed = Date.now()
  while (!fs.existsSync(String(line.outbox)) || fs.readdirSync(String(line.outbox)).length === 0) {
    if (Date.now() - mailed > 10_000) throw new Error(`no mail in ${line.outbox}:\n${log}`)
    await new Promise((r) => setTimeout(r, 100))
  }
  expect(fs.readdirSync(String(line.outbox))[0]).toMatch(/admin@example\.com\.eml$/)
})
