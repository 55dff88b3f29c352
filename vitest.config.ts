import { availableParallelism } from 'node:os'
import { BaseSequencer, type TestSpecification } from 'vitest/node'
import { defineConfig } from 'vitest/config'

// On a clean checkout (CI) vitest knows no durations yet and starts the largest files first. These
// are the longest by time; started late, each leaves the other workers idle at the end of the run.
const LONGEST = [
  'hub/test/webhook-reliability.postgres.e2e',
  'hub/test/webhook-reliability.sqlite.e2e',
  'cli/test/ci-recipes.e2e',
  'hub/test/store-outage.e2e',
  'hub/test/web/settings.e2e',
  'hub/test/deployments.e2e',
  'hub/src/webhooks/dispatcher.test',
  'hub/test/upload-fuzz.e2e',
  'cli/test/generate-github.e2e',
  'cli/test/install.e2e',
  'hub/test/serve.e2e',
]

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const at = LONGEST.findIndex((name) => file.moduleId.includes(`/packages/${name}.test.ts`))
      return at === -1 ? LONGEST.length : at
    }
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b))
  }
}

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
    sequence: { sequencer: LongestFirst },
    // A worker keeps the modules it has loaded from one file to the next: each file importing
    // the engine, the hub and zod afresh cost a fifth of the run (750 s → 590 s on CI). Tests
    // restore what they change (timers, env) and count only the processes they start.
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
})
