/** api/app.ts `createApp`: it refuses to start without a JWT secret, as no default is safe (RFC 7518 §3.2). */
import { describe, expect, it } from 'vitest'
import { createApp } from './app.ts'

describe('createApp', () => {
  it('refuses an empty or missing JWT secret', () => {
    expect(() => createApp({ db: {} as never, jwtSecret: '' })).toThrow(/jwtSecret/)
    expect(() => createApp({ db: {} as never } as never)).toThrow(/jwtSecret/)
  })
})
