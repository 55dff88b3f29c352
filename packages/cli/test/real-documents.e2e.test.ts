import { readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT, runSvc, type SvcRun } from './support/run-svc.js'

/**
 * `svc check --json` on every real description installed as a dev dependency: each must finish
 * with exit 0 or 1 and exactly one report object, never a crash. Two at a time (the CI machine
 * has two cores; the largest files take a few hundred MB of heap each).
 *
 * Observed 2026-11 (engine of this tree, 2 cores, exit code per document):
 * - @octokit/openapi generated/*.json (10 documents; the eleventh file there is README.md): all
 *   exit 0, warnings and debug issues only (api.github.com.json 65 warnings, 4 debug). Slowest
 *   alone ghes-3.17.deref.json 2.9 s (ghec.deref.json, 78 MB: 2.3 s, 400 MB RSS); 4 to 8 s each
 *   two at a time on a loaded machine.
 * - @octokit/graphql-schema schema.graphql: exit 1. The schema declares
 *   EnterpriseOwnerInfo.repositoryDeployKeySetting twice (lines 15003 and 15153), so
 *   INVALID_TYPE_DEFINITION plus INVALID_DEPENDENCY_REF for Enterprise.ownerInfo; 402 warnings.
 * - @readme/oas-examples 2.0 (14): all exit 0.
 * - @readme/oas-examples 3.0 (91): exit 1 for schema-types.{json,yaml} (allOf of string and
 *   integer: INVALID_OPERATION); the other 89 exit 0.
 * - @readme/oas-examples 3.1 (24): exit 1 for schema-types.{json,yaml} (same allOf) and
 *   security.{json,yaml} (a mutualTLS scheme: INVALID_SECURITY_SCHEME, SPEC §7.4); 20 exit 0.
 */

const MODULES = join(REPO_ROOT, 'node_modules')
const CONCURRENCY = 2
const PER_FILE_TIMEOUT_MS = 180_000

function filesIn(dir: string, pattern: RegExp): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => pattern.test(name))
    .map((name) => join(dir, name))
    .sort()
}

const examples = (version: string) =>
  filesIn(join(MODULES, '@readme/oas-examples', version), /\.(json|ya?ml)$/)

const GROUPS: readonly { name: string; files: () => string[]; count: number }[] = [
  {
    name: '@octokit/openapi',
    files: () => filesIn(join(MODULES, '@octokit/openapi/generated'), /\.json$/),
    count: 10,
  },
  {
    name: '@octokit/graphql-schema',
    files: () => [join(MODULES, '@octokit/graphql-schema/schema.graphql')],
    count: 1,
  },
  { name: '@readme/oas-examples 2.0', files: () => examples('2.0'), count: 14 },
  { name: '@readme/oas-examples 3.0', files: () => examples('3.0'), count: 91 },
  { name: '@readme/oas-examples 3.1', files: () => examples('3.1'), count: 24 },
]

type Outcome = { file: string; run: SvcRun; problems: string[] }

async function pool<T, R>(
  items: readonly T[],
  size: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const index = next++
      results[index] = await work(items[index]!)
    }
  }
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, worker))
  return results
}

/** Everything wrong with one run; empty when the report is well formed. */
function problemsOf(run: SvcRun): string[] {
  const problems: string[] = []
  if (run.code !== 0 && run.code !== 1) problems.push(`exit ${run.code ?? run.signal}`)
  if (/internal error/i.test(run.stderr)) problems.push(`stderr: ${run.stderr.slice(0, 500)}`)
  let value: unknown
  try {
    value = JSON.parse(run.stdout)
  } catch (error) {
    problems.push(
      `stdout is not one JSON value (${(error as Error).message}): ${run.stdout.slice(0, 200)}`,
    )
    return problems
  }
  const report = value as {
    parseIssues?: { level?: string }[]
    summary?: Record<string, number>
    error?: unknown
  }
  const keys = Object.keys(report).sort().join(',')
  if (keys !== 'parseIssues,summary' && keys !== 'error,parseIssues,summary')
    problems.push(`keys ${keys}`)
  if (!Array.isArray(report.parseIssues)) return [...problems, 'parseIssues is not an array']
  const counted = { error: 0, warning: 0, debug: 0 } as Record<string, number>
  for (const issue of report.parseIssues)
    counted[issue.level ?? '?'] = (counted[issue.level ?? '?'] ?? 0) + 1
  if (JSON.stringify(counted) !== JSON.stringify(report.summary)) {
    problems.push(
      `summary ${JSON.stringify(report.summary)} does not count the issues ${JSON.stringify(counted)}`,
    )
  }
  const fails = counted.error! > 0 || report.error !== undefined
  if (run.code !== (fails ? 1 : 0)) problems.push(`exit ${run.code} with ${counted.error} errors`)
  return problems
}

describe('svc check --json on every installed real document', () => {
  it.each(GROUPS)(
    '$name',
    async ({ name, files, count }) => {
      const list = files()
      expect(list, `${name}: number of documents`).toHaveLength(count)
      const outcomes = await pool(list, CONCURRENCY, async (file): Promise<Outcome> => {
        const run = await runSvc(['check', '--json', file], { timeoutMs: PER_FILE_TIMEOUT_MS })
        return { file: relative(MODULES, file), run, problems: problemsOf(run) }
      })
      const slowest = outcomes.reduce((a, b) => (b.run.ms > a.run.ms ? b : a))
      const failing = outcomes
        .filter((outcome) => outcome.run.code === 1)
        .map((outcome) => outcome.file)
      console.info(
        `${name}: ${outcomes.length} documents, exit 1 for ${failing.length}${failing.length ? ` (${failing.join(', ')})` : ''}; ` +
          `slowest ${slowest.file} ${(slowest.run.ms / 1000).toFixed(1)} s`,
      )
      const broken = outcomes.filter((outcome) => outcome.problems.length > 0)
      expect(broken.map(({ file, problems }) => `${file}: ${problems.join('; ')}`)).toEqual([])
    },
    // The 10 GitHub descriptions (about 400 MB together) take 20 to 40 s on two cores.
    900_000,
  )
})
