import { readFileSync } from 'node:fs'
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
    // The only run at GitHub's scale: every item of every generator succeeds, and compiles.
    const manifest = JSON.parse(readFileSync(report.manifestPath as string, 'utf8')) as {
      results: Record<string, Record<string, { status: string }>>
    }
    const items = (id: string) => Object.values(manifest.results[id] ?? {})
    expect(items('@svc/gen-typescript').length).toBeGreaterThan(900)
    expect(items('@svc/gen-zod').length).toBeGreaterThan(900)
    expect(items('@svc/gen-fetch-client').length).toBeGreaterThan(1000)
    const failed = Object.values(manifest.results).flatMap((byItem) =>
      Object.values(byItem).filter((result) => result.status !== 'success'),
    )
    expect(failed).toEqual([])
    const client = readFileSync(join(root.dir, 'generated/demo/client.ts'), 'utf8')
    expect(client).toContain('export function reposGetContent(')
    expect(client).toContain('export function metaRoot(')
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
