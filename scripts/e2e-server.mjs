#!/usr/bin/env node
/**
 * The server Playwright starts (playwright.config.ts, webServer): the production build on port 3310
 * with a fresh, empty DATA_DIR, so every run imports the full real catalogue (README.md, "The two
 * commands") and starts
 * with no users (sign-ups and rate-limit counts of an earlier run cannot leak in).
 *
 * The server runs from a snapshot of build/ taken at start (under node_modules/.cache, so package
 * imports still resolve): a `react-router build` during the run (another terminal, an editor's
 * watcher) would otherwise swap the hashed assets under the running server and the pages would lose
 * their CSS and scripts mid-suite.
 *
 * Mail (README.md, "Admins and mail"): the launcher also runs a local SMTP server (`smtp-server`) and hands
 * the app SMTP_URL, so the one-time codes really travel over SMTP through nodemailer. Every message
 * received is written, raw RFC 5322 as sent, to E2E_MAIL_DIR as `<ms timestamp>-<n>-<recipient>.eml`
 * (one file per recipient); tests read the code from there (tests/e2e/helpers.ts `waitForOtp`). The
 * SMTP server accepts anything from anyone: it listens on 127.0.0.1 only and lives as long as the
 * launcher.
 *
 * The demo admin (admin@example.com; README.md, "Admins and mail") is created with the fixed
 * E2E_ADMIN_PASSWORD (passed as ADMIN_PASSWORD), so the admin journeys can sign in and no generated
 * password is printed. Before the server starts, `npm run admin`'s script makes the demo staff member
 * (staff@example.com, role STAFF, the same password; docs/product.md, "Roles and permissions"), so
 * the staff journeys sign in as one and the command line itself is run.
 *
 * The origin `http://127.0.0.1:<E2E_PORT>` is listed in API_ALLOWED_ORIGINS: the suite's pages run on
 * `localhost`, so a page served on 127.0.0.1 is a cross-origin client of the API.
 *
 * The map tiles (MAP_TILE_URL) point at a host that never resolves; the live tracking journey answers
 * them in the browser (tests/e2e/live-tracking.spec.ts, by `page.route`).
 *
 * Env: E2E_PORT (default 3310), E2E_DATA_DIR (default <os tmp>/grocery-e2e), E2E_MAIL_DIR (default
 * <os tmp>/grocery-e2e-mail), E2E_SMTP_PORT (default 2525), E2E_ADMIN_PASSWORD (default in
 * tests/e2e/helpers.ts, kept equal here). Needs build/ (made by `npx react-router build`, which
 * `npm test` runs first). SIGINT/SIGTERM are passed on to the server; when it exits, the SMTP server
 * is closed and the launcher exits with the server's code.
 */
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { SMTPServer } from 'smtp-server'

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..')
const port = process.env.E2E_PORT ?? '3310'
const dataDir = path.resolve(process.env.E2E_DATA_DIR ?? path.join(os.tmpdir(), 'grocery-e2e'))
const runDir = path.join(root, 'node_modules', '.cache', `grocery-e2e-${port}`)
const mailDir = path.resolve(process.env.E2E_MAIL_DIR ?? path.join(os.tmpdir(), 'grocery-e2e-mail'))
const smtpPort = Number(process.env.E2E_SMTP_PORT ?? 2525)
// Same default as tests/e2e/helpers.ts ADMIN_PASSWORD: a test-only value, never a real secret.
const adminPassword = process.env.E2E_ADMIN_PASSWORD ?? 'E2e-Admin-Pass-2024'

if (!fs.existsSync(path.join(root, 'build/server/index.js'))) {
  console.error('build/ is missing: run `npx react-router build` first (npm test does).')
  process.exit(1)
}

fs.rmSync(dataDir, { recursive: true, force: true })
fs.mkdirSync(dataDir, { recursive: true })
fs.rmSync(runDir, { recursive: true, force: true })
fs.mkdirSync(runDir, { recursive: true })
fs.cpSync(path.join(root, 'build'), path.join(runDir, 'build'), { recursive: true })
// Codes of an earlier run must not be read as this run's.
fs.rmSync(mailDir, { recursive: true, force: true })
fs.mkdirSync(mailDir, { recursive: true })

let messageCount = 0
const smtp = new SMTPServer({
  // A local sink for nodemailer: no TLS, no login, every sender and recipient accepted.
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  banner: 'grocery e2e mail sink',
  logger: false,
  onData(stream, session, callback) {
    const chunks = []
    stream.on('data', (chunk) => chunks.push(chunk))
    stream.on('error', callback)
    stream.on('end', () => {
      try {
        const raw = Buffer.concat(chunks)
        const stamp = Date.now()
        for (const rcpt of session.envelope.rcptTo) {
          messageCount += 1
          const safe = rcpt.address.replace(/[^a-z0-9@._+-]/gi, '_')
          // Written under a temporary name and renamed, so a reader never sees half a message.
          const file = path.join(mailDir, `${stamp}-${String(messageCount).padStart(4, '0')}-${safe}.eml`)
          fs.writeFileSync(`${file}.tmp`, raw)
          fs.renameSync(`${file}.tmp`, file)
        }
        callback()
      } catch (err) {
        callback(err)
      }
    })
  },
})
await new Promise((resolve, reject) => {
  smtp.once('error', reject)
  smtp.listen(smtpPort, '127.0.0.1', () => {
    smtp.off('error', reject)
    resolve()
  })
}).catch((err) => {
  console.error(`The e2e SMTP server could not listen on 127.0.0.1:${smtpPort} (${err.code ?? err.message}); set E2E_SMTP_PORT.`)
  process.exit(1)
})
smtp.on('error', (err) => console.error('e2e SMTP server:', err.message))
console.log(`e2e mail: SMTP on 127.0.0.1:${smtpPort}, messages written to ${mailDir}`)

const env = {
  ...process.env,
  NODE_ENV: 'production',
  PORT: port,
  DATA_DIR: dataDir,
  SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
  ADMIN_PASSWORD: adminPassword,
  // The whole suite signs up and in from one address: widen the per-IP budgets (per-email ones stay).
  RATE_LIMIT_IP_MULTIPLIER: '10',
  // A separately hosted client (tests/e2e/cross-origin.spec.ts): a page on 127.0.0.1 calling the API
  // on localhost is another origin to the browser.
  API_ALLOWED_ORIGINS: `http://127.0.0.1:${port}`,
  // Online payment with the test provider (no keys): a short hold, swept every 2 s, so a journey can
  // abandon a payment and see the items back (tests/e2e/payment.spec.ts).
  PAYMENT_PROVIDER: 'test',
  PAYMENT_RESERVATION_SECONDS: process.env.E2E_PAYMENT_RESERVATION_SECONDS ?? '25',
  // The suite runs at any hour: no late-night fee, so no journey's bill depends on the time of day
  // (the fee is proven with a fixed clock by api/modules/payment/fees.test.ts). The handling charge and
  // the small cart fee keep their defaults (docs/commerce-api.md, "Fees"; tests/e2e/fees.spec.ts).
  LATE_NIGHT_SURCHARGE: '0',
  // A tile server, so the order page out for delivery draws its Leaflet map with JavaScript (docs/delivery.md,
  // "Live tracking"). No machine here reaches one: the host is under `.invalid` (RFC 6761: never
  // resolves), and tests/e2e/live-tracking.spec.ts answers the tile requests itself (`page.route`).
  // `{s}` proves the CSP's wildcard host (app/lib/map-tiles.ts `tileImageSource`). No other journey opens an
  // order page while it is out for delivery.
  MAP_TILE_URL: 'https://{s}.tiles.e2e.invalid/{z}/{x}/{y}.png',
  MAP_TILE_ATTRIBUTION: 'Test tiles (e2e)',
}
// Always the embedded PGlite database: a developer's DATABASE_URL must not be seeded by the suite.
delete env.DATABASE_URL
delete env.API_URL
// Cookies stay Secure as in production: Chromium accepts Secure cookies on http://localhost, which
// is what a newcomer's `npm start` gives them, so the suite covers that setup.
delete env.INSECURE_COOKIES

// The demo staff member, made by the admin command line while the folder is still free (one process per PGlite folder).
const staff = spawnSync(
  process.execPath,
  ['--import', 'tsx', path.join(root, 'api/scripts/admin.ts'), '--email', 'staff@example.com', '--role', 'staff', '--name', 'Demo Staff'],
  { cwd: root, stdio: 'inherit', env },
)
if (staff.status !== 0) {
  console.error('The e2e staff account could not be made (npm run admin).')
  process.exit(1)
}

// server.ts reads build/ relative to the working directory; everything else it finds from its own path.
const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'server.ts')], { cwd: runDir, stdio: 'inherit', env })
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal))
child.on('exit', (code, signal) => {
  // Open connections (nodemailer keeps none between messages) would hold close() up; do not wait long.
  const done = () => process.exit(code ?? (signal ? 1 : 0))
  smtp.close(done)
  setTimeout(done, 2000).unref()
})
