import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SMTPServer } from 'smtp-server'
import { createMailer } from './mail.ts'

/** A real SMTP server on a free local port that keeps every message it receives. */
let smtp: SMTPServer
let port = 0
const received: Array<{ from: string; to: string[]; raw: string }> = []

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      let raw = ''
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')))
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
        })
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()))
  port = (smtp.server.address() as AddressInfo).port
})

afterAll(async () => {
  await new Promise<void>((resolve) => smtp.close(() => resolve()))
})

const message = {
  to: 'shopper@example.com',
  subject: 'Your one-time code',
  text: 'Your code is 123456. It is valid for 10 minutes.',
  html: '<p>Your code is <b>123456</b>.</p>',
}

describe('createMailer', () => {
  it('delivers over SMTP with plain-text and HTML parts when SMTP_URL is set', async () => {
    const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${port}`, outboxDir: os.tmpdir(), from: 'Shop <no-reply@shop.test>' })
    await mailer.send(message)
    expect(received).toHaveLength(1)
    const [mail] = received
    expect(mail.from).toBe('no-reply@shop.test')
    expect(mail.to).toEqual(['shopper@example.com'])
    expect(mail.raw).toMatch(/^Subject: Your one-time code/m)
    expect(mail.raw).toContain('Content-Type: text/plain')
    expect(mail.raw).toContain('Content-Type: text/html')
    expect(mail.raw).toContain('123456')
  })

  it('rejects when the SMTP server cannot be reached', async () => {
    const mailer = createMailer({ smtpUrl: 'smtp://127.0.0.1:1', outboxDir: os.tmpdir() })
    await expect(mailer.send(message)).rejects.toThrow()
  })

  it('writes the message to the dev outbox when no SMTP_URL is set', async () => {
    const outboxDir = fs.mkdtempSync(path.join(os.tmpdir(), 'outbox-'))
    await createMailer({ outboxDir }).send(message)
    const files = fs.readdirSync(outboxDir)
    expect(files).toHaveLength(1)
    expect(files[0]).toMatch(/shopper@example\.com\.eml$/)
    const raw = fs.readFileSync(path.join(outboxDir, files[0]), 'utf8')
    expect(raw).toContain('Subject: Your one-time code')
    expect(raw).toContain('123456')
    fs.rmSync(outboxDir, { recursive: true, force: true })
  })

  it('sends the given Message-ID (RFC 5322 §3.6.4), over SMTP and into the outbox alike', async () => {
    const messageId = '<order.abc.placed.v1@shop.example>'
    received.length = 0
    await createMailer({ smtpUrl: `smtp://127.0.0.1:${port}`, outboxDir: os.tmpdir() }).send({ ...message, messageId })
    expect(received[0]!.raw).toMatch(/^Message-ID: <order\.abc\.placed\.v1@shop\.example>\r?$/m)
    const outboxDir = fs.mkdtempSync(path.join(os.tmpdir(), 'outbox-'))
    await createMailer({ outboxDir }).send({ ...message, messageId })
    const raw = fs.readFileSync(path.join(outboxDir, fs.readdirSync(outboxDir)[0]!), 'utf8')
    expect(raw).toMatch(/^Message-ID: <order\.abc\.placed\.v1@shop\.example>$/m)
    fs.rmSync(outboxDir, { recursive: true, force: true })
  })
})
