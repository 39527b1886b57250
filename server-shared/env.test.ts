/**
 * server-shared/env.ts: one schema read once, one EnvError naming every bad variable and why (the
 * schema's and the groups' together), unset and empty alike meaning the default.
 */
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { EnvError, flag, httpUrl, paymentProviderName, readEnvironment, wholeNumber } from './env.ts'

const Schema = z.object({ PORT: wholeNumber(0, 65_535), API_URL: httpUrl, INSECURE_COOKIES: flag })
const groups = {
  payment: { variables: ['PAYMENT_PROVIDER'], parse: paymentProviderName },
  pair: {
    variables: ['A_KEY', 'A_SECRET'],
    parse: (env: NodeJS.ProcessEnv) => {
      if (Boolean(env.A_KEY) !== Boolean(env.A_SECRET)) throw new Error('Set both A_KEY and A_SECRET, or neither')
      return env.A_KEY ?? null
    },
  },
}

/** The EnvError `fn` throws. */
function envError(fn: () => unknown): EnvError {
  try {
    fn()
  } catch (err) {
    if (err instanceof EnvError) return err
    throw err
  }
  throw new Error('no EnvError thrown')
}

describe('readEnvironment', () => {
  it('answers the defaults (undefined) for unset and empty variables', () => {
    const { values, groups: g } = readEnvironment({ PORT: '', API_URL: undefined }, Schema, groups)
    expect(values).toEqual({ PORT: undefined, API_URL: undefined, INSECURE_COOKIES: undefined })
    expect(g).toEqual({ payment: 'test', pair: null })
  })

  it('parses good values', () => {
    const { values, groups: g } = readEnvironment(
      { PORT: '8080', API_URL: 'https://api.example/', INSECURE_COOKIES: '1', RAZORPAY_KEY_ID: 'rzp' },
      Schema,
      groups,
    )
    expect(values).toEqual({ PORT: 8080, API_URL: 'https://api.example', INSECURE_COOKIES: true })
    expect(g.payment).toBe('razorpay')
  })

  it('fails once, naming every bad variable and why, in one message', () => {
    const error = envError(() =>
      readEnvironment({ PORT: '80a', API_URL: 'ftp://x', INSECURE_COOKIES: 'yes', PAYMENT_PROVIDER: 'paypal', A_KEY: 'k' }, Schema, groups),
    )
    expect(error.issues).toEqual([
      { variable: 'PORT', message: 'must be a whole number from 0 to 65535, got "80a"' },
      { variable: 'API_URL', message: 'must be an http(s) URL, got "ftp://x"' },
      { variable: 'INSECURE_COOKIES', message: 'must be 1 or 0, got "yes"' },
      { variable: 'PAYMENT_PROVIDER', message: 'must be razorpay or test, got "paypal"' },
      { variable: 'A_KEY, A_SECRET', message: 'Set both A_KEY and A_SECRET, or neither' },
    ])
    expect(error.message).toBe(
      [
        'Invalid environment (see README.md, "Configuration"):',
        '  - PORT: must be a whole number from 0 to 65535, got "80a"',
        '  - API_URL: must be an http(s) URL, got "ftp://x"',
        '  - INSECURE_COOKIES: must be 1 or 0, got "yes"',
        '  - PAYMENT_PROVIDER: must be razorpay or test, got "paypal"',
        '  - A_KEY, A_SECRET: Set both A_KEY and A_SECRET, or neither',
      ].join('\n'),
    )
    // Printed uncaught at start: the message, no stack into the reader.
    expect(error.stack).toBe(`EnvError: ${error.message}`)
  })

  it('refuses numbers out of range, signs, points and exponents', () => {
    for (const bad of ['65536', '-1', '1.5', '1e3', ' 80']) {
      expect(
        envError(() => readEnvironment({ PORT: bad }, Schema, {})).issues.map((i) => i.variable),
        bad,
      ).toEqual(['PORT'])
    }
  })
})
