import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { storeKinds } from '../../hub/test/support/databases.js'
import { oasYaml } from '../../hub/test/support/documents.js'
import { parseGithub, parseJunit, parseMarkdown, textAt } from './support/ci-formats.js'
import { createHome, oneJson, startTestHub, type Home, type TestHub } from './support/hub.js'
import {
  parseJsonStdout,
  recipeLines,
  runSvc,
  type RunOptions,
  type SvcRun,
} from './support/run-svc.js'

/**
 * The waiver file (docs/commands/diff.md#the-waiver-file) on a real pair: petstore-v2 removes
 * DELETE /pets/{petId} (breaking) and adds an operation and a query parameter (info).
 */
const FIXTURES = fileURLToPath(new URL('./fixtures/diff/', import.meta.url))

/** A git repository (`.git`) with the pair, its `api/` folder and a folder above it. */
let above: string
let repo: string
beforeAll(() => {
  above = mkdtempSync(join(tmpdir(), 'svc-waivers-'))
  repo = join(above, 'repo')
  mkdirSync(join(repo, '.git'), { recursive: true })
  mkdirSync(join(repo, 'api'))
  for (const name of ['petstore-v1.yaml', 'petstore-v2.yaml'])
    copyFileSync(join(FIXTURES, name), join(repo, 'api', name))
})
afterAll(() => rmSync(above, { recursive: true, force: true }))

const WAIVE_DELETE = `# Accepted on purpose.
waivers:
  - rule: endpoint-removed
    operation: delete /pets/{petId}
    reason: Deprecated since 1.2 and announced; no client calls it (API-142).
    expires: 2999-12-31
`

function writeWaivers(text: string, folder = repo): string {
  const file = join(folder, 'svc-waivers.yaml')
  writeFileSync(file, text)
  return file
}

const diff = (args: readonly string[], options: RunOptions = {}) =>
  runSvc(['diff', 'petstore-v1.yaml', 'petstore-v2.yaml', ...args], {
    cwd: join(repo, 'api'),
    ...options,
  })

/** Exit 2, the recipe error on stderr with its problem, nothing on stdout. */
function refused(run: SvcRun, problem: string | RegExp): void {
  expect(run.code, run.stderr).toBe(2)
  expect(run.stdout).toBe('')
  const { error } = recipeLines(run.stderr)
  if (typeof problem === 'string') expect(error).toBe(`error: ${problem}`)
  else expect(error).toMatch(problem)
}

describe('svc diff with a waiver file', () => {
  it('a waived change still prints, marked, in every format, and no longer fails the gate', async () => {
    writeWaivers(WAIVE_DELETE)
    const before = await diff(['--fail-on', 'breaking', '--waivers', join(FIXTURES, 'none.yaml')])
    expect(before.code).toBe(2)

    const text = await diff(['--fail-on', 'breaking'])
    expect(text.code, text.stderr).toBe(0)
    expect(text.stderr).toBe('')
    expect(text.stdout).toMatch(/^1 breaking, 0 warnings, 3 info changes \(1 waived\)\n/)
    expect(text.stdout).toContain(
      'DELETE /pets/{petId}\n  breaking  endpoint-removed                The operation DELETE /pets/{petId} was removed.\n            waived: Deprecated since 1.2 and announced; no client calls it (API-142).\n',
    )

    const json = parseJsonStdout(await diff(['--fail-on', 'breaking', '--json'])) as {
      changes: { id: string; waived?: object }[]
      waivers: object
    }
    expect(json.changes.find((change) => change.id === 'endpoint-removed')!.waived).toEqual({
      reason: 'Deprecated since 1.2 and announced; no client calls it (API-142).',
      expires: '2999-12-31',
    })
    expect(json.changes.filter((change) => change.waived)).toHaveLength(1)
    expect(json.waivers).toEqual({
      file: join(repo, 'svc-waivers.yaml'),
      waived: 1,
      expired: [],
      unmatched: [],
    })

    const github = await diff(['--fail-on', 'breaking', '--format', 'github'])
    expect(github.code).toBe(0)
    const { annotations, summary } = parseGithub(github.stdout)
    const waived = annotations.find((a) => a.title === 'endpoint-removed (waived)')!
    expect(waived.command).toBe('notice')
    expect(waived.message).toMatch(/Waived: Deprecated since 1\.2/)
    expect(annotations.filter((a) => a.command === 'error')).toEqual([])
    expect(summary).toMatch(
      /0 breaking changes, 0 warnings, 3 info changes, 1 waived\. --fail-on breaking passed\.$/,
    )

    const junit = parseJunit((await diff(['--format', 'junit'])).stdout)
    expect(junit.failures).toBe(0)
    expect(junit.testcase[0]!['system-out']).toContain('breaking (waived) endpoint-removed')

    const md = parseMarkdown((await diff(['--format', 'markdown', '--fail-on', 'breaking'])).stdout)
    const row = md.tables.flat().find((cells) => cells[1] === 'endpoint-removed')!
    expect(row[0]).toBe('breaking, waived')
    expect(row[2]).toMatch(/Waived: Deprecated since 1\.2/)
    expect(md.rendered).toContain('<code>--fail-on breaking</code> passed.')
  })

  it('a location waives the place and everything below it, not a sibling of a longer name', async () => {
    writeWaivers(
      'waivers:\n  - rule: endpoint-removed\n    location: /paths/~1pets~1{petId}\n    reason: r\n',
    )
    expect((await diff(['--fail-on', 'breaking'])).code).toBe(0)
    writeWaivers(
      'waivers:\n  - rule: endpoint-removed\n    location: /paths/~1pets~1{pet\n    reason: r\n',
    )
    const sibling = await diff(['--fail-on', 'breaking'])
    expect(sibling.code).toBe(1)
    expect(sibling.stderr).toContain(
      'waiver 1 (endpoint-removed, /paths/~1pets~1{pet) matched no change.',
    )
  })

  it('an expired waiver is reported and waives nothing: the gate fails', async () => {
    writeWaivers(WAIVE_DELETE.replace('2999-12-31', '2020-01-31'))
    const run = await diff(['--fail-on', 'breaking'])
    expect(run.code).toBe(1)
    expect(run.stdout).not.toContain('waived')
    expect(run.stderr).toBe(
      [
        `warning: ${repo}/svc-waivers.yaml:3: waiver 1 (endpoint-removed, delete /pets/{petId}) expired on 2020-01-31; it no longer waives anything.`,
        'error: --fail-on breaking: 1 breaking change.',
        '',
      ].join('\n'),
    )
    const github = parseGithub((await diff(['--format', 'github'])).stdout).annotations
    const expired = github.find((a) => a.title === 'waiver expired')!
    expect(expired.command).toBe('warning')
    expect(textAt(join(repo, 'api'), expired)).toBe('  - rule: endpoint-removed')
    expect(github.find((a) => a.title === 'endpoint-removed')!.command).toBe('error')
    const json = parseJsonStdout(await diff(['--json'])) as { waivers: { expired: object[] } }
    expect(json.waivers.expired).toEqual([
      {
        entry: 1,
        line: 3,
        rule: 'endpoint-removed',
        operation: 'delete /pets/{petId}',
        expires: '2020-01-31',
      },
    ])
  })

  it('a waiver that matches no change is reported, and fails nothing by itself', async () => {
    writeWaivers(
      `${WAIVE_DELETE}  - rule: endpoint-removed\n    operation: DELETE /owners\n    reason: gone already\n`,
    )
    const run = await diff(['--fail-on', 'breaking'])
    expect(run.code).toBe(0)
    expect(run.stderr).toBe(
      `warning: ${repo}/svc-waivers.yaml:7: waiver 2 (endpoint-removed, DELETE /owners) matched no change.\n`,
    )
    const md = parseMarkdown((await diff(['--format', 'markdown'])).stdout)
    expect(md.headings.at(-1)!.text).toBe('Waivers')
    expect(md.rendered).toContain('waiver 2 (endpoint-removed, DELETE /owners) matched no change.')
  })

  it('is found from the working folder up to the git root, never above it; --waivers names another', async () => {
    rmSync(join(repo, 'svc-waivers.yaml'), { force: true })
    writeWaivers(WAIVE_DELETE, above)
    expect((await diff(['--fail-on', 'breaking'])).code).toBe(1)
    writeWaivers(WAIVE_DELETE, join(repo, 'api'))
    expect((await diff(['--fail-on', 'breaking'])).code).toBe(0)
    rmSync(join(repo, 'api', 'svc-waivers.yaml'))
    const explicit = await diff(['--fail-on', 'breaking', '--waivers', '../../svc-waivers.yaml'])
    expect(explicit.code).toBe(0)
    rmSync(join(above, 'svc-waivers.yaml'))
    refused(await diff(['--waivers', 'accepted.yaml']), '--waivers accepted.yaml: no such file.')
  })

  it('refuses a file it cannot use (exit 2, its line, nothing on stdout): unknown rule, bad YAML, wrong types, unknown keys', async () => {
    const cases: [string, string | RegExp][] = [
      [
        'waivers:\n  - rule: endpoint-remove\n    operation: DELETE /pets/{petId}\n    reason: r\n',
        `${repo}/svc-waivers.yaml:2:11: waiver 1: 'endpoint-remove' is not a rule id of the catalogue; the nearest: endpoint-removed, component-removed, endpoint-added.`,
      ],
      [
        'waivers:\n  - rule: endpoint-removed\n    operation: [DELETE /pets\n    reason: r\n',
        /^error: \/.*\/repo\/svc-waivers\.yaml:\d+:\d+: not valid YAML: /,
      ],
      [
        'waivers:\n  - rule: endpoint-removed\n    operation: DELETE /pets/{petId}\n    reason: r\n    expires: 2027\n',
        `${repo}/svc-waivers.yaml:5:14: waiver 1: 'expires' must be a date YYYY-MM-DD, not number 2027.`,
      ],
      [
        'waivers:\n  - rule: endpoint-removed\n    operation: DELETE /pets/{petId}\n    reason: r\n    expires: 2027-02-30\n',
        `${repo}/svc-waivers.yaml:5:14: waiver 1: 'expires' must be a date YYYY-MM-DD (the last day it waives).`,
      ],
      [
        'waivers:\n  - rule: endpoint-removed\n    operation: DELETE /pets/{petId}\n    reasons: r\n',
        `${repo}/svc-waivers.yaml:4:5: waiver 1: unknown key 'reasons' (an entry has rule, operation, location, reason, expires).`,
      ],
      [
        'waivers:\n  - rule: endpoint-removed\n    operation: DELETE /pets/{petId}\n',
        `${repo}/svc-waivers.yaml:2:5: waiver 1: 'reason' is required: say why the change is accepted.`,
      ],
      [
        'waivers:\n  - rule: endpoint-removed\n    reason: r\n',
        `${repo}/svc-waivers.yaml:2:5: waiver 1: needs an operation (GET /pets) or a location (a JSON pointer or a coordinate).`,
      ],
      [
        'waivers: all of them\n',
        `${repo}/svc-waivers.yaml:1:10: 'waivers' must be a list, not string "all of them".`,
      ],
      [
        'rules: []\n',
        `${repo}/svc-waivers.yaml:1:1: unknown key 'rules' (the file has only waivers).`,
      ],
      ['# nothing yet\n', `${repo}/svc-waivers.yaml: the file needs a top-level waivers list.`],
    ]
    for (const [text, problem] of cases) {
      writeWaivers(text)
      for (const format of ['text', 'json', 'github']) {
        const run = await diff(['--format', format])
        if (format === 'json') {
          expect(run.code).toBe(2)
          expect(parseJsonStdout(run)).toMatchObject({ type: 'error', code: 'usage', exitCode: 2 })
          continue
        }
        refused(run, problem)
      }
    }
    rmSync(join(repo, 'svc-waivers.yaml'))
  })
})

describe.each(await storeKinds())('svc api push with a waiver file (%s)', (store) => {
  let t: TestHub
  let h: Home
  let folder: string
  const V1 = oasYaml(['get /pets', 'post /pets', 'get /pets/{id}', 'delete /pets/{id}'])
  /** V1 without `delete /pets/{id}`: one breaking change. */
  const V2 = oasYaml(['get /pets', 'post /pets', 'get /pets/{id}'])
  /** V2 with `put /pets/{id}` added. */
  const V3 = oasYaml(['get /pets', 'post /pets', 'get /pets/{id}', 'put /pets/{id}'])

  beforeAll(async () => {
    t = await startTestHub({ env: { SVC_HUB_RATE_LIMITS: 'off' }, store })
    h = createHome()
    folder = mkdtempSync(join(tmpdir(), 'svc-waivers-push-'))
    mkdirSync(join(folder, '.git'))
    writeFileSync(join(folder, 'v1.yaml'), V1)
    writeFileSync(join(folder, 'v2.yaml'), V2)
    writeFileSync(join(folder, 'v3.yaml'), V3)
  })
  afterAll(async () => {
    await t?.dispose()
    h?.dispose()
    if (folder) rmSync(folder, { recursive: true, force: true })
  })

  const svc = (args: readonly string[]) =>
    runSvc(args, {
      cwd: folder,
      env: { ...h.env, SVC_HUB_TOKEN: t.people.alice, SVC_API_ORIGIN: t.url },
    })
  const revisions = async () =>
    ((await t.get('/v1/apis/acme/waived/revisions')).body as { revisions: unknown[] }).revisions
      .length

  it('a malformed waiver file stops the push before anything reaches the hub', async () => {
    expect((await svc(['api', 'create', 'acme/waived'])).code).toBe(0)
    expect((await svc(['api', 'push', 'acme/waived', 'v1.yaml'])).code).toBe(0)
    const pushes = await t.requests({ method: 'POST', path: '/v1/apis/acme/waived/revisions' })
    for (const text of [
      'waivers:\n  - rule: endpoint-remove\n    operation: DELETE /pets/{id}\n    reason: r\n',
      'waivers: [\n',
      'waivers:\n  - rule: endpoint-removed\n    operation: 42\n    reason: r\n',
    ]) {
      writeFileSync(join(folder, 'svc-waivers.yaml'), text)
      const run = await svc(['api', 'push', 'acme/waived', 'v2.yaml', '--fail-on', 'breaking'])
      expect(run.code, run.stderr).toBe(2)
      expect(run.stderr).toMatch(/^error: svc-waivers\.yaml:\d+:\d+: /)
      const refetch = await svc(['api', 'refetch', 'acme/waived'])
      expect(refetch.code).toBe(2)
    }
    expect(await revisions()).toBe(1)
    expect(await t.requests({ method: 'POST', path: '/v1/apis/acme/waived/revisions' })).toBe(
      pushes,
    )
    expect(await t.requests({ method: 'POST', path: '/v1/apis/acme/waived/refetch' })).toBe(0)
  })

  it('a waived breaking change is stored and passes the gate; the formats mark it', async () => {
    writeFileSync(
      join(folder, 'svc-waivers.yaml'),
      'waivers:\n  - rule: endpoint-removed\n    operation: DELETE /pets/{id}\n    reason: Clients moved to POST /pets/{id}/archive.\n',
    )
    const run = await svc([
      'api',
      'push',
      'acme/waived',
      'v2.yaml',
      '--fail-on',
      'breaking',
      '--json',
    ])
    expect(run.code, run.stderr).toBe(0)
    const json = oneJson(run)
    expect(json).toMatchObject({ type: 'pushed', counts: { breaking: 1 }, waivers: { waived: 1 } })
    expect(json.failure).toBeUndefined()
    expect(json.notes).toBeUndefined()
    expect(json.changes[0]).toMatchObject({
      id: 'endpoint-removed',
      waived: { reason: 'Clients moved to POST /pets/{id}/archive.' },
    })
    expect(await revisions()).toBe(2)

    // A re-run of the job on the same commit: the same judgement.
    const rerun = await svc(['api', 'push', 'acme/waived', 'v2.yaml', '--fail-on', 'breaking'])
    expect(rerun.code, rerun.stderr).toBe(0)
    expect(rerun.stdout).toBe(
      'No change: the document is acme/waived revision #2 already; no revision was made.\n',
    )
  })

  it('--format github: annotations at the lines of the pushed document', async () => {
    rmSync(join(folder, 'svc-waivers.yaml'))
    const run = await svc(['api', 'push', 'acme/waived', 'v3.yaml', '--format', 'github'])
    expect(run.code, run.stderr).toBe(0)
    const { annotations, summary } = parseGithub(run.stdout)
    const added = annotations.find((a) => a.title === 'endpoint-added')!
    expect(added).toMatchObject({ command: 'notice', file: 'v3.yaml' })
    expect(textAt(folder, added)).toBe('put:')
    expect(summary).toMatch(
      /^svc api push: acme\/waived revision #3 against #2: 0 breaking changes/,
    )

    // The old document is the hub's: a removal is at the nearest place the pushed one has.
    const removal = await svc(['api', 'push', 'acme/waived', 'v2.yaml', '--format', 'github'])
    const removed = parseGithub(removal.stdout).annotations.find(
      (a) => a.title === 'endpoint-removed',
    )!
    expect(removed).toMatchObject({ command: 'error', file: 'v2.yaml' })
    expect(textAt(folder, removed)).toBe('/pets/{id}:')

    const junit = parseJunit(
      (
        await svc([
          'api',
          'push',
          'acme/waived',
          'v2.yaml',
          '--format',
          'junit',
          '--fail-on',
          'breaking',
        ])
      ).stdout,
    )
    expect(junit.name).toBe('svc api push: acme/waived revision #4 against #3')
    expect(junit.failures).toBe(1)
  })
})
