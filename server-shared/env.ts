/**
 * Reading the environment, for the API (api/config.ts) and the BFF (app/.server/env.ts) alike: each
 * side declares its variables as one zod schema (README.md, "Configuration", lists every variable,
 * its default and meaning), parses `process.env` once at start-up and fails with one `EnvError`
 * whose message names every bad variable and why, instead of stopping at the first. Rules that read
 * several variables at once (the S3 settings, the payment keys, the invoice seller) run as groups
 * whose errors join the same message.
 */
import fs from 'node:fs'
import path from 'node:path'
import { randomBytes } from 'node:crypto'
import { z } from 'zod'

/** One refused variable: its name and why. */
export interface EnvIssue {
  variable: string
  message: string
}

/** The environment failed validation; `issues` lists each bad variable, the message names them all. */
export class EnvError extends Error {
  declare readonly issues: EnvIssue[]
  constructor(issues: EnvIssue[]) {
    super(
      `Invalid environment (see README.md, "Configuration"):\n${issues.map((issue) => `  - ${issue.variable}: ${issue.message}`).join('\n')}`,
    )
    this.name = 'EnvError'
    // Not enumerable, so Node's report of an uncaught EnvError is its message alone, not the list twice.
    Object.defineProperty(this, 'issues', { value: issues, enumerable: false })
    // Uncaught at start, only the message is printed: a stack into the config reader says nothing more.
    this.stack = `${this.name}: ${this.message}`
  }
}

/**
 * A variable read by `parse` from its text; unset or empty is `undefined` (the caller's default).
 * `parse` throws an Error saying why a value is refused; its message becomes the variable's issue.
 */
export function variable<T>(parse: (raw: string) => T) {
  return z
    .string()
    .optional()
    .transform((raw, ctx): T | undefined => {
      if (raw === undefined || raw === '') return undefined
      try {
        return parse(raw)
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: err instanceof Error ? err.message : String(err) })
        return z.NEVER
      }
    })
}

/** A whole number from `min` to `max` (digits only: no sign, point or exponent). */
export function wholeNumber(min: number, max: number = 999_999_999) {
  return variable((raw) => {
    if (!/^\d{1,9}$/.test(raw) || Number(raw) < min || Number(raw) > max)
      throw new Error(`must be a whole number from ${min} to ${max}, got "${raw}"`)
    return Number(raw)
  })
}

/** A positive number (a multiplier such as `RATE_LIMIT_IP_MULTIPLIER`). */
export const positiveNumber = variable((raw) => {
  const value = Number(raw)
  if (!Number.isFinite(value) || value <= 0) throw new Error(`must be a number above 0, got "${raw}"`)
  return value
})

/** An absolute http(s) URL, any trailing "/" removed. */
export const httpUrl = variable((raw) => {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new Error(`must be an http(s) URL, got "${raw}"`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`must be an http(s) URL, got "${raw}"`)
  return raw.replace(/\/$/, '')
})

/** Any text; unset or empty is `undefined`. */
export const text = variable((raw) => raw)

/** pino's levels (getpino.io, "API: logger.level"), `silent` for none. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]

/** `LOG_LEVEL`: one of pino's levels. */
export const logLevel = variable((raw): LogLevel => {
  if (!(LOG_LEVELS as readonly string[]).includes(raw)) throw new Error(`must be one of ${LOG_LEVELS.join(', ')}, got "${raw}"`)
  return raw as LogLevel
})

/**
 * The log level of a configuration: `LOG_LEVEL` when set, else `silent` under a test runner
 * (`NODE_ENV=test`, or `VITEST`, which Vitest sets in its workers and the servers they start), else `info`.
 */
export function logLevelOf(set: LogLevel | undefined, nodeEnv: string | undefined, source: NodeJS.ProcessEnv): LogLevel {
  return set ?? (nodeEnv === 'test' || source.VITEST ? 'silent' : 'info')
}

/** `1` (or `true`) is on, `0` (or `false`) off; anything else is refused. */
export const flag = variable((raw) => {
  if (raw === '1' || raw === 'true') return true
  if (raw === '0' || raw === 'false') return false
  throw new Error(`must be 1 or 0, got "${raw}"`)
})

/**
 * True when `url` is only an http(s) origin (RFC 6454 §4): no credentials, path, query or fragment
 * (a trailing "/" is allowed). The one shape check of `PUBLIC_URL` and of `API_ALLOWED_ORIGINS`
 * (api/lib/cors.ts `parseOrigin`).
 */
export function isBareOrigin(url: URL): boolean {
  return (
    /^https?:$/.test(url.protocol) &&
    !url.username &&
    !url.password &&
    !url.search &&
    !url.hash &&
    (url.pathname === '/' || url.pathname === '')
  )
}

/**
 * `PUBLIC_URL` as an origin: `https://shop.example/` and `https://shop.example` both give
 * `https://shop.example`. Throws at start on anything but an http(s) URL without path, query or
 * credentials, so a typo cannot put wrong canonical URLs on every page.
 */
export function parsePublicUrl(value: string | undefined): string | undefined {
  if (!value) return undefined
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new Error(`PUBLIC_URL must be an absolute http(s) URL such as https://shop.example (got "${value}")`)
  }
  if (!isBareOrigin(url)) {
    throw new Error(`PUBLIC_URL must be an origin such as https://shop.example, without path, query or credentials (got "${value}")`)
  }
  return url.origin
}

/**
 * The payment provider's name (docs/payments.md): `PAYMENT_PROVIDER`, else `razorpay` when
 * `RAZORPAY_KEY_ID` is set, else `test`. Throws on any other name. The API builds the provider
 * from it (api/modules/payment/settings.ts); the BFF's page policy allows Razorpay's checkout for it.
 */
export function paymentProviderName(env: NodeJS.ProcessEnv): 'razorpay' | 'test' {
  const name = env.PAYMENT_PROVIDER?.trim() || (env.RAZORPAY_KEY_ID?.trim() ? 'razorpay' : 'test')
  if (name !== 'razorpay' && name !== 'test') throw new Error(`PAYMENT_PROVIDER must be razorpay or test, got "${name}"`)
  return name
}

/**
 * A rule over several variables: `parse` reads them from the environment and throws an Error whose
 * message starts with the variable it refuses (else the issue names all of `variables`).
 */
export interface EnvGroup<T> {
  variables: readonly string[]
  parse: (env: NodeJS.ProcessEnv) => T
}

/**
 * Parses `env` with `schema` and runs every group; throws one EnvError naming every bad variable
 * (the schema's and the groups' together), else answers the schema's values and each group's result.
 */
export function readEnvironment<S extends z.ZodType, G extends Record<string, EnvGroup<unknown>>>(
  env: NodeJS.ProcessEnv,
  schema: S,
  groups: G,
): { values: z.output<S>; groups: { [K in keyof G]: ReturnType<G[K]['parse']> } } {
  const issues: EnvIssue[] = []
  const parsed = schema.safeParse(env)
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const name = String(issue.path[0] ?? 'environment')
      // A parser's own message may start with the variable's name: say it once.
      issues.push({ variable: name, message: issue.message.startsWith(`${name} `) ? issue.message.slice(name.length + 1) : issue.message })
    }
  }
  const results: Record<string, unknown> = {}
  for (const [key, group] of Object.entries(groups)) {
    try {
      results[key] = group.parse(env)
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err)
      const named = group.variables.find((name) => message.startsWith(`${name} `) || message.startsWith(`${name}:`))
      issues.push({
        variable: named ?? group.variables.join(', '),
        message: named ? message.slice(named.length).replace(/^:?\s*/, '') : message,
      })
    }
  }
  if (issues.length > 0) throw new EnvError(issues)
  return { values: parsed.data as z.output<S>, groups: results as { [K in keyof G]: ReturnType<G[K]['parse']> } }
}

/**
 * Whether the generated-secrets notice was printed in this process. On globalThis, not in a module
 * variable: server.ts loads this module, and the server bundle (build/server) has its own copy of
 * it, so a module flag would let each copy print the notice once.
 */
const SECRETS_NOTICE = Symbol.for('grocery.config.secretsNotice')

/** The secrets DATA_DIR/secrets.json keeps (a file written before `testPaymentSecret` existed lacks it). */
interface PersistedSecrets {
  jwtSecret: string
  sessionSecret: string
  testPaymentSecret: string
}

const newSecret = () => randomBytes(32).toString('base64url')

/**
 * DATA_DIR/secrets.json, made (mode 0600) or completed when missing or lacking a secret: a secret
 * already there is never replaced (sessions and signed payments outlive restarts).
 */
function persistedSecrets(dataDir: string): PersistedSecrets {
  const file = path.join(dataDir, 'secrets.json')
  let stored: Partial<PersistedSecrets> = {}
  try {
    stored = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<PersistedSecrets>
  } catch {
    // Missing or unreadable: made below.
  }
  if (stored.jwtSecret && stored.sessionSecret && stored.testPaymentSecret) return stored as PersistedSecrets
  const secrets: PersistedSecrets = {
    jwtSecret: stored.jwtSecret || newSecret(),
    sessionSecret: stored.sessionSecret || newSecret(),
    testPaymentSecret: stored.testPaymentSecret || newSecret(),
  }
  fs.mkdirSync(dataDir, { recursive: true })
  fs.writeFileSync(file, JSON.stringify(secrets), { mode: 0o600 })
  return secrets
}

/** Whether the generated test-payment-secret notice was printed in this process (see SECRETS_NOTICE). */
const TEST_PAYMENT_NOTICE = Symbol.for('grocery.config.testPaymentSecretNotice')

/**
 * `TEST_PAYMENT_SECRET` (the test payment provider's, api/modules/payment/settings.ts); when unset,
 * the one generated once and kept in DATA_DIR/secrets.json. In production that is announced on
 * stderr, once per process: instances behind a load balancer must share one value, or a payment
 * started on one cannot be verified on another (docs/scale-out.md).
 */
export function readTestPaymentSecret(env: NodeJS.ProcessEnv, dataDir: string, isProduction: boolean): string {
  const set = env.TEST_PAYMENT_SECRET?.trim()
  if (set) return set
  const g = globalThis as Record<symbol, unknown>
  if (isProduction && !g[TEST_PAYMENT_NOTICE]) {
    g[TEST_PAYMENT_NOTICE] = true
    console.warn(
      `TEST_PAYMENT_SECRET not set: using the generated one in ${path.join(dataDir, 'secrets.json')}. Set it when running more than one instance.`,
    )
  }
  return persistedSecrets(dataDir).testPaymentSecret
}

/**
 * `JWT_SECRET` and `SESSION_SECRET`; a missing one is generated once and kept in
 * DATA_DIR/secrets.json (mode 0600), which the API and the BFF of one host share. In production that
 * is announced on stderr, once per process, because several instances behind a load balancer must
 * share one explicit value of each.
 */
export function readSecrets(env: NodeJS.ProcessEnv, dataDir: string, isProduction: boolean): { jwtSecret: string; sessionSecret: string } {
  if (env.JWT_SECRET && env.SESSION_SECRET) return { jwtSecret: env.JWT_SECRET, sessionSecret: env.SESSION_SECRET }
  const persisted = persistedSecrets(dataDir)
  const g = globalThis as Record<symbol, unknown>
  if (isProduction && !g[SECRETS_NOTICE]) {
    g[SECRETS_NOTICE] = true
    console.warn(
      `JWT_SECRET/SESSION_SECRET not set: using the generated ones in ${path.join(dataDir, 'secrets.json')}. Set both when running more than one instance.`,
    )
  }
  return { jwtSecret: env.JWT_SECRET || persisted.jwtSecret, sessionSecret: env.SESSION_SECRET || persisted.sessionSecret }
}
