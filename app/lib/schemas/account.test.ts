import { describe, expect, it } from 'vitest'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import {
  ForgotPasswordSchema,
  MOBILE_MESSAGE,
  OTP_DIGITS_MESSAGE,
  OTP_FIELD_NAMES,
  OTP_LENGTH,
  OTP_MISSING_MESSAGE,
  OtpSchema,
  ProfileSchema,
  profileSchemaFor,
  RESET_PASSWORD_MISMATCH_MESSAGE,
  ResetPasswordSchema,
} from './account.ts'

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

/** The six boxes filled from `code`, one character each. */
const boxes = (code: string) => Object.fromEntries(OTP_FIELD_NAMES.map((name, index) => [name, code[index] ?? '']))

describe('ForgotPasswordSchema (docs/product.md, "Validation rules": email required)', () => {
  it('accepts an email, trimmed and lower-cased', () => {
    expect(ForgotPasswordSchema.parse({ email: ' Asha@Example.com ' })).toEqual({ email: 'asha@example.com' })
  })

  it('requires a well-formed email', () => {
    expect(errorsOf(ForgotPasswordSchema.safeParse({}))).toEqual({ email: ['Enter your email'] })
    expect(errorsOf(ForgotPasswordSchema.safeParse({ email: '  ' }))).toEqual({ email: ['Enter your email'] })
    expect(errorsOf(ForgotPasswordSchema.safeParse({ email: 'asha@' }))).toEqual({ email: ['Enter a valid email address'] })
    expect(ForgotPasswordSchema.safeParse({ email: { $ne: null } }).success).toBe(false)
  })
})

describe('OtpSchema (docs/product.md, "Validation rules": six boxes, one character each)', () => {
  it('has six boxes named otp0..otp5', () => {
    expect(OTP_LENGTH).toBe(6)
    expect(OTP_FIELD_NAMES).toEqual(['otp0', 'otp1', 'otp2', 'otp3', 'otp4', 'otp5'])
  })

  it('joins the six boxes in order', () => {
    expect(OtpSchema.parse(boxes('042917'))).toEqual({ otp: '042917' })
  })

  it('requires all six boxes: one message for the form, not one per box', () => {
    expect(errorsOf(OtpSchema.safeParse({}))).toEqual({ '': [OTP_MISSING_MESSAGE] })
    expect(errorsOf(OtpSchema.safeParse(boxes('04291')))).toEqual({ '': [OTP_MISSING_MESSAGE] })
    expect(errorsOf(OtpSchema.safeParse({ ...boxes('042917'), otp3: ' ' }))).toEqual({ '': [OTP_MISSING_MESSAGE] })
    expect(OTP_MISSING_MESSAGE).toBe('Enter all 6 digits of the code')
  })

  it('takes one digit per box', () => {
    expect(errorsOf(OtpSchema.safeParse(boxes('04a917')))).toEqual({ '': [OTP_DIGITS_MESSAGE] })
    expect(errorsOf(OtpSchema.safeParse({ ...boxes('042917'), otp0: '04' }))).toEqual({ '': [OTP_DIGITS_MESSAGE] })
    expect(OTP_DIGITS_MESSAGE).toBe('Each box takes one digit (0-9)')
  })

  it('takes the whole code in the first box alone (autofill or paste with JavaScript off)', () => {
    expect(OtpSchema.parse({ otp0: '042917' })).toEqual({ otp: '042917' })
    expect(OtpSchema.parse({ otp0: ' 042917 ', otp1: '', otp2: '', otp3: '', otp4: '', otp5: '' })).toEqual({ otp: '042917' })
    expect(parseWithZod(form({ otp0: '042917' }), { schema: OtpSchema }).status).toBe('success')
    // Only a whole code alone is spread: a partial one, or one beside filled boxes, is refused.
    expect(errorsOf(OtpSchema.safeParse({ otp0: '04291' }))).toEqual({ '': [OTP_MISSING_MESSAGE] })
    expect(errorsOf(OtpSchema.safeParse({ ...boxes('042917'), otp0: '042917' }))).toEqual({ '': [OTP_DIGITS_MESSAGE] })
  })

  it('works through Conform: the message is a form error, the value is the joined code', () => {
    const failed = parseWithZod(form(boxes('12')), { schema: OtpSchema })
    expect(failed.status).toBe('error')
    expect(failed.reply().error).toEqual({ '': [OTP_MISSING_MESSAGE] })
    const passed = parseWithZod(form(boxes('123456')), { schema: OtpSchema })
    expect(passed.status).toBe('success')
    expect(passed.status === 'success' && passed.value).toEqual({ otp: '123456' })
  })
})

describe('ResetPasswordSchema (docs/product.md, "Validation rules")', () => {
  it('keeps the mismatch message verbatim, trailing space included', () => {
    expect(RESET_PASSWORD_MISMATCH_MESSAGE).toBe('New password and confirm password must be same. ')
  })

  it('accepts two equal passwords, kept as typed', () => {
    expect(ResetPasswordSchema.parse({ newPassword: ' new pass 1 ', confirmPassword: ' new pass 1 ' })).toEqual({
      newPassword: ' new pass 1 ',
      confirmPassword: ' new pass 1 ',
    })
  })

  it('requires both fields', () => {
    expect(errorsOf(ResetPasswordSchema.safeParse({}))).toEqual({
      newPassword: ['Enter a new password'],
      confirmPassword: ['Confirm your new password'],
    })
  })

  it('gives the mismatch on confirmPassword', () => {
    expect(errorsOf(ResetPasswordSchema.safeParse({ newPassword: 'secret-pass-1', confirmPassword: 'secret-pass-2' }))).toEqual({
      confirmPassword: ['New password and confirm password must be same. '],
    })
  })

  it('shows the mismatch together with a too-short password', () => {
    expect(errorsOf(ResetPasswordSchema.safeParse({ newPassword: 'short', confirmPassword: 'other' }))).toEqual({
      newPassword: ['Password must be at least 8 characters'],
      confirmPassword: [RESET_PASSWORD_MISMATCH_MESSAGE],
    })
  })

  it('caps the length at 128 characters', () => {
    const long = 'x'.repeat(129)
    expect(errorsOf(ResetPasswordSchema.safeParse({ newPassword: long, confirmPassword: long }))).toEqual({
      newPassword: ['Password must be at most 128 characters'],
    })
  })

  it('works through Conform, and its constraint marks both fields required', () => {
    const submission = parseWithZod(form({ newPassword: 'secret-pass-1', confirmPassword: 'secret-pass-x' }), {
      schema: ResetPasswordSchema,
    })
    expect(submission.reply().error).toEqual({ confirmPassword: [RESET_PASSWORD_MISMATCH_MESSAGE] })
    const constraint = getZodConstraint(ResetPasswordSchema)
    expect(constraint.newPassword?.required).toBe(true)
    expect(constraint.confirmPassword?.required).toBe(true)
  })
})

describe('ProfileSchema (docs/product.md, "Validation rules": name, email, mobile required; mobile numeric)', () => {
  const valid = { name: ' Asha Rao ', email: 'Asha@Example.com', mobile: '98765 43210' }

  it('trims, lower-cases the email and keeps only the mobile digits', () => {
    expect(ProfileSchema.parse(valid)).toEqual({ name: 'Asha Rao', email: 'asha@example.com', mobile: '9876543210' })
  })

  it('requires all three', () => {
    expect(errorsOf(ProfileSchema.safeParse({}))).toEqual({
      name: ['Enter your name'],
      email: ['Enter your email'],
      mobile: ['Enter your mobile number'],
    })
    expect(errorsOf(ProfileSchema.safeParse({ name: ' ', email: ' ', mobile: ' ' }))).toEqual({
      name: ['Enter your name'],
      email: ['Enter your email'],
      mobile: ['Enter your mobile number'],
    })
  })

  it('takes 7 to 15 digits and nothing else (the API rule, E.164)', () => {
    for (const mobile of ['1234567', '919876543210', '123456789012345']) {
      expect(ProfileSchema.safeParse({ ...valid, mobile }).success, mobile).toBe(true)
    }
    for (const mobile of ['123456', '1234567890123456', '98765abcde', '+919876543210', '9876.54321']) {
      expect(errorsOf(ProfileSchema.safeParse({ ...valid, mobile })), mobile).toEqual({ mobile: [MOBILE_MESSAGE] })
    }
    expect(MOBILE_MESSAGE).toBe('Enter a mobile number of 7 to 15 digits')
  })

  it('caps the name at 100 characters', () => {
    expect(errorsOf(ProfileSchema.safeParse({ ...valid, name: 'a'.repeat(101) }))).toEqual({
      name: ['Name must be at most 100 characters'],
    })
  })

  it('works through Conform: empty fields are reported as missing', () => {
    const submission = parseWithZod(form({ name: '', email: '', mobile: '' }), { schema: ProfileSchema })
    expect(submission.reply().error).toEqual({
      name: ['Enter your name'],
      email: ['Enter your email'],
      mobile: ['Enter your mobile number'],
    })
  })
})

describe('profileSchemaFor (an account made by phone sign-in has no email until it adds one)', () => {
  const phoneAccount = { name: 'Asha', mobile: '9876543210' }
  it('leaves the email optional for an account without one, still checked when given', () => {
    const schema = profileSchemaFor({ email: '' })
    expect(schema.parse(phoneAccount)).toEqual({ name: 'Asha', mobile: '9876543210' })
    expect(schema.parse({ ...phoneAccount, email: 'Asha@Example.com' }).email).toBe('asha@example.com')
    expect(errorsOf(schema.safeParse({ ...phoneAccount, email: 'not-an-email' }))).toEqual({ email: ['Enter a valid email address'] })
  })
  it('keeps the email required for an account that has one', () => {
    expect(profileSchemaFor({ email: 'asha@example.com' })).toBe(ProfileSchema)
    expect(errorsOf(profileSchemaFor({ email: 'asha@example.com' }).safeParse(phoneAccount))).toEqual({ email: ['Enter your email'] })
  })
})
