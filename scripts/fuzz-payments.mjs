#!/usr/bin/env node
/**
 * `npm run fuzz:payments -- [--runs 2000] [--seed N --path P [--replay R]]`: the payment model test
 * (api/modules/payment/model.test.ts; docs/payments.md, "The payment model test") with more runs
 * than `npm test` reaches in its time budget and no time limit, on PGlite, or on PostgreSQL when
 * TEST_DATABASE_URL is set (where the concurrent commands race for real). A failure prints the
 * seed, path and replayPath; pass them back to replay the shrunk counterexample alone.
 */
import { spawnSync } from 'node:child_process'
import { parseArgs } from 'node:util'

const options = {
  runs: { type: 'string', default: '2000' },
  seed: { type: 'string' },
  path: { type: 'string' },
  replay: { type: 'string' },
}
const { values: v } = parseArgs({ options })
const valid =
  /^\d+$/.test(v.runs) &&
  (v.seed === undefined || /^-?\d+$/.test(v.seed)) &&
  (v.path === undefined || /^[\d:]+$/.test(v.path)) &&
  (v.replay === undefined || /^[\w:+/=-]+$/.test(v.replay))
if (!valid) {
  console.error('Usage: npm run fuzz:payments -- [--runs N] [--seed N --path P [--replay R]]')
  process.exit(2)
}
const given = { PAYMENT_FUZZ_SEED: v.seed, PAYMENT_FUZZ_PATH: v.path, PAYMENT_FUZZ_REPLAY: v.replay }
const env = { ...process.env, PAYMENT_FUZZ_RUNS: v.runs, ...Object.fromEntries(Object.entries(given).filter(([, x]) => x !== undefined)) }
const result = spawnSync('npx', ['vitest', 'run', 'api/modules/payment/model.test.ts'], { stdio: 'inherit', env })
process.exit(result.status ?? 1)
