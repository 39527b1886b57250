/**
 * A pino logger for tests that keeps every line it writes, so a test can check what would have
 * reached the log (no secret, the right fields).
 */
import { Writable } from 'node:stream'
import pino from 'pino'

/** A debug-level logger and the lines it wrote so far (`lines.join('')` is the whole log). */
export function captureLog(): { logger: pino.Logger; lines: string[] } {
  const lines: string[] = []
  const logger = pino(
    { level: 'debug' },
    new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk))
        done()
      },
    }),
  )
  return { logger, lines }
}
