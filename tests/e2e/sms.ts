/**
 * The SMS codes of the e2e server (scripts/e2e-server.mjs): the API's development outbox writes each
 * text to `DATA_DIR/outbox/sms/<ms>-<number>.txt` (api/lib/sms.ts); these read the newest one of a
 * number, so a phone sign-in or a mobile verification can be finished in the browser.
 */
import fs from 'node:fs'
import path from 'node:path'
import { expect, type TestInfo } from '@playwright/test'
import { ownServer } from './servers.ts'

/** This worker's e2e server's SMS outbox (its data folder: ./servers.ts). */
export const SMS_DIR = path.join(ownServer().dataDir, 'outbox', 'sms')

/** A fresh 10-digit Indian mobile number (starts with 9), unique per run and per project. */
export function newMobile(testInfo: TestInfo): string {
  const project = testInfo.project.name === 'js' ? 1 : 2
  return `9${project}${String(Date.now() % 1e5).padStart(5, '0')}${String(Math.floor(Math.random() * 1e3)).padStart(3, '0')}`
}

/** Names of the outbox files of `mobile`, oldest first. */
function filesOf(mobile: string): string[] {
  if (!fs.existsSync(SMS_DIR)) return []
  return fs
    .readdirSync(SMS_DIR)
    .filter((name) => name.includes(`-${mobile}`) && name.endsWith('.txt'))
    .sort((a, b) => Number(a.split('-')[0]) - Number(b.split('-')[0]))
}

/**
 * The code of the newest SMS to `mobile` written after `since` files were there (`smsCount`), waiting
 * up to `timeout` ms for it. Fails the test when none arrives.
 */
export async function waitForSmsCode(mobile: string, since: number, timeout = 15_000): Promise<string> {
  let code = ''
  await expect
    .poll(
      () => {
        const files = filesOf(mobile)
        if (files.length <= since) return ''
        const text = fs.readFileSync(path.join(SMS_DIR, files[files.length - 1]!), 'utf8')
        code = /\b([0-9]{6})\b/.exec(text)?.[1] ?? ''
        return code
      },
      { timeout, message: `an SMS code for ${mobile}` },
    )
    .not.toBe('')
  return code
}

/** How many texts `mobile` has been sent so far (pass to `waitForSmsCode` before asking for a code). */
export function smsCount(mobile: string): number {
  return filesOf(mobile).length
}
