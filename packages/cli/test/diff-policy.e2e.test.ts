import { DIFF_POLICIES } from '@svc/engine'
import { afterAll, describe, expect, it } from 'vitest'
import { expectFailureStdout, fixtureDir, parseJsonStdout, runSvc } from './support/run-svc.js'

const ok = { responses: { '200': { description: 'ok' } } }
const document = (paths: object) =>
  JSON.stringify({ openapi: '3.1.0', info: { title: 'Pets', version: '1.0.0' }, paths })

/**
 * v2 removes a deprecated operation before its sunset date, deprecates another without one and
 * gives a third an unknown stability level, all under the same `info.version`.
 */
const files = fixtureDir({
  'v1.json': document({
    '/pets': { get: ok, post: ok, delete: { ...ok, deprecated: true, 'x-sunset': '2999-01-01' } },
  }),
  'v2.json': document({
    '/pets': {
      get: { ...ok, 'x-stability-level': 'experimental' },
      post: { ...ok, deprecated: true },
    },
  }),
})
afterAll(() => files.dispose())

const diff = (...args: string[]) =>
  runSvc(['diff', 'v1.json', 'v2.json', '--json', ...args], { cwd: files.dir })

async function ids(...args: string[]): Promise<string[]> {
  const run = await diff(...args)
  expect(run.code, run.stderr).toBe(0)
  const { changes } = parseJsonStdout(run) as { changes: { id: string }[] }
  return changes.map((change) => change.id).sort()
}

describe('svc diff --policy', () => {
  it('applies no policy by default', async () => {
    expect(await ids()).toEqual(['endpoint-deprecated', 'endpoint-removed-before-sunset'])
  })

  it('takes policies repeated or as a comma list, and turns on their rules', async () => {
    const expected = [
      'api-version-not-bumped',
      'endpoint-deprecated',
      'endpoint-deprecated-without-sunset',
      'endpoint-removed-before-sunset',
      'endpoint-stability-invalid',
    ]
    expect(await ids('--policy', 'sunset,stability', '--policy', 'version')).toEqual(expected)
    expect(await ids('--policy', 'version,sunset,stability')).toEqual(expected)
  })

  it("accepts every policy of the engine's catalogue", async () => {
    for (const policy of DIFF_POLICIES) expect((await diff('--policy', policy)).code).toBe(0)
  })

  it('refuses a name that is not a policy as a usage error', async () => {
    const args = ['--policy', 'sunset,semver']
    const run = await diff(...args)
    expect(run.code).toBe(2)
    expectFailureStdout(run, ['v1.json', 'v2.json', '--json', ...args])
    expect(run.stderr).toMatch(/'semver' is not a policy\. Policies: sunset, stability, version\./)
  })
})
