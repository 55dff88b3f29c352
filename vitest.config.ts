import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  resolve: {
    // Tests run against the TypeScript sources of workspace packages, not their dist builds.
    conditions: ['source'],
  },
  test: {
    include: ['packages/**/src/**/*.test.ts', 'packages/**/test/**/*.test.ts'],
    // Most end-to-end files wait on the processes and sockets they start, not on the CPU: on a
    // 2-core machine three files at once take two thirds of the time of the default one. Four
    // saturate the CPU and time out the fuzz tests.
    maxWorkers: Math.max(3, availableParallelism() - 1),
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
})
