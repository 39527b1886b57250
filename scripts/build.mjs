#!/usr/bin/env node
/**
 * `npm run build`: the production build, in three steps, each timed:
 *  1. `react-router build`: the browser bundle and the server bundle (build/);
 *  2. scripts/vendor-scalar.mjs: the API reference page's script (build/vendor);
 *  3. scripts/precompress.mjs: Zopfli gzip and brotli copies of every script and stylesheet.
 * Exits with the first failing step's code; ends with one line of the steps' durations.
 *
 * Quiet on purpose: a first `npm start` shows this output to newcomers, and a warning they cannot act
 * on reads as an error. React Router 7's own internal Vite servers pass `envFile: false`, which Vite 8
 * reports as deprecated ("The `envFile` option is deprecated, please use `envDir: false` instead."),
 * three times per build; no setting of ours reaches those servers (React Router 8 passes
 * `envDir: false` instead). That exact line, and only it, is left out of step 1's output.
 */
import { spawn } from 'node:child_process'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '..')
/** React Router's CLI, run by node itself (no shell, on every platform). */
const reactRouterCli = path.join(root, 'node_modules/@react-router/dev/bin.js')
/** Lines of step 1's output that are dropped: the library's own deprecation notice, nothing else. */
const DROPPED = ['The `envFile` option is deprecated, please use `envDir: false` instead.']

/**
 * Runs `command`; with `filter`, its output is passed on line by line without the DROPPED lines
 * (colours kept when our own output is a terminal). Resolves with the exit code.
 */
function run(command, args, filter = false) {
  const env = { ...process.env }
  if (filter && process.stdout.isTTY && !('NO_COLOR' in env)) env.FORCE_COLOR ??= '1'
  const child = spawn(command, args, { cwd: root, env, stdio: filter ? ['inherit', 'pipe', 'pipe'] : 'inherit' })
  if (filter) {
    for (const [from, to] of [
      [child.stdout, process.stdout],
      [child.stderr, process.stderr],
    ]) {
      let pending = ''
      from.setEncoding('utf8')
      from.on('data', (chunk) => {
        const lines = (pending + chunk).split('\n')
        pending = lines.pop()
        for (const line of lines) if (!DROPPED.some((dropped) => line.includes(dropped))) to.write(`${line}\n`)
      })
      from.on('end', () => {
        if (pending && !DROPPED.some((dropped) => pending.includes(dropped))) to.write(pending)
      })
    }
  }
  for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => child.kill(signal))
  return new Promise((resolve) => child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0))))
}

const steps = [
  ['bundle', () => run(process.execPath, [reactRouterCli, 'build'], true)],
  ['API reference script', () => run(process.execPath, ['scripts/vendor-scalar.mjs'])],
  ['precompression', () => run(process.execPath, ['scripts/precompress.mjs'])],
]
const took = []
for (const [name, step] of steps) {
  const started = Date.now()
  const code = await step()
  if (code !== 0) process.exit(code)
  took.push(`${name} ${((Date.now() - started) / 1000).toFixed(1)} s`)
}
console.log(`build done: ${took.join(', ')}`)
