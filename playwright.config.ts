/**
 * Playwright: the browser journeys (README.md, "The two commands"), in Debian's chromium
 * (docs/stack.md, "Playwright and Chromium": never `npx playwright install`). Every test runs twice, once per project:
 * "js" (JavaScript on) and "no-js" (JavaScript off, the server-rendered forms and links alone).
 *
 * The web server is scripts/e2e-server.mjs: a fresh DATA_DIR and the production build (made by
 * `npm test` before Playwright, scripts/test-all.mjs), so the full real catalogue is imported on start.
 */
import { defineConfig, devices } from '@playwright/test'

// E2E_PORT lets two checkouts run their suites side by side (scripts/e2e-server.mjs reads it too).
const PORT = Number(process.env.E2E_PORT ?? 3310)
const baseURL = `http://localhost:${PORT}`

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

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  // Two cores: one for the server, one for the browser.
  workers: 1,
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
      use: { ...devices['Desktop Chrome'], javaScriptEnabled: true, launchOptions },
    },
    {
      name: 'no-js',
      use: { ...devices['Desktop Chrome'], javaScriptEnabled: false, launchOptions },
    },
  ],
  webServer: {
    command: 'node scripts/e2e-server.mjs',
    // Ready, not only live: /readyz answers 200 after the start's warm-up renders (docs/scale-out.md, "Start-up").
    url: `${baseURL}/readyz`,
    // The first start imports the full catalogue (8,208 products with their artwork).
    timeout: 180_000,
    reuseExistingServer: !process.env.CI,
    stdout: 'pipe',
    stderr: 'pipe',
  },
})
