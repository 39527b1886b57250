import { describe, expect, it } from 'vitest'
import { parseWithZod } from '@conform-to/zod/v4'
import { LoginSchema, PASSWORD_MISMATCH_MESSAGE, RegisterSchema } from './auth.ts'

function form(fields: Record<string, string>) {
  const formData = new FormData()
  for (const [name, value] of Object.entries(fields)) formData.append(name, value)
  return formData
}

function errorsOf(result: { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } }) {
  const errors: Record<string, string[]> = {}
  for (const issue of result.error?.issues ?? []) (errors[issue.path.join('.')] ??= []).push(issue.message)
  return errors
}

const validRegister = { name: 'Asha Rao', email: 'asha@example.com', password: 'secret-pass-1', confirmPassword: 'secret-pass-1' }

describe('LoginSchema (docs/product.md, "Validation rules")', () => {
  it('accepts an email and a password, trimming and lower-casing the email but not the password', () => {
    const result = LoginSchema.safeParse({ email: '  Asha@Example.COM ', password: ' pass word ' })
    expect(result.success).toBe(true)
    expect(result.data).toEqual({ email: 'asha@example.com', password: ' pass word ' })
  })

  it('requires both fields', () => {
    expect(errorsOf(LoginSchema.safeParse({}))).toEqual({ email: ['Enter your email'], password: ['Enter your password'] })
    expect(errorsOf(LoginSchema.safeParse({ email: '   ', password: '' }))).toEqual({
      email: ['Enter your email'],
      password: ['Enter your password'],
    })
  })

  it('rejects malformed emails', () => {
    for (const email of ['asha', 'asha@', '@example.com', 'asha@example', 'a sha@example.com', 'asha@@example.com']) {
      expect(errorsOf(LoginSchema.safeParse({ email, password: 'x' })), email).toEqual({ email: ['Enter a valid email address'] })
    }
  })

  it('accepts 254 characters and rejects 255 (RFC 5321)', () => {
    const domain = (length: number) => `${`${'b'.repeat(60)}.`.repeat(3)}${'c'.repeat(length - 187)}.com`
    const atLimit = `${'a'.repeat(64)}@${domain(189)}`
    const overLimit = `${'a'.repeat(64)}@${domain(190)}`
    expect([atLimit.length, overLimit.length]).toEqual([254, 255])
    expect(LoginSchema.safeParse({ email: atLimit, password: 'x' }).success).toBe(true)
    expect(errorsOf(LoginSchema.safeParse({ email: overLimit, password: 'x' })).email).toEqual(['Email must be at most 254 characters'])
  })

  it('rejects non-string values (an object where a string belongs)', () => {
    const result = LoginSchema.safeParse({ email: { $ne: null }, password: ['x'] })
    expect(result.success).toBe(false)
    expect(Object.keys(errorsOf(result)).sort()).toEqual(['email', 'password'])
  })

  it('works through Conform: empty form fields are reported as missing', () => {
    const submission = parseWithZod(form({ email: '', password: '' }), { schema: LoginSchema })
    expect(submission.status).toBe('error')
    expect(submission.reply().error).toEqual({ email: ['Enter your email'], password: ['Enter your password'] })
  })
})

describe('RegisterSchema (docs/product.md, "Validation rules")', () => {
  it('accepts the four fields, trimming the name and email', () => {
    const result = RegisterSchema.safeParse({ ...validRegister, name: '  Asha Rao  ', email: ' ASHA@example.com' })
    expect(result.success).toBe(true)
    expect(result.data).toEqual({ ...validRegister })
  })

  it('requires all four fields', () => {
    expect(errorsOf(RegisterSchema.safeParse({}))).toEqual({
      name: ['Enter your name'],
      email: ['Enter your email'],
      password: ['Enter a password'],
      confirmPassword: ['Confirm your password'],
    })
    expect(errorsOf(RegisterSchema.safeParse({ ...validRegister, name: '   ' }))).toEqual({ name: ['Enter your name'] })
  })

  it('reports a mismatch on confirmPassword with the verbatim message', () => {
    expect(PASSWORD_MISMATCH_MESSAGE).toBe('password and confirm password must be same')
    const result = RegisterSchema.safeParse({ ...validRegister, confirmPassword: 'secret-pass-2' })
    expect(errorsOf(result)).toEqual({ confirmPassword: ['password and confirm password must be same'] })
  })

  it('reports the mismatch alongside other field errors (no hidden second round)', () => {
    const result = RegisterSchema.safeParse({ ...validRegister, name: '', confirmPassword: 'other-pass' })
    expect(errorsOf(result)).toEqual({ name: ['Enter your name'], confirmPassword: [PASSWORD_MISMATCH_MESSAGE] })
  })

  it('does not call an untouched confirmPassword a mismatch', () => {
    const result = RegisterSchema.safeParse({ ...validRegister, confirmPassword: '' })
    expect(errorsOf(result)).toEqual({ confirmPassword: ['Confirm your password'] })
  })

  it('compares passwords exactly (no trimming, case-sensitive)', () => {
    expect(errorsOf(RegisterSchema.safeParse({ ...validRegister, confirmPassword: 'secret-pass-1 ' }))).toEqual({
      confirmPassword: [PASSWORD_MISMATCH_MESSAGE],
    })
    expect(errorsOf(RegisterSchema.safeParse({ ...validRegister, confirmPassword: 'SECRET-PASS-1' }))).toEqual({
      confirmPassword: [PASSWORD_MISMATCH_MESSAGE],
    })
  })

  it('bounds the password length (8 to 128) and the name (100)', () => {
    expect(errorsOf(RegisterSchema.safeParse({ ...validRegister, password: '1234567', confirmPassword: '1234567' }))).toEqual({
      password: ['Password must be at least 8 characters'],
    })
    const long = 'p'.repeat(129)
    expect(errorsOf(RegisterSchema.safeParse({ ...validRegister, password: long, confirmPassword: long }))).toEqual({
      password: ['Password must be at most 128 characters'],
    })
    expect(RegisterSchema.safeParse({ ...validRegister, password: '12345678', confirmPassword: '12345678' }).success).toBe(true)
    expect(errorsOf(RegisterSchema.safeParse({ ...validRegister, name: 'n'.repeat(101) }))).toEqual({
      name: ['Name must be at most 100 characters'],
    })
  })

  it('counts characters as the message says them: an emoji is one character, not two', () => {
    const four = '😀🔒🍚🥛' // 4 characters, 8 UTF-16 units
    expect(errorsOf(RegisterSchema.safeParse({ ...validRegister, password: four, confirmPassword: four }))).toEqual({
      password: ['Password must be at least 8 characters'],
    })
    const hundred = '🍚'.repeat(100) // 100 characters, 200 UTF-16 units
    expect(RegisterSchema.safeParse({ ...validRegister, password: hundred, confirmPassword: hundred }).success).toBe(true)
    const eight = 'ab🍚cd🥛ef'
    expect(RegisterSchema.safeParse({ ...validRegister, password: eight, confirmPassword: eight }).success).toBe(true)
    const over = '🍚'.repeat(129)
    expect(errorsOf(RegisterSchema.safeParse({ ...validRegister, password: over, confirmPassword: over }))).toEqual({
      password: ['Password must be at most 128 characters'],
    })
  })

  it('works through Conform: the mismatch reaches confirmPassword and passwords are not echoed when hidden', () => {
    const submission = parseWithZod(form({ ...validRegister, confirmPassword: 'nope-nope' }), { schema: RegisterSchema })
    const reply = submission.reply({ hideFields: ['password', 'confirmPassword'] })
    expect(reply.error).toEqual({ confirmPassword: [PASSWORD_MISMATCH_MESSAGE] })
    expect(reply.initialValue).toEqual({ name: 'Asha Rao', email: 'asha@example.com' })
  })
})
