/**
 * Structured logging with pino. Secrets never reach the log: tokens, passwords, cookies and
 * authorization headers are redacted wherever they appear (OWASP Logging Cheat Sheet). One logger for
 * the process: the API, the BFF's server entry and server.ts write through it.
 *
 * Its level is the configuration's `LOG_LEVEL` (api/config.ts, app/.server/env.ts; this module reads
 * no environment): each entry point sets `logger.level` once its configuration is read (server.ts, the
 * seed CLI, and app/entry.server.tsx for the server bundle's own copy of this module). Until then, and
 * in tests, which configure none, it is silent.
 */
import pino from 'pino'

export const logger = pino({
  level: 'silent',
  redact: {
    paths: [
      'password',
      '*.password',
      '*.newPassword',
      '*.confirmPassword',
      '*.passwordHash',
      '*.accessToken',
      '*.refreshToken',
      '*.resetToken',
      '*.otp',
      'req.headers.authorization',
      'req.headers.cookie',
      'res.headers["set-cookie"]',
    ],
    censor: '[redacted]',
  },
})
export type Logger = typeof logger
