#!/usr/bin/env node
/**
 * `npm start`: serves the production build on PORT (default 3000). Builds first when build/ is
 * missing or older than the app's sources, so `npm ci && npm start` works on a fresh clone; then runs
 * server.ts under NODE_ENV=production (tsx compiles the server's TypeScript on load).
 */
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..')
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
// The app's bundle is built from app/, public/ and the rules it shares with the API (contract/).
const sources = Math.max(...['app', 'public', 'contract'].map((dir) => newestMtime(path.join(root, dir))))
const stale = !fs.existsSync(serverBuild) || fs.statSync(serverBuild).mtimeMs < sources
if (stale && process.env.SKIP_BUILD !== '1') {
  // The same build as `npm run build`: the bundle, the API reference's script and the precompressed
  // assets (scripts/precompress.mjs), so `npm start` serves what a production image serves.
  console.log('Building the storefront (npm run build)…')
  const built = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' })
  if (built.status !== 0) process.exit(built.status ?? 1)
}

const child = spawn(process.execPath, ['--import', 'tsx', 'server.ts'], {
  stdio: 'inherit',
  env: { ...process.env, NODE_ENV: 'production' },
})
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal))
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
