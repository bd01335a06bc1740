import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Real processes and shells: two cores cannot run many such files at once without starving timers.
    maxWorkers: 2,
  },
})
