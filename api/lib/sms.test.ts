/**
 * The SMS providers: the dev outbox (a file per message, a log without the number or the text) and
 * Amazon SNS through the AWS SDK against SNS's HTTPS endpoint mocked with msw (AWS SNS API
 * Reference, "Publish": the Query protocol's form body and XML answer).
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { captureLog } from '../testing/log-capture.ts'
import { createSmsOutbox, createSmsSender, maskMobile, otpSmsText, webOtpHost } from './sms.ts'

const server = setupServer()
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterEach(() => server.resetHandlers())
afterAll(() => server.close())

describe('otpSmsText and webOtpHost', () => {
  it('fills the template and ends with the origin-bound WebOTP line', () => {
    expect(otpSmsText('042917', 'Test Grocer', 'shop.example')).toBe(
      '042917 is your OTP to sign in to Test Grocer. It is valid for 10 minutes. Do not share it with anyone.\n\n@shop.example #042917',
    )
    expect(webOtpHost('https://shop.example:8443')).toBe('shop.example')
    expect(webOtpHost(undefined)).toBe('localhost')
    expect(maskMobile('9876543210')).toBe('******3210')
  })
})

describe('the dev outbox', () => {
  it('writes <ms>-<number>.txt per message (two in one millisecond apart) and logs no number or text', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sms-outbox-'))
    const log = captureLog()
    const outbox = createSmsOutbox({ dir: path.join(dir, 'sms'), logger: log.logger, now: () => new Date(1_900_000_000_000) })
    await outbox.send({ to: '9876543210', text: '123456 is your OTP' })
    await outbox.send({ to: '9876543210', text: '654321 is your OTP' })
    const files = fs.readdirSync(path.join(dir, 'sms')).sort()
    expect(files).toEqual(['1900000000000-9876543210-1.txt', '1900000000000-9876543210.txt'])
    expect(fs.readFileSync(path.join(dir, 'sms', files[1]!), 'utf8')).toBe('To: +919876543210\n\n123456 is your OTP\n')
    const written = log.lines.join('')
    expect(written).toContain('******3210')
    expect(written).toContain(path.join(dir, 'sms'))
    expect(written).not.toContain('9876543210')
    expect(written).not.toContain('123456')
    fs.rmSync(dir, { recursive: true, force: true })
  })
})

describe('Amazon SNS', () => {
  const settings = {
    provider: 'sns' as const,
    region: 'ap-south-1',
    accessKeyId: 'AKIATESTTESTTEST',
    secretAccessKey: 'secret-for-tests',
    senderId: 'GROCRY',
    entityId: '1101234567890123456',
    templateId: '1107123456789012345',
    orderTemplateId: '1107999999999999999',
  }

  /** Publish requests as SNS received them: the form fields, or the JSON body of the JSON protocol. */
  function sns(seen: Record<string, string>[], status = 200) {
    return http.post('https://sns.ap-south-1.amazonaws.com/*', async ({ request }) => {
      const type = request.headers.get('content-type') ?? ''
      const text = await request.text()
      const fields: Record<string, string> = type.includes('json')
        ? flatten(JSON.parse(text) as Record<string, unknown>)
        : Object.fromEntries(new URLSearchParams(text))
      fields.authorization = request.headers.get('authorization') ?? ''
      seen.push(fields)
      if (status !== 200) {
        return new HttpResponse(
          '<ErrorResponse><Error><Type>Sender</Type><Code>InvalidParameter</Code><Message>Invalid parameter: PhoneNumber</Message></Error><RequestId>r1</RequestId></ErrorResponse>',
          { status, headers: { 'content-type': 'text/xml' } },
        )
      }
      if (type.includes('json')) return HttpResponse.json({ MessageId: 'msg-1' })
      return new HttpResponse(
        '<PublishResponse xmlns="http://sns.amazonaws.com/doc/2010-03-31/"><PublishResult><MessageId>msg-1</MessageId></PublishResult><ResponseMetadata><RequestId>r1</RequestId></ResponseMetadata></PublishResponse>',
        { headers: { 'content-type': 'text/xml' } },
      )
    })
  }

  /** The JSON protocol's body as `MessageAttributes.entry.N.Name`-free pairs: attribute name → value. */
  function flatten(body: Record<string, unknown>): Record<string, string> {
    const out: Record<string, string> = { Action: 'Publish' }
    for (const [k, v] of Object.entries(body)) {
      if (k === 'MessageAttributes') {
        for (const [name, value] of Object.entries(v as Record<string, { StringValue: string }>)) out[`attr:${name}`] = value.StringValue
      } else out[k] = String(v)
    }
    return out
  }

  /** Attribute name → value of a form-encoded Publish. */
  function attributes(fields: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {}
    for (const [k, v] of Object.entries(fields)) {
      if (k.startsWith('attr:')) out[k.slice(5)] = v
      const m = /^MessageAttributes\.entry\.(\d+)\.Name$/.exec(k)
      if (m) out[v] = fields[`MessageAttributes.entry.${m[1]}.Value.StringValue`]!
    }
    return out
  }

  it('publishes to +91<number> with the text, the sender id and the DLT entity and template ids, signed', async () => {
    const seen: Record<string, string>[] = []
    server.use(sns(seen))
    const log = captureLog()
    const sender = createSmsSender(settings, { outboxDir: '/nonexistent', logger: log.logger })
    const text = otpSmsText('042917', 'Test Grocer', 'shop.example')
    await sender.send({ to: '9876543210', text })
    expect(seen).toHaveLength(1)
    expect(seen[0]).toMatchObject({ Action: 'Publish', PhoneNumber: '+919876543210', Message: text })
    expect(seen[0]!.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIATESTTESTTEST\/\d{8}\/ap-south-1\/sns\/aws4_request/)
    expect(attributes(seen[0]!)).toEqual({
      'AWS.SNS.SMS.SMSType': 'Transactional',
      'AWS.SNS.SMS.SenderID': 'GROCRY',
      'AWS.MM.SMS.EntityId': '1101234567890123456',
      'AWS.MM.SMS.TemplateId': '1107123456789012345',
    })
    const written = log.lines.join('')
    expect(written).not.toContain('9876543210')
    expect(written).not.toContain('042917')

    await sender.send({ to: '9876543210', text: 'Your order is packed.', template: 'order-status' })
    expect(attributes(seen[1]!)['AWS.MM.SMS.TemplateId']).toBe('1107999999999999999')
  })

  it('rejects when SNS refuses, and sends no order SMS without its template id', async () => {
    const seen: Record<string, string>[] = []
    server.use(sns(seen, 400))
    const sender = createSmsSender(settings, { outboxDir: '/nonexistent', logger: captureLog().logger })
    await expect(sender.send({ to: '9876543210', text: 'x' })).rejects.toThrow(/PhoneNumber/)
    const { orderTemplateId: _, ...noOrderTemplate } = settings
    const quiet = createSmsSender(noOrderTemplate, { outboxDir: '/nonexistent', logger: captureLog().logger })
    const before = seen.length
    await quiet.send({ to: '9876543210', text: 'Your order is packed.', template: 'order-status' })
    expect(seen).toHaveLength(before)
  })
})
