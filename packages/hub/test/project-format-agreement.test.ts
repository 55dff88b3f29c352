import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { compositionOf, readRootManifestAt } from '../../cli/src/project/root-manifest.js'
import { MANIFESTS, NAMES } from '../../project-format/test/cases.js'
import { composeUpload } from '../src/stacks/composition.js'
import { readRootManifest } from '../src/stacks/root-manifest.js'

// The CLI reads a project from its folder, the hub from an upload: the same deno.json and the
// same tree must be accepted or refused by both, or `svc publish` and the hub disagree.

const dirs: string[] = []
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })))

function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-format-'))
  dirs.push(dir)
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true })
    writeFileSync(join(dir, path), content)
  }
  return dir
}

/** The CLI as `svc publish --version 1.0.0` reads the manifest; the problems, or []. */
function cliProblems(text: string): string[] {
  try {
    readRootManifestAt(join(project({ 'deno.json': text }), 'deno.json'), '1.0.0')
    return []
  } catch (error) {
    return [(error as Error).message]
  }
}

function hubProblems(text: string): string[] {
  const data = Buffer.from(text)
  const sha256 = createHash('sha256').update(data).digest('hex')
  try {
    readRootManifest([{ path: 'deno.json', data, sha256 }])
    return []
  } catch (error) {
    return [(error as Error).message]
  }
}

describe('the CLI and the hub read root manifests alike', () => {
  for (const [name, accepted] of NAMES)
    it(`both ${accepted ? 'accept' : 'refuse'} the name '${name}'`, () => {
      const text = JSON.stringify({ name, version: '1.0.0', imports: {} })
      expect(cliProblems(text).length === 0, 'CLI').toBe(accepted)
      expect(hubProblems(text).length === 0, 'hub').toBe(accepted)
    })

  for (const [what, text, problems] of MANIFESTS)
    it(`both ${problems.length === 0 ? 'accept' : 'refuse'} ${what}, naming the same problems`, () => {
      const cli = cliProblems(text)
      const hub = hubProblems(text)
      expect(cli.length, cli.join()).toBe(problems.length === 0 ? 0 : 1)
      expect(hub.length, hub.join()).toBe(problems.length === 0 ? 0 : 1)
      // The same clauses, after the CLI's file path and the hub's sentence around them.
      if (problems.length > 0)
        expect(cli[0]!.slice(cli[0]!.indexOf('deno.json: ') + 'deno.json: '.length)).toBe(
          hub[0]!.replace("The root manifest 'deno.json' is not valid: ", '').replace(/\.$/, ''),
        )
    })
})

const TREES: readonly [string, Record<string, string>, Record<string, string>][] = [
  [
    'imported and cloned generators',
    { 'gen-zod': './gen-zod/mod.ts', 'gen-typescript': 'jsr:@svc/gen-typescript@^0.1.0' },
    { 'gen-zod/mod.ts': 'export {}' },
  ],
  ['a clone in a folder of another name', { 'gen-a': './mine/mod.ts' }, { 'mine/mod.ts': '' }],
  ['a folder import', { 'gen-a/': './gen-a/' }, { 'gen-a/mod.ts': '' }],
  ['no generators', {}, { 'src/mod.ts': '' }],
  ['imported with a folder', { 'gen-zod': 'jsr:@svc/gen-zod@^1' }, { 'gen-zod/mod.ts': '' }],
  ['a missing clone', { 'gen-mine': './gen-mine/mod.ts' }, { 'src/mod.ts': '' }],
  ['an orphan folder', {}, { 'gen-stray/mod.ts': '' }],
  [
    'two clones in one folder',
    { 'gen-a': './g/a.ts', 'gen-b': './g/b.ts' },
    { 'g/a.ts': '', 'g/b.ts': '' },
  ],
  ['the same generator twice', { 'gen-a': 'jsr:@a/gen-a', 'gen-a/': 'jsr:@a/gen-a' }, {}],
  ['an invalid range', { 'gen-zod': 'jsr:@svc/gen-zod@notarange' }, {}],
  ['an npm: generator', { 'gen-x': 'npm:gen-x' }, {}],
  ['an https: generator', { 'gen-x': 'https://x.dev/mod.ts' }, {}],
  ['a bare path', { 'gen-x': 'gen-x/mod.ts' }, { 'gen-x/mod.ts': '' }],
  ['a path out of the project', { 'gen-x': '../gen-x/mod.ts' }, {}],
  ['a clone at the top', { 'gen-x': './mod.ts' }, { 'mod.ts': '' }],
]

describe('the CLI and the hub reconcile generators alike', () => {
  for (const [what, imports, files] of TREES)
    it(`both find the same problems with ${what}`, () => {
      const manifest = { name: '@acme/billing', version: '1.0.0', imports }
      const deno = JSON.stringify(manifest)
      const cli = compositionOf(manifest, project({ 'deno.json': deno, ...files })).problems
      const hub = composeUpload(imports, ['deno.json', ...Object.keys(files)]).problems
      expect(cli.length, cli.join('; ')).toBe(hub.length)
    })

  it('finds problems where there are some', () => {
    const refused = TREES.filter(([, imports, files]) => {
      return composeUpload(imports, ['deno.json', ...Object.keys(files)]).problems.length > 0
    })
    expect(refused.map(([what]) => what)).toEqual(TREES.slice(4).map(([what]) => what))
  })
})
