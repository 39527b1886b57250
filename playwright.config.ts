/**
 * Playwright: the browser journeys (README.md, "The two commands"), in Debian's chromium
 * (docs/stack.md, "Playwright and Chromium": never `npx playwright install`). Every test runs twice, once per project:
 * "js" (JavaScript on) and "no-js" (JavaScript off, the server-rendered forms and links alone).
 *
 * The Lighthouse check runs alone afterwards, in a third project, "quiet", and the import under a
 * shopper's load after it, in a fourth, "quiet-import".
 *
 * The web servers are scripts/e2e-server.mjs, one per worker (tests/e2e/servers.ts): each a fresh
 * DATA_DIR and the production build (made by `npm test` before Playwright, scripts/test-all.mjs), so
 * the full real catalogue is imported on start.
 */
import { defineConfig, devices } from '@playwright/test'
import { E2E_SERVERS, e2eServer, ownServer } from './tests/e2e/servers.ts'

// E2E_PORT lets two checkouts run their suites side by side (scripts/e2e-server.mjs reads it too).
// Each worker drives its own server (tests/e2e/servers.ts); this config is loaded again in every
// worker process, where ownServer() is that worker's.
const baseURL = ownServer().baseURL

// Without the background-networking flags Chromium keeps trying to reach outside hosts (docs/stack.md, "Playwright and Chromium").
// Shared with the Lighthouse runs (scripts/lighthouse.ts), so both drive the same browser the same way.
export const launchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-dev-shm-usage',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
}

/** Specs timed on the main thread (Lighthouse's Total Blocking Time): run in the "quiet" project only. */
const LIGHTHOUSE_SPECS = /lighthouse\.spec\.ts$/
/** The import timed under a shopper's load: run in the "quiet-import" project only, after the Lighthouse check. */
const IMPORT_LOAD_SPECS = /import-under-load\.spec\.ts$/
/** Every timed test file, kept out of the two parallel projects. */
const QUIET_SPECS = [LIGHTHOUSE_SPECS, IMPORT_LOAD_SPECS]

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  // One worker per server: a worker drives one server (its browser and the server take turns on a
  // core), so two pairs keep both cores of the CI machine busy (docs/decisions/0069-one-e2e-server-per-worker.md).
  workers: E2E_SERVERS,
  // On CI a failed test runs once more, and the list reporter names it "flaky" when the retry passes:
  // a timing race on a loaded 2-core machine must not refuse a whole run, and must still be seen and
  // fixed (docs/decisions/0063-one-retry-on-ci.md). Locally a failure is a failure.
  retries: process.env.CI ? 1 : 0,
  reporter: 'list',
  timeout: 30_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL,
    locale: 'en-IN',
    // A trace records every action's DOM snapshot and screenshots, and costs about a fifth of the
    // suite's time (docs/stack.md, "Playwright and Chromium"): kept for a failure only with E2E_TRACE=1.
    // On a retry the trace is recorded (only the retried test pays for it), so a flaky failure leaves one.
    trace: process.env.E2E_TRACE === '1' ? 'retain-on-failure' : 'on-first-retry',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'js',
      testIgnore: QUIET_SPECS,
      use: { ...devices['Desktop Chrome'], javaScriptEnabled: true, launchOptions },
    },
    {
      name: 'no-js',
      testIgnore: QUIET_SPECS,
      use: { ...devices['Desktop Chrome'], javaScriptEnabled: false, launchOptions },
    },
    {
      // Lighthouse's main-thread timings need a machine doing nothing else: it runs after the two
      // projects above have finished, alone (docs/decisions/0069-one-e2e-server-per-worker.md).
      name: 'quiet',
      testMatch: LIGHTHOUSE_SPECS,
      dependencies: ['js', 'no-js'],
      use: { ...devices['Desktop Chrome'], javaScriptEnabled: true, launchOptions },
    },
    {
      // The 10,000-row import times /healthz and shoppers' pages: alone too, and after Lighthouse, whose
      // pages it would otherwise change (tests/e2e/import-under-load.spec.ts).
      name: 'quiet-import',
      testMatch: IMPORT_LOAD_SPECS,
      dependencies: ['quiet'],
      use: { ...devices['Desktop Chrome'], javaScriptEnabled: true, launchOptions },
    },
  ],
  webServer: Array.from({ length: E2E_SERVERS }, (_, index) => {
    const server = e2eServer(index)
    return {
      command: 'node scripts/e2e-server.mjs',
      env: {
        E2E_PORT: String(server.port),
        E2E_SMTP_PORT: String(server.smtpPort),
        E2E_DATA_DIR: server.dataDir,
        E2E_MAIL_DIR: server.mailDir,
      },
      // Ready, not only live: /readyz answers 200 after the start's warm-up renders (docs/scale-out.md, "Start-up").
      url: `${server.baseURL}/readyz`,
      // The first start imports the full catalogue (8,208 products with their artwork), both servers at once.
      timeout: 300_000,
      reuseExistingServer: !process.env.CI,
      stdout: 'pipe' as const,
      stderr: 'pipe' as const,
    }
  }),
})
