/**
 * The mobile number rule shared by the API and the BFF (contract/phone.ts): the spellings people type
 * normalise to the 10 digits, everything else fails with the one message.
 */
import { describe, expect, it } from 'vitest'
import { MOBILE_MESSAGE, MobileSchema, normaliseMobile, VerifySmsOtpSchema } from '../../../contract/phone.ts'

describe('normaliseMobile', () => {
  it.each([
    ['9876543210', '9876543210'],
    ['6000000000', '6000000000'],
    ['+919876543210', '9876543210'],
    ['+91 98765 43210', '9876543210'],
    ['+91-98765-43210', '9876543210'],
    ['919876543210', '9876543210'],
    ['09876543210', '9876543210'],
    [' 98765-43210 ', '9876543210'],
    ['(987) 654-3210', '9876543210'],
  ])('%s → %s', (raw, digits) => {
    expect(normaliseMobile(raw)).toBe(digits)
  })

  it.each([
    '',
    '987654321',
    '98765432101',
    '5876543210',
    '0987654321',
    '+9198765432',
    '+14155550123',
    '+929876543210',
    '00919876543210',
    '98765a3210',
    '９８７６５４３２１０',
    '+91+9876543210',
  ])('refuses %j', (raw) => {
    expect(normaliseMobile(raw)).toBeNull()
  })
})

describe('MobileSchema', () => {
  it('answers the 10 digits or the one message', () => {
    expect(MobileSchema.parse('+91 98765 43210')).toBe('9876543210')
    for (const bad of ['12345', 9876543210, null, undefined, 'x'.repeat(40)]) {
      const result = MobileSchema.safeParse(bad)
      expect(result.success, JSON.stringify(bad)).toBe(false)
      expect(result.error?.issues[0]?.message).toBe(MOBILE_MESSAGE)
    }
  })

  it('takes a 6-digit code as a string only', () => {
    expect(VerifySmsOtpSchema.parse({ mobile: '9876543210', otp: ' 004211 ' })).toEqual({ mobile: '9876543210', otp: '004211' })
    expect(VerifySmsOtpSchema.safeParse({ mobile: '9876543210', otp: 4211 }).success).toBe(false)
    expect(VerifySmsOtpSchema.safeParse({ mobile: '9876543210', otp: '12345' }).success).toBe(false)
  })
})
