/**
 * The process logger (server-shared/logger.ts) reads no environment: silent until an entry point sets
 * the configured level, so a test that configures none logs nothing.
 */
import { describe, expect, it } from 'vitest'
import { logger } from './logger.ts'

describe('logger', () => {
  it('is silent until an entry point sets the configured level', () => {
    expect(logger.level).toBe('silent')
  })
})
