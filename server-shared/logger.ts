/**
 * Structured logging with pino. Secrets never reach the log: tokens, passwords, cookies and
 * authorization headers are redacted wherever they appear (OWASP Logging Cheat Sheet). One logger for
 * the process: the API, the BFF's server entry and server.ts write through it.
 */
import pino from 'pino'

export const logger = pino({
  level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === 'test' || process.env.VITEST ? 'silent' : 'info'),
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
