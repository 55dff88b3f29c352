import { defineConfig } from 'vitest/config'

export default defineConfig({
  resolve: {
    // Tests run against the TypeScript sources of workspace packages, not their dist builds.
    conditions: ['source'],
  },
  test: {
    include: ['packages/**/src/**/*.test.ts', 'packages/**/test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
})
