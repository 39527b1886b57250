/**
 * Outgoing mail (one-time codes). With `smtpUrl` it sends through nodemailer over SMTP; without, it
 * writes each message as a `.eml` file under `outboxDir` (the dev outbox) and logs where it went, so
 * a newcomer can finish the recovery flow locally (README.md, "Admins and mail").
 */
import fs from 'node:fs/promises'
import path from 'node:path'
import nodemailer from 'nodemailer'
import { logger as defaultLogger, type Logger } from '../../server-shared/logger.ts'

export interface MailMessage {
  to: string
  subject: string
  text: string
  html: string
  /**
   * The `Message-ID` header, `<left@right>` (RFC 5322 §3.6.4): a stable one makes a repeat of the
   * same mail one message to mail clients, which fold duplicates by it. Unset: nodemailer makes one.
   */
  messageId?: string
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/** `value` safe inside a mail's HTML text or attribute (OWASP XSS Prevention Cheat Sheet, "Output Encoding"). */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch]!)
}

export interface Mailer {
  /** Sends one message; rejects when the SMTP server refuses it. */
  send(message: MailMessage): Promise<void>
}

/** Creates the SMTP mailer or the dev outbox. */
export function createMailer(opts: { smtpUrl?: string; outboxDir: string; from?: string; logger?: Logger }): Mailer {
  const from = opts.from ?? 'Grocery Store <no-reply@localhost>'
  const log = opts.logger ?? defaultLogger
  if (opts.smtpUrl) {
    const transport = nodemailer.createTransport(opts.smtpUrl)
    return {
      async send(m) {
        await transport.sendMail({ from, ...m })
        log.info({ to: m.to, subject: m.subject }, 'mail sent over SMTP')
      },
    }
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' })
  return {
    async send(m) {
      const info = await transport.sendMail({ from, ...m })
      await fs.mkdir(opts.outboxDir, { recursive: true })
      const file = path.join(opts.outboxDir, `${Date.now()}-${m.to.replace(/[^a-z0-9@.]/gi, '_')}.eml`)
      await fs.writeFile(file, info.message as Buffer)
      log.info({ to: m.to, subject: m.subject, file }, 'mail written to the dev outbox (set SMTP_URL to send)')
    },
  }
}
