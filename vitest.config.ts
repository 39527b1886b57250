import { defineConfig } from 'vitest/config'
import os from 'node:os'
import path from 'node:path'

// Kept apart from vite.config.ts: the reactRouter() plugin must not load under vitest (docs/stack.md, "Vitest").
export default defineConfig({
  resolve: { alias: { '~': path.resolve(import.meta.dirname, 'app') } },
  test: {
    include: ['app/**/*.test.{ts,tsx}', 'api/**/*.test.ts', 'server-shared/**/*.test.ts', 'scripts/**/*.test.ts', 'eval/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // One migrated database per run, copied by each test file (docs/decisions/0035-test-database-template.md).
    globalSetup: ['api/testing/global-setup.ts'],
    pool: 'forks',
    fileParallelism: true,
    // One test process per core the machine offers (at least two: vitest's own default leaves one
    // core idle, and a test file mostly waits on its in-process database).
    maxWorkers: Math.max(2, os.availableParallelism()),
  },
})
