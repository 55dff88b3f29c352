import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  createProject as project,
  GITHUB_GRAPHQL,
  GITHUB_REST,
  typecheckFolder,
} from './support/app-root.js'
import { parseJsonStdout } from './support/run-svc.js'

// GitHub's descriptions take minutes to generate and typecheck: a file of their own runs them
// beside the other generate tests instead of after them.
describe("svc generate: the issue's first runs, at GitHub's scale", () => {
  it("init + install + generate on GitHub's REST description gives files that compile", async () => {
    const root = await project(['gen-typescript', 'gen-zod', 'gen-fetch-client'])
    expect((await root.svc(['bundle', 'demo'])).code).toBe(0)
    const run = await root.svc(['generate', 'demo', GITHUB_REST, '--json'], { timeoutMs: 300_000 })
    expect(run.code, run.stderr).toBe(0)
    const report = parseJsonStdout(run)
    expect(report.errors).toEqual([])
    expect(typecheckFolder(join(root.dir, 'generated/demo'))).toEqual({ status: 0, output: '' })
  }, 400_000)

  it("and on GitHub's GraphQL schema, whose one error-level issue makes it exit 1", async () => {
    const root = await project(['gen-typescript', 'gen-graphql-client'], 'gh')
    expect((await root.svc(['bundle', 'gh'])).code).toBe(0)
    const run = await root.svc(['generate', 'gh', GITHUB_GRAPHQL, '--json'], { timeoutMs: 300_000 })
    const report = parseJsonStdout(run)
    // The schema declares EnterpriseOwnerInfo.repositoryDeployKeySetting twice.
    expect(
      (report.parseIssues as { level: string; type: string }[])
        .filter((i) => i.level === 'error')
        .map((i) => i.type),
    ).toContain('INVALID_TYPE_DEFINITION')
    expect(run.code).toBe(1)
    expect(report.errors).toEqual([])
    expect(root.files('generated/gh')).toEqual(['graphql-client.ts', 'types.ts'])
    expect(typecheckFolder(join(root.dir, 'generated/gh'))).toEqual({ status: 0, output: '' })
  }, 400_000)
})
