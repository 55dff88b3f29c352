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
    // 2-core machine four files at once take about half the time of the default one (many
    // of them sleep through leases, outages and retry waits).
    maxWorkers: Math.max(4, availableParallelism()),
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
})
