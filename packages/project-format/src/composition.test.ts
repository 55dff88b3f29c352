import { describe, expect, it } from 'vitest'
import { reconcileComposition } from './composition.js'

const kinds = (imports: Record<string, string>, paths: string[]) =>
  reconcileComposition(imports, paths).problems.map((p) => `${p.kind} ${p.generator}`)

describe('the generator composition', () => {
  it('lists imported and cloned generators in the order of the manifest, ignoring other keys', () => {
    const { generators, problems } = reconcileComposition(
      {
        '@svc/engine': 'jsr:@svc/engine@^0.1.0',
        'gen-zod': './gen-zod/mod.ts',
        'gen-typescript': 'jsr:@svc/gen-typescript@^0.1.0',
        zod: 'npm:zod',
      },
      ['deno.json', 'gen-zod/mod.ts', 'gen-zod/print.ts'],
    )
    expect(problems).toEqual([])
    expect(generators).toEqual([
      {
        kind: 'cloned',
        key: 'gen-zod',
        name: 'gen-zod',
        specifier: './gen-zod/mod.ts',
        path: 'gen-zod/mod.ts',
        folder: 'gen-zod',
        directory: false,
      },
      {
        kind: 'imported',
        key: 'gen-typescript',
        name: 'gen-typescript',
        specifier: 'jsr:@svc/gen-typescript@^0.1.0',
        id: '@svc/gen-typescript',
        range: '^0.1.0',
      },
    ])
  })

  it('accepts a clone in a folder of any name, and a folder import with files under it', () => {
    expect(kinds({ 'gen-a': './my-types/mod.ts' }, ['my-types/mod.ts'])).toEqual([])
    expect(kinds({ 'gen-a/': './gen-a/' }, ['gen-a/mod.ts'])).toEqual([])
  })

  it('counts a folder given as `name/` (empty on disk) as a generator folder', () => {
    expect(kinds({}, ['gen-old/'])).toEqual(['unclaimed-folder gen-old'])
    expect(kinds({ 'gen-a': './gen-a/' }, ['gen-a/'])).toEqual(['missing-path gen-a'])
  })

  const refused: [string, Record<string, string>, string[], string[]][] = [
    [
      'an imported generator with a folder of its name',
      { 'gen-zod': 'jsr:@svc/gen-zod@^1' },
      ['gen-zod/mod.ts'],
      ['imported-and-cloned gen-zod'],
    ],
    [
      'a cloned path that is not there',
      { 'gen-mine': './gen-mine/mod.ts' },
      ['src/mod.ts'],
      ['missing-path gen-mine'],
    ],
    [
      'a folder import with nothing under it',
      { 'gen-mine': './gen-mine/' },
      ['gen-minefield.ts'],
      ['missing-path gen-mine'],
    ],
    [
      'a gen-* folder no import names',
      {},
      ['gen-stray/mod.ts', 'gen-root.ts'],
      ['unclaimed-folder gen-stray'],
    ],
    [
      'two clones in one folder',
      { 'gen-a': './gens/a.ts', 'gen-b': './gens/b.ts' },
      ['gens/a.ts', 'gens/b.ts'],
      ['shared-folder gen-b'],
    ],
    [
      'the same generator twice',
      { 'gen-a': 'jsr:@acme/gen-a', 'gen-a/': 'jsr:@acme/gen-a' },
      [],
      ['duplicate gen-a'],
    ],
    [
      'an invalid range',
      { 'gen-zod': 'jsr:@svc/gen-zod@notarange' },
      [],
      ['invalid-range gen-zod'],
    ],
    ['an npm: generator', { 'gen-x': 'npm:gen-x' }, [], ['invalid-specifier gen-x']],
    ['an https: generator', { 'gen-x': 'https://x.dev/mod.ts' }, [], ['invalid-specifier gen-x']],
    [
      'a path outside the project',
      { 'gen-x': '../gen-x/mod.ts' },
      ['gen-x/mod.ts'],
      ['invalid-specifier gen-x', 'unclaimed-folder gen-x'],
    ],
    [
      'a clone at the top of the project',
      { 'gen-x': './mod.ts' },
      ['mod.ts'],
      ['invalid-specifier gen-x'],
    ],
  ]
  for (const [what, imports, paths, problems] of refused)
    it(`refuses ${what}`, () => expect(kinds(imports, paths)).toEqual(problems))

  it('reports every problem, with what it concerns', () => {
    const { problems } = reconcileComposition(
      { 'gen-zod': 'jsr:@svc/gen-zod@^1', 'gen-x': '../x.ts' },
      ['gen-zod/mod.ts', 'gen-old/a.ts'],
    )
    expect(problems).toEqual([
      {
        kind: 'imported-and-cloned',
        generator: 'gen-zod',
        key: 'gen-zod',
        specifier: 'jsr:@svc/gen-zod@^1',
        folder: 'gen-zod',
      },
      {
        kind: 'invalid-specifier',
        generator: 'gen-x',
        key: 'gen-x',
        specifier: '../x.ts',
        problem: 'unsafe path',
      },
      { kind: 'unclaimed-folder', generator: 'gen-old', key: 'gen-old', folder: 'gen-old' },
    ])
  })
})
