/**
 * Outgoing SMS (sign-in codes, order updates) behind one small interface, as api/lib/mail.ts does for
 * mail (docs/decisions/0053-sms-providers.md). `SMS_PROVIDER=outbox` (the default) writes each
 * message to `DATA_DIR/outbox/sms/<ms>-<number>.txt` and logs the folder, so a newcomer can finish a
 * phone sign-in locally; `SMS_PROVIDER=sns` publishes through Amazon SNS with the DLT entity and
 * template ids that Indian operators require of every commercial SMS (TRAI TCCCPR 2018; AWS End User
 * Messaging SMS docs, "Sending SMS messages to India": `AWS.MM.SMS.EntityId`, `AWS.MM.SMS.TemplateId`).
 *
 * Logs never carry a code or a full number: the number as its last 4 digits (`maskMobile`), the text
 * not at all (OWASP Logging Cheat Sheet, "Data to exclude").
 */
import fs from 'node:fs/promises'
import path from 'node:path'
import { PublishCommand, SNSClient } from '@aws-sdk/client-sns'
import { logger as defaultLogger, type Logger } from '../../server-shared/logger.ts'

/** One text message to an Indian mobile number. */
export interface SmsMessage {
  /** The 10-digit number (contract/phone.ts `MobileSchema`); providers add the +91. */
  to: string
  text: string
  /** Which DLT template the text follows (each needs its own template id): a code (default) or an order status. */
  template?: 'otp' | 'order-status'
}

export interface SmsSender {
  /** Sends one message; rejects when the provider refuses it. */
  send(message: SmsMessage): Promise<void>
}

/** Amazon SNS settings (`SMS_SNS_*`, `SMS_SENDER_ID`, `SMS_DLT_*`; api/config.ts `parseSmsSettings`). */
export interface SnsSettings {
  region: string
  /** A custom endpoint (tests, a VPC endpoint); unset: the region's public one. */
  endpoint?: string
  accessKeyId?: string
  secretAccessKey?: string
  /** The 6-character DLT-registered header (sender id), e.g. `GROCRY`. */
  senderId: string
  /** The business's DLT principal entity id (19 digits). */
  entityId: string
  /** The DLT content template id of the code SMS (`otpSmsText`). */
  templateId: string
  /** The DLT template id of the order status SMS; unset: order status SMS are not sent (logged). */
  orderTemplateId?: string
}

/** Which provider sends, with its settings (api/config.ts). */
export type SmsSettings = { provider: 'outbox' } | ({ provider: 'sns' } & SnsSettings)

/** `9876543210` → `******3210`: the most of a number a log may carry. */
export function maskMobile(mobile: string): string {
  return `******${mobile.slice(-4)}`
}

/**
 * The dev outbox: each message as a text file `<ms since 1970>-<number>.txt` under `dir` (the e2e
 * tests read the newest file of a number). The log names the folder and the masked number only.
 */
export function createSmsOutbox(opts: { dir: string; logger?: Logger; now?: () => Date }): SmsSender {
  const log = opts.logger ?? defaultLogger
  const now = opts.now ?? (() => new Date())
  return {
    async send(m) {
      await fs.mkdir(opts.dir, { recursive: true })
      // A same-millisecond second message to one number gets its own file.
      const base = `${now().getTime()}-${m.to.replace(/[^0-9]/g, '')}`
      let file = path.join(opts.dir, `${base}.txt`)
      for (let n = 1; ; n++) {
        try {
          await fs.writeFile(file, `To: +91${m.to}\n\n${m.text}\n`, { flag: 'wx' })
          break
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || n > 20) throw err
          file = path.join(opts.dir, `${base}-${n}.txt`)
        }
      }
      log.info({ to: maskMobile(m.to), dir: opts.dir }, 'SMS written to the dev outbox (set SMS_PROVIDER=sns to send)')
    },
  }
}

/**
 * Amazon SNS `Publish` to `+91<number>` as a transactional SMS carrying the sender id and the DLT
 * entity and template ids (AWS SNS API Reference, "Publish"; "Publishing to a mobile phone").
 */
export function createSnsSender(settings: SnsSettings, opts: { logger?: Logger } = {}): SmsSender {
  const log = opts.logger ?? defaultLogger
  const client = new SNSClient({
    region: settings.region,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    ...(settings.accessKeyId && settings.secretAccessKey
      ? { credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } }
      : {}),
  })
  const attribute = (value: string) => ({ DataType: 'String', StringValue: value })
  return {
    async send(m) {
      const templateId = m.template === 'order-status' ? settings.orderTemplateId : settings.templateId
      if (!templateId) {
        // Operators drop an SMS without a registered template: not sending is the honest outcome.
        log.warn({ to: maskMobile(m.to), template: m.template }, 'SMS not sent: set SMS_DLT_ORDER_TEMPLATE_ID for order updates')
        return
      }
      const out = await client.send(
        new PublishCommand({
          PhoneNumber: `+91${m.to}`,
          Message: m.text,
          MessageAttributes: {
            'AWS.SNS.SMS.SMSType': attribute('Transactional'),
            'AWS.SNS.SMS.SenderID': attribute(settings.senderId),
            'AWS.MM.SMS.EntityId': attribute(settings.entityId),
            'AWS.MM.SMS.TemplateId': attribute(templateId),
          },
        }),
      )
      log.info({ to: maskMobile(m.to), messageId: out.MessageId }, 'SMS sent through SNS')
    },
  }
}

/** The sender of `settings`: the outbox under `outboxDir` by default, SNS when configured. */
export function createSmsSender(settings: SmsSettings, opts: { outboxDir: string; logger?: Logger }): SmsSender {
  if (settings.provider === 'sns') return createSnsSender(settings, opts)
  return createSmsOutbox({ dir: opts.outboxDir, logger: opts.logger })
}

/** The host of the WebOTP line: PUBLIC_URL's host name (no port, as WebOTP compares it), else `localhost`. */
export function webOtpHost(publicUrl: string | undefined): string {
  try {
    return publicUrl ? new URL(publicUrl).hostname : 'localhost'
  } catch {
    return 'localhost'
  }
}

/**
 * The code SMS, the DLT-registered template with its two variables filled, and last the origin-bound
 * line `@<host> #<code>` that lets Chrome on Android offer the code to the page (WICG WebOTP,
 * "Origin-bound one-time codes delivered via SMS").
 */
export function otpSmsText(code: string, storeName: string, host: string): string {
  return `${code} is your OTP to sign in to ${storeName}. It is valid for 10 minutes. Do not share it with anyone.\n\n@${host} #${code}`
}
