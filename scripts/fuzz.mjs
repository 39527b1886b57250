#!/usr/bin/env node
/**
 * `npm run fuzz -- [--runs 50000] [--seed 123]`: the API fuzzer (api/fuzz.test.ts) with more inputs
 * than `npm test` sends (3,000), on PGlite, or on PostgreSQL when TEST_DATABASE_URL is set.
 * Exits with vitest's code; the fuzzer prints the status counts and, on failure, the seed and path
 * that replay the counterexample.
 */
import { spawnSync } from 'node:child_process'
import { parseArgs } from 'node:util'

const { values } = parseArgs({ options: { runs: { type: 'string', default: '50000' }, seed: { type: 'string' } } })
if (!/^\d+$/.test(values.runs) || (values.seed !== undefined && !/^-?\d+$/.test(values.seed))) {
  console.error('Usage: npm run fuzz -- [--runs N] [--seed N]')
  process.exit(2)
}
const env = { ...process.env, FUZZ_RUNS: values.runs, ...(values.seed !== undefined ? { FUZZ_SEED: values.seed } : {}) }
const result = spawnSync('npx', ['vitest', 'run', 'api/fuzz.test.ts'], { stdio: 'inherit', env })
process.exit(result.status ?? 1)
