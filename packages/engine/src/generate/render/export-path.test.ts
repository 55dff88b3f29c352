import { describe, expect, it } from 'vitest'
import { assertExportPath, relativeSpecifier, type ImportExtension } from './export-path.js'

describe('relativeSpecifier', () => {
  const cases: [from: string, to: string, ts: string, js: string, none: string][] = [
    ['zod/pet.ts', 'types.ts', '../types.ts', '../types.js', '../types'],
    ['types.ts', 'zod/pet.ts', './zod/pet.ts', './zod/pet.js', './zod/pet'],
    ['zod/pet.ts', 'zod/tag.ts', './tag.ts', './tag.js', './tag'],
    ['a/b/c.ts', 'a/d/e.ts', '../d/e.ts', '../d/e.js', '../d/e'],
    ['a/b/c.ts', 'x.ts', '../../x.ts', '../../x.js', '../../x'],
    ['a/b/c.ts', 'a/b/d/e.ts', './d/e.ts', './d/e.js', './d/e'],
    // A folder and a file that share a name.
    ['zod.ts', 'zod/pet.ts', './zod/pet.ts', './zod/pet.js', './zod/pet'],
    ['zod/pet.ts', 'zod.ts', '../zod.ts', '../zod.js', '../zod'],
    ['api/types.ts.ts', 'types.ts', '../types.ts', '../types.js', '../types'],
  ]
  it.each(cases)('from %s to %s', (from, to, ts, js, none) => {
    const specifiers = (['.ts', '.js', ''] as ImportExtension[]).map((extension) =>
      relativeSpecifier(from, to, extension),
    )
    expect(specifiers).toEqual([ts, js, none])
  })
})

describe('assertExportPath', () => {
  it('accepts normalized relative .ts paths', () => {
    for (const path of ['types.ts', 'zod/pet.ts', 'a/b/c.ts', '.hidden/x.ts', 'a.b.ts'])
      expect(() => assertExportPath(path)).not.toThrow()
  })

  it('says what is wrong with the others', () => {
    const cases: [path: string, problem: string][] = [
      ['', 'must not be empty'],
      ['/types.ts', 'must be relative'],
      ['zod\\pet.ts', "use '/' as the separator"],
      ['zod//pet.ts', "must not contain empty, '.' or '..' segments"],
      ['./types.ts', "must not contain empty, '.' or '..' segments"],
      ['../types.ts', "must not contain empty, '.' or '..' segments"],
      ['zod/', "must not contain empty, '.' or '..' segments"],
      ['types.js', "must end with '.ts'"],
      ['types', "must end with '.ts'"],
      ['.ts', "must end with '.ts'"],
      ['types.d.ts', "must end with '.ts'"],
    ]
    for (const [path, problem] of cases)
      expect(() => assertExportPath(path)).toThrow(
        new Error(`Invalid export path '${path}': ${problem}`),
      )
  })
})
