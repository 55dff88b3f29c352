import { describe, expect, it } from 'vitest'
import type { DefinitionKey } from './definition.js'
import { DefinitionMismatchError } from './definition-mismatch-error.js'
import { createDefinitionRegistry } from './definition-registry.js'
import { createIdentifier } from './identifier.js'
import { normalizeCode } from './normalize-code.js'

const pet = (generatorKey: string): DefinitionKey => ({
  identifier: createIdentifier('Pet', 'type'),
  exportPath: 'types.ts',
  generatorKey,
})

function thrown(run: () => unknown): Error {
  try {
    run()
  } catch (error) {
    if (error instanceof Error) return error
  }
  throw new Error('expected an Error to be thrown')
}

describe('the definition registry', () => {
  it('throws the documented mismatch error for the same cache key under another generator key', () => {
    const registry = createDefinitionRegistry()
    registry.register({ ...pet('gen-ts|Pet|main'), code: 'export type Pet = {}' })
    const again = () =>
      registry.register({ ...pet('gen-ts|Pet|form'), code: 'export type Pet = 1' })
    const error = thrown(again)
    expect(error).toBeInstanceOf(DefinitionMismatchError)
    expect(error.message).toBe(
      "Registered definition mismatch: 'Pet' in file 'types.ts'. " +
        "Cached key 'gen-ts|Pet|main' does not match new key 'gen-ts|Pet|form'",
    )
    expect(error).toMatchObject({
      name: 'DefinitionMismatchError',
      identifierName: 'Pet',
      exportPath: 'types.ts',
      cachedGeneratorKey: 'gen-ts|Pet|main',
      newGeneratorKey: 'gen-ts|Pet|form',
    })
    expect(thrown(() => registry.reserve(pet('other')))).toBeInstanceOf(DefinitionMismatchError)
    expect(thrown(() => registry.fill(pet('other'), { code: 'x' }))).toBeInstanceOf(
      DefinitionMismatchError,
    )
    expect(registry.get('Pet', 'types.ts')?.code).toBe('export type Pet = {}')
  })

  it('keeps code as files hold it: Unix newlines, no blank lines before, no whitespace after', () => {
    const registry = createDefinitionRegistry()
    registry.register({ ...pet('a'), code: ' \t\r\n\nexport type Pet = {\r\n  a: 1\r}\n \t\n' })
    expect(registry.get('Pet', 'types.ts')?.code).toBe('export type Pet = {\n  a: 1\n}')
    registry.register({
      identifier: createIdentifier('Empty', 'type'),
      exportPath: 'types.ts',
      generatorKey: 'a',
      code: ' \n\t\n',
    })
    expect(registry.get('Empty', 'types.ts')?.code).toBe('')
  })

  it('normalizes code once for all: normalizing again changes nothing', () => {
    for (const code of ['', ' ', '\n\nx', '\t x \n', 'a\r\n\r\nb\r', ' \n \n y\n\n ', 'x = 1'])
      expect(normalizeCode(normalizeCode(code))).toBe(normalizeCode(code))
  })

  it('keys by name and export path together', () => {
    const registry = createDefinitionRegistry()
    registry.register({ ...pet('a'), code: 'export type Pet = {}' })
    registry.register({ ...pet('b'), exportPath: 'other/types.ts', code: 'export type Pet = {}' })
    registry.register({ ...pet('c'), identifier: createIdentifier('Pets', 'type'), code: 'x' })
    expect(registry.definitions().map((d) => d.generatorKey)).toEqual(['a', 'b', 'c'])
  })

  it('returns the cached definition for the same generator key without building again', () => {
    const registry = createDefinitionRegistry()
    let builds = 0
    const build = () => (builds++, { code: 'export type Pet = { name: string }' })
    const first = registry.register({ ...pet('gen-ts|Pet|main'), build })
    const second = registry.register({ ...pet('gen-ts|Pet|main'), build })
    const third = registry.register({ ...pet('gen-ts|Pet|main'), code: 'ignored' })
    expect(builds).toBe(1)
    expect(second).toBe(first)
    expect(third).toBe(first)
    expect(registry.definitions()).toHaveLength(1)
    expect(registry.get('Pet', 'types.ts')?.code).toBe('export type Pet = { name: string }')
  })

  it('ends recursion: a nested request for a key being built gets the reservation back', () => {
    const registry = createDefinitionRegistry()
    const node = {
      identifier: createIdentifier('treeNodeSchema', 'value'),
      exportPath: 'zod/tree.ts',
      generatorKey: 'gen-zod|TreeNode|main',
    }
    let builds = 0
    const insertTreeNode = (): string =>
      registry.register({
        ...node,
        build: () => {
          builds++
          const self = insertTreeNode() // the schema's `children` refers to the schema itself
          return {
            code: `export const ${self} = z.object({ children: z.array(z.lazy(() => ${self})) })`,
            dependsOn: [{ name: self, exportPath: node.exportPath }],
            imports: [{ module: 'zod', name: 'z' }],
          }
        },
      }).identifier.name
    expect(insertTreeNode()).toBe('treeNodeSchema')
    expect(builds).toBe(1)
    expect(registry.unfilled()).toEqual([])
    expect(registry.get('treeNodeSchema', 'zod/tree.ts')?.code).toContain('z.lazy')
  })

  it('reserves a name before its code is known, then fills it once', () => {
    const registry = createDefinitionRegistry()
    const key = registry.reserve(pet('gen-ts|Pet|main'))
    expect(registry.reserve(pet('gen-ts|Pet|main'))).toBe(key)
    expect(registry.unfilled()).toEqual([key])
    expect(registry.definitions()).toEqual([])
    expect(registry.get('Pet', 'types.ts')).toBeUndefined()
    const definition = registry.fill(key, { code: 'export type Pet = { parent?: Pet }' })
    expect(definition).toMatchObject({ ...key, dependsOn: [], imports: [] })
    expect(Object.isFrozen(definition)).toBe(true)
    expect(registry.unfilled()).toEqual([])
    expect(() => registry.fill(key, { code: 'again' })).toThrow(
      "Definition 'Pet' in file 'types.ts' is already filled",
    )
    expect(() => registry.fill({ ...key, exportPath: 'x.ts' }, { code: '' })).toThrow(
      "Definition 'Pet' in file 'x.ts' is not reserved",
    )
  })

  it('drops the reservation when a build fails, so that a later request builds again', () => {
    const registry = createDefinitionRegistry()
    const failing = () =>
      registry.register({
        ...pet('k'),
        build: () => {
          throw new Error('unsupported schema')
        },
      })
    expect(failing).toThrow('unsupported schema')
    expect(registry.unfilled()).toEqual([])
    const invalid = () =>
      registry.register({ ...pet('k'), code: 'x', imports: [{ module: 'zod', name: 'z-z' }] })
    expect(invalid).toThrow("Definition 'Pet' in file 'types.ts' imports invalid identifier 'z-z'")
    expect(registry.unfilled()).toEqual([])
    registry.register({ ...pet('k'), build: () => ({ code: 'export type Pet = {}' }) })
    expect(registry.definitions()).toHaveLength(1)
  })

  it('refuses keys and bodies that would produce broken code', () => {
    const registry = createDefinitionRegistry()
    const forged = { name: 'class', kind: 'value' } as const
    expect(() => registry.reserve({ ...pet('k'), identifier: forged })).toThrow(
      "Invalid identifier 'class': is a reserved word",
    )
    for (const exportPath of ['', '/abs.ts', '../up.ts', 'a//b.ts', 'a\\b.ts', 'pet.js', 'x.d.ts'])
      expect(() => registry.reserve({ ...pet('k'), exportPath })).toThrow(
        `Invalid export path '${exportPath}'`,
      )
    expect(() => registry.reserve(pet(''))).toThrow("Definition 'Pet' needs a generator key")
    const key = registry.reserve(pet('k'))
    expect(() =>
      registry.fill(key, { code: 'x', dependsOn: [{ name: 'Tag', exportPath: '../tag.ts' }] }),
    ).toThrow("Invalid export path '../tag.ts'")
    expect(() =>
      registry.fill(key, { code: 'x', dependsOn: [{ name: 'pet-tag', exportPath: 'tag.ts' }] }),
    ).toThrow("Definition 'Pet' in file 'types.ts' depends on invalid identifier 'pet-tag'")
    expect(() =>
      registry.fill(key, { code: 'x', imports: [{ module: './x.ts', name: 'x' }] }),
    ).toThrow(
      "Definition 'Pet' in file 'types.ts' imports from './x.ts': list generated files in dependsOn",
    )
    expect(registry.unfilled()).toEqual([key])
  })

  it('treats names such as __proto__ and constructor as ordinary keys', () => {
    const registry = createDefinitionRegistry()
    for (const name of ['__proto__', 'constructor', 'toString'])
      registry.register({
        identifier: createIdentifier(name, 'value'),
        exportPath: 'odd.ts',
        generatorKey: name,
        code: `export const ${name} = 1`,
      })
    expect(registry.definitions().map((d) => d.identifier.name)).toEqual([
      '__proto__',
      'constructor',
      'toString',
    ])
    expect(registry.get('__proto__', 'odd.ts')?.generatorKey).toBe('__proto__')
    expect(registry.get('hasOwnProperty', 'odd.ts')).toBeUndefined()
  })
})
