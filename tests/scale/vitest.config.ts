import { defineConfig } from 'vitest/config'

// The scale-out test (tests/scale/scale-out.test.ts): real server processes, so it runs on its own,
// after the build, from `npm test` (scripts/test-all.mjs).
export default defineConfig({
  test: {
    include: ['tests/scale/**/*.test.ts'],
    environment: 'node',
    testTimeout: 180_000,
    hookTimeout: 180_000,
    pool: 'forks',
    fileParallelism: false,
  },
})
