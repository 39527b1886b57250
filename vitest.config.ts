import { defineConfig } from 'vitest/config'
import path from 'node:path'

// Kept apart from vite.config.ts: the reactRouter() plugin must not load under vitest (docs/stack.md, "Vitest").
export default defineConfig({
  resolve: { alias: { '~': path.resolve(import.meta.dirname, 'app') } },
  test: {
    include: ['app/**/*.test.{ts,tsx}', 'api/**/*.test.ts', 'server-shared/**/*.test.ts', 'scripts/**/*.test.ts', 'eval/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    fileParallelism: true,
    maxWorkers: 2,
  },
})
