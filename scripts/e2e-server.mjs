#!/usr/bin/env node
/**
 * The server Playwright starts (playwright.config.ts, webServer): the production build on port 3310
 * with a fresh, empty DATA_DIR, so every run imports the full real catalogue (issue 2) and starts
 * with no users (sign-ups and rate-limit counts of an earlier run cannot leak in).
 *
 * The server runs from a snapshot of build/ taken at start (under node_modules/.cache, so package
 * imports still resolve): a `react-router build` during the run (another terminal, an editor's
 * watcher) would otherwise swap the hashed assets under the running server and the pages would lose
 * their CSS and scripts mid-suite.
 *
 * Env: E2E_PORT (default 3310), E2E_DATA_DIR (default <os tmp>/grocery-e2e). Needs build/ (made by
 * `npx react-router build`, which `npm test` runs first). SIGINT/SIGTERM are passed on to the server.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..')
const port = process.env.E2E_PORT ?? '3310'
const dataDir = path.resolve(process.env.E2E_DATA_DIR ?? path.join(os.tmpdir(), 'grocery-e2e'))
const runDir = path.join(root, 'node_modules', '.cache', `grocery-e2e-${port}`)

if (!fs.existsSync(path.join(root, 'build/server/index.js'))) {
  console.error('build/ is missing: run `npx react-router build` first (npm test does).')
  process.exit(1)
}

fs.rmSync(dataDir, { recursive: true, force: true })
fs.mkdirSync(dataDir, { recursive: true })
fs.rmSync(runDir, { recursive: true, force: true })
fs.mkdirSync(runDir, { recursive: true })
fs.cpSync(path.join(root, 'build'), path.join(runDir, 'build'), { recursive: true })

const env = { ...process.env, NODE_ENV: 'production', PORT: port, DATA_DIR: dataDir }
// Always the embedded PGlite database: a developer's DATABASE_URL must not be seeded by the suite.
delete env.DATABASE_URL
delete env.API_URL
// Cookies stay Secure as in production: Chromium accepts Secure cookies on http://localhost, which
// is what a newcomer's `npm start` gives them, so the suite covers that setup.
delete env.INSECURE_COOKIES

// server.ts reads build/ relative to the working directory; everything else it finds from its own path.
const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'server.ts')], { cwd: runDir, stdio: 'inherit', env })
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal))
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
