#!/usr/bin/env node
/**
 * `npm start`: serves the production build on PORT (default 3000). Builds first when build/ is
 * missing or older than the app's sources, so `npm ci && npm start` works on a fresh clone; then runs
 * server.ts under NODE_ENV=production (tsx compiles the server's TypeScript on load).
 *
 * Signals: SIGTERM and SIGINT are passed to the child (the build, then the server, which drains and
 * exits, api/lib/graceful.ts), and this script exits with it. `npm start` runs this script under
 * `sh -c`, and npm passes a SIGTERM only to that shell, which dies of it without passing it on: this
 * script then sees its parent gone (a new `process.ppid`) and stops the server as for a SIGTERM, so
 * `kill <npm's pid>` (a supervisor, `docker stop` of an image whose command is `npm start`) ends the
 * server instead of leaving it running and holding the port.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..')
// A relative DATA_DIR means the folder under the directory the operator started from, not under the
// repository this script moves to: resolved before the move, so the server opens (and its start-up
// log names) that folder.
if (process.env.DATA_DIR) process.env.DATA_DIR = path.resolve(process.env.DATA_DIR)
process.chdir(root)

function newestMtime(dir) {
  let newest = 0
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name)
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : fs.statSync(full).mtimeMs)
  }
  return newest
}

const serverBuild = path.join(root, 'build/server/index.js')
// The app's bundle is built from app/, public/ and what it shares with the API (contract/, server-shared/).
const sources = Math.max(...['app', 'public', 'contract', 'server-shared'].map((dir) => newestMtime(path.join(root, dir))))
const stale = !fs.existsSync(serverBuild) || fs.statSync(serverBuild).mtimeMs < sources

/**
 * The running child (the build, then the server), whether it leads its own process group (the build:
 * npm, a shell and the build's processes, stopped together), and the signal that asked us to stop.
 */
let current = null
let currentIsGroup = false
let stopping = null
function stop(signal) {
  if (stopping) return
  stopping = signal
  if (!current || current.exitCode !== null) return
  if (currentIsGroup) process.kill(-current.pid, signal)
  else current.kill(signal)
}
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => stop(signal))
const parent = process.ppid
setInterval(() => {
  if (process.ppid !== parent) stop('SIGTERM')
}, 500).unref()

/** Runs `command` as the current child; resolves with its exit code (1 when a signal ended it). */
function run(command, args, { group = false, ...options } = {}) {
  current = spawn(command, args, { stdio: 'inherit', detached: group, ...options })
  currentIsGroup = group
  return new Promise((resolve) => current.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))))
}

if (stale && process.env.SKIP_BUILD !== '1') {
  // The same build as `npm run build`: the bundle, the API reference's script and the precompressed
  // assets (scripts/precompress.mjs), so `npm start` serves what a production image serves.
  console.log('Building the storefront (npm run build, the first start only)…')
  const built = await run('npm', ['run', '--silent', 'build'], { group: process.platform !== 'win32' })
  if (built !== 0 || stopping) process.exit(built || 1)
}

if (!stopping)
  process.exit(await run(process.execPath, ['--import', 'tsx', 'server.ts'], { env: { ...process.env, NODE_ENV: 'production' } }))
