#!/usr/bin/env node
/**
 * `npm test`: every test, in order.
 *  0. static checks: formatting (Prettier), lint and import boundaries (ESLint), types (tsc), cited
 *     documents and headings (scripts/check-citations.ts), no import cycles (dpdm, type-only imports
 *     included);
 *  1. vitest: unit tests and API integration tests on PGlite;
 *  2. vitest again on the API integration tests against PostgreSQL when TEST_DATABASE_URL is set;
 *  3. the production build (failing on a warning in its output), then, with TEST_DATABASE_URL, the scale-out test (two server processes on
 *     PostgreSQL behind a round-robin proxy, tests/scale), then Playwright in Debian's chromium (each
 *     flow with JavaScript on and off).
 * Exits non-zero at the first failing stage and ends with a plain "N passed, N failed" line.
 */
import { spawnSync } from 'node:child_process'

const stages = []
function run(name, cmd, args, env = {}) {
  console.log(`\n=== ${name} ===`)
  const started = Date.now()
  const result = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } })
  const ok = result.status === 0
  stages.push({ name, ok, seconds: Math.round((Date.now() - started) / 1000) })
  return ok
}

/**
 * Lines of the build's output a newcomer's first `npm start` (which builds) would take for an error:
 * deprecation notices, warnings, and Rolldown's coded notices (`[INEFFECTIVE_DYNAMIC_IMPORT]`,
 * `[PLUGIN_TIMINGS]`…). README.md, "The two commands", promises a start log without them.
 */
const BUILD_NOISE = [/deprecat/i, /\bwarn(ing)?\b/i, /\[[A-Z][A-Z_]{3,}\]/]

/** Runs the build like `run`, then fails the stage when its output holds a BUILD_NOISE line. */
function runBuild(name) {
  console.log(`\n=== ${name} ===`)
  const started = Date.now()
  const result = spawnSync('npm', ['run', '--silent', 'build'], { stdio: ['inherit', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 })
  const output = `${result.stdout}${result.stderr}`
  process.stdout.write(output)
  // eslint-disable-next-line no-control-regex -- colour codes are stripped before matching
  const noisy = output.split('\n').filter((line) => BUILD_NOISE.some((re) => re.test(line.replace(/\x1b\[[0-9;]*m/g, ''))))
  if (noisy.length > 0) console.log(`\nthe build printed what reads as an error:\n${noisy.join('\n')}`)
  const ok = result.status === 0 && noisy.length === 0
  stages.push({ name, ok, seconds: Math.round((Date.now() - started) / 1000) })
  return ok
}

const pgUrl = process.env.TEST_DATABASE_URL
const only = process.argv[2] // optional: static | unit | pg | e2e

let ok = true
if (!only || only === 'static') {
  ok = run('static checks: formatting', 'npx', ['prettier', '--check', '--log-level', 'warn', '**/*.{ts,tsx,mjs,js,css}']) && ok
  ok = ok && run('static checks: lint', 'npx', ['eslint', '.'])
  ok = ok && run('static checks: types', 'npm', ['run', '--silent', 'typecheck'])
  ok = ok && run('static checks: citations', 'npx', ['tsx', 'scripts/check-citations.ts'])
  ok = ok && run('static checks: import cycles', 'npm', ['run', '--silent', 'cycles'])
}
if (ok && (!only || only === 'unit')) ok = run('vitest (unit + API on PGlite)', 'npx', ['vitest', 'run'], { TEST_DATABASE_URL: '' }) && ok
if (ok && (!only || only === 'pg')) {
  if (pgUrl) ok = run('vitest (API on PostgreSQL)', 'npx', ['vitest', 'run', 'api/'], { TEST_DATABASE_URL: pgUrl }) && ok
  else console.log('\nTEST_DATABASE_URL is not set: skipping the PostgreSQL run of the API tests')
}
if (ok && (!only || only === 'e2e')) {
  ok = runBuild('build (and its output free of warnings)') && ok
  if (ok && pgUrl)
    ok =
      run('scale-out (two instances on PostgreSQL)', 'npx', ['vitest', 'run', '--config', 'tests/scale/vitest.config.ts'], {
        TEST_DATABASE_URL: pgUrl,
      }) && ok
  if (ok) ok = run('playwright (chromium, JavaScript on and off)', 'npx', ['playwright', 'test']) && ok
}

console.log('\n=== summary ===')
for (const s of stages) console.log(`${s.ok ? 'PASS' : 'FAIL'}  ${s.name}  (${s.seconds}s)`)
const passed = stages.filter((s) => s.ok).length
console.log(`${passed} passed, ${stages.length - passed} failed`)
process.exit(ok ? 0 : 1)
