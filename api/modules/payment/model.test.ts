/**
 * A model-based test of the payment state machine (docs/payments.md, "The payment model test"):
 * fast-check generates sequences of shopper, admin, provider and job-runner commands
 * (./model/commands.ts) — online payments started and paid or failed, callbacks, webhooks delivered
 * out of order, duplicated, replayed and in concurrent copies, mismatched captures, refunds settled
 * processed or failed, provider outages, time passing, sweeps run by several runners at once,
 * cancellations and line refunds — against the real API app on a fresh database (PGlite, or
 * PostgreSQL with TEST_DATABASE_URL), and checks every invariant (./model/invariants.ts) after every
 * step by reading the database.
 *
 * Budgets: PostgreSQL stops after 50 s, PGlite after 15 s (both at most `numRuns` runs); `npm run
 * fuzz:payments` runs PAYMENT_FUZZ_RUNS runs with no time limit. On failure fast-check prints the
 * seed, the path and the shrunk commands; replay one with PAYMENT_FUZZ_SEED, PAYMENT_FUZZ_PATH and
 * PAYMENT_FUZZ_REPLAY (the `replayPath` printed in the counterexample).
 */
import fc from 'fast-check'
import { afterAll, beforeAll, it } from 'vitest'
import { commandCounts, paymentCommands } from './model/commands.ts'
import { createHarness, newWorld, type Harness } from './model/world.ts'

const onPostgres = Boolean(process.env.TEST_DATABASE_URL)
const fuzzRuns = process.env.PAYMENT_FUZZ_RUNS ? Number(process.env.PAYMENT_FUZZ_RUNS) : undefined
/** The time budget (ms) of the normal test run; none for a fuzz run. */
const budgetMs = fuzzRuns ? undefined : onPostgres ? 50_000 : 15_000
const seed = process.env.PAYMENT_FUZZ_SEED ? Number(process.env.PAYMENT_FUZZ_SEED) : undefined
const path = process.env.PAYMENT_FUZZ_PATH || undefined
const replayPath = process.env.PAYMENT_FUZZ_REPLAY || undefined
const MAX_COMMANDS = 50

let h: Harness
beforeAll(async () => {
  h = await createHarness()
  h.ignoredInvariants = new Set((process.env.PAYMENT_MODEL_IGNORE ?? '').split(',').filter(Boolean))
})
afterAll(async () => {
  // What the budget reached, for the CI log.
  console.log(`payment model: ${runs} runs; commands run: ${[...commandCounts].map(([k, n]) => `${k} ${n}`).join(', ')}`)
  await h?.close()
})
let runs = 0

it(
  'no sequence of payment events breaks an invariant',
  async () => {
    await fc.assert(
      fc.asyncProperty(paymentCommands(MAX_COMMANDS, replayPath), async (commands) => {
        const world = await newWorld(h, ++runs)
        await fc.asyncModelRun(() => ({ model: world, real: h }), commands)
      }),
      {
        numRuns: fuzzRuns ?? 1000,
        seed,
        path,
        endOnFailure: Boolean(path),
        plugins: budgetMs ? [fc.interruptAfterTimeLimit(budgetMs)] : [],
      },
    )
  },
  fuzzRuns ? 24 * 3600_000 : (budgetMs ?? 0) + 120_000,
)
