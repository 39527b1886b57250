/**
 * An API host alone (`API_ONLY=1`, docs/decisions/0076-api-ahead-of-express.md): server.ts serves the
 * API, with the headers every answer of the origin carries, and the health routes, but no page.
 * Needs a build like the other tests here (`npm test` runs it after the build).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, expect, it } from 'vitest'

const root = path.resolve(import.meta.dirname, '../..')
const port = Number(process.env.API_ONLY_PORT ?? 3479)
const base = `http://127.0.0.1:${port}`
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'grocery-api-only-'))
let server: ChildProcess | null = null

afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server!.on('exit', resolve))
    server.kill('SIGTERM')
    await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))])
    server.kill('SIGKILL')
  }
  fs.rmSync(dataDir, { recursive: true, force: true })
})

it('serves the API and the health routes, and no page', async () => {
  server = spawn(process.execPath, ['--import', 'tsx', 'server.ts'], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      API_ONLY: '1',
      PORT: String(port),
      DATA_DIR: dataDir,
      SEED_CATALOG: '0',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  const started = Date.now()
  for (;;) {
    const ready = await fetch(`${base}/readyz`).then(
      (res) => res.status === 200,
      () => false,
    )
    if (ready) break
    if (Date.now() - started > 120_000) throw new Error('the API host did not get ready')
    await new Promise((r) => setTimeout(r, 200))
  }

  const api = await fetch(`${base}/api/category/get`, { headers: { 'accept-encoding': 'gzip' } })
  expect(api.status).toBe(200)
  expect(((await api.json()) as { success: boolean }).success).toBe(true)
  // Answered ahead of Express, with the middleware Express runs for every request.
  expect(api.headers.get('x-frame-options')).toBe('DENY')
  expect(api.headers.get('x-content-type-options')).toBe('nosniff')
  expect(api.headers.get('vary')).toContain('Accept-Encoding')
  // A method the site never answers (api/lib/methods.ts) is still Express's 405, with its `Allow`.
  const webdav = await fetch(`${base}/api/category/get`, { method: 'PROPFIND' })
  expect(webdav.status).toBe(405)
  expect(webdav.headers.get('allow')).toBe('GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS')
  expect((await fetch(`${base}/healthz`)).status).toBe(200)

  for (const page of ['/', '/search?q=milk', '/cart']) {
    const res = await fetch(`${base}${page}`, { redirect: 'manual' })
    expect(res.status, page).toBe(404)
  }
})
