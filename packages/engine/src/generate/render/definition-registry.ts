import { DefinitionMismatchError } from './definition-mismatch-error.js'
import type { Definition, DefinitionBody, DefinitionInput, DefinitionKey } from './definition.js'
import { assertExportPath } from './export-path.js'
import { createIdentifier, identifierProblem } from './identifier.js'
import { normalizeCode } from './normalize-code.js'

/**
 * Caches definitions by `(name, exportPath)` for one generation run.
 *
 * Generators ask for the same model many times; only the first request builds it. A recursive
 * schema terminates because its key is reserved before its code is built: the nested request for
 * the same key finds the reservation and gets the key back without building again.
 */
export interface DefinitionRegistry {
  /**
   * Returns the cached key when `(name, exportPath)` is known with the same generator key;
   * otherwise reserves it, builds the body (`build` runs only here) and stores it. When `build`
   * throws or the body is invalid, the reservation is dropped and the error propagates.
   * @throws DefinitionMismatchError when another generator key holds `(name, exportPath)`
   */
  register(input: DefinitionInput): DefinitionKey
  /** Claims `(name, exportPath)` before the code is known. Idempotent for the same generator key. */
  reserve(key: DefinitionKey): DefinitionKey
  /** Stores the body of a reserved definition; throws when it is not reserved or already filled. */
  fill(key: DefinitionKey, body: DefinitionBody): Definition
  get(name: string, exportPath: string): Definition | undefined
  /** Every filled definition, in the order the keys were first reserved. */
  definitions(): readonly Definition[]
  /** Keys reserved but never filled, in reservation order; rendering refuses them. */
  unfilled(): readonly DefinitionKey[]
  /** Forgets every definition of one generator key: what a failed item made is not rendered. */
  discard(generatorKey: string): void
}

interface Entry {
  readonly key: DefinitionKey
  definition?: Definition
}

class DefinitionRegistryImpl implements DefinitionRegistry {
  // Insertion order is reservation order. Neither an identifier nor an export path holds NUL.
  readonly #entries = new Map<string, Entry>()

  register(input: DefinitionInput): DefinitionKey {
    const existing = this.#find(input)
    if (existing !== undefined) return existing.key
    const key = this.reserve(input)
    try {
      this.fill(key, 'build' in input ? input.build() : input)
    } catch (error) {
      // The item failed: a later request may build it again, and rendering must not wait for it.
      const id = cacheKey(key.identifier.name, key.exportPath)
      if (this.#entries.get(id)?.definition === undefined) this.#entries.delete(id)
      throw error
    }
    return key
  }

  reserve(key: DefinitionKey): DefinitionKey {
    const existing = this.#find(key)
    if (existing !== undefined) return existing.key
    assertExportPath(key.exportPath)
    if (typeof key.generatorKey !== 'string' || key.generatorKey === '')
      throw new Error(`Definition '${key.identifier.name}' needs a generator key`)
    const frozen = Object.freeze({
      identifier: createIdentifier(key.identifier.name, key.identifier.kind),
      exportPath: key.exportPath,
      generatorKey: key.generatorKey,
    })
    this.#entries.set(cacheKey(frozen.identifier.name, frozen.exportPath), { key: frozen })
    return frozen
  }

  fill(key: DefinitionKey, body: DefinitionBody): Definition {
    const entry = this.#find(key)
    const where = `Definition '${key.identifier.name}' in file '${key.exportPath}'`
    if (entry === undefined) throw new Error(`${where} is not reserved`)
    if (entry.definition !== undefined) throw new Error(`${where} is already filled`)
    const definition = Object.freeze({
      ...entry.key,
      // Normalised as it is filled, not at render: reading the whole string makes V8 join the
      // pieces a generator concatenated into one string while they are young. Kept as a tree of
      // pieces until render, they were copied by every young-generation GC of the run (about
      // 80 ms of `svc generate` on GitHub's description).
      code: normalizeCode(body.code),
      dependsOn: Object.freeze((body.dependsOn ?? []).map((d) => Object.freeze({ ...d }))),
      imports: Object.freeze((body.imports ?? []).map((i) => Object.freeze({ ...i }))),
    })
    for (const dependency of definition.dependsOn) {
      assertExportPath(dependency.exportPath)
      assertName(dependency.name, `${where} depends on`)
    }
    for (const { module, name } of definition.imports) {
      if (module === '' || module.startsWith('.') || module.startsWith('/'))
        throw new Error(`${where} imports from '${module}': list generated files in dependsOn`)
      assertName(name, `${where} imports`)
    }
    entry.definition = definition
    return definition
  }

  get(name: string, exportPath: string): Definition | undefined {
    return this.#entries.get(cacheKey(name, exportPath))?.definition
  }

  definitions(): readonly Definition[] {
    return [...this.#entries.values()].flatMap((entry) => entry.definition ?? [])
  }

  unfilled(): readonly DefinitionKey[] {
    return [...this.#entries.values()].filter((e) => e.definition === undefined).map((e) => e.key)
  }

  discard(generatorKey: string): void {
    for (const [id, entry] of this.#entries)
      if (entry.key.generatorKey === generatorKey) this.#entries.delete(id)
  }

  /** The entry under the key's cache key, after checking that it belongs to the same generator. */
  #find(key: DefinitionKey): Entry | undefined {
    const entry = this.#entries.get(cacheKey(key.identifier.name, key.exportPath))
    if (entry !== undefined && entry.key.generatorKey !== key.generatorKey)
      throw new DefinitionMismatchError({
        identifierName: key.identifier.name,
        exportPath: key.exportPath,
        cachedGeneratorKey: entry.key.generatorKey,
        newGeneratorKey: key.generatorKey,
      })
    return entry
  }
}

function cacheKey(name: string, exportPath: string): string {
  return `${exportPath}\0${name}`
}

function assertName(name: string, what: string): void {
  const problem = identifierProblem(name, 'value')
  if (problem !== undefined) throw new Error(`${what} invalid identifier '${name}': ${problem}`)
}

/**
 * Creates an empty registry for one generation run.
 *
 * @example
 * ```ts
 * const registry = createDefinitionRegistry()
 * const pet = registry.register({
 *   identifier: createIdentifier('Pet', 'type'),
 *   exportPath: 'types.ts',
 *   generatorKey: 'gen-typescript|Pet|main',
 *   build: () => ({ code: 'export type Pet = { name: string; parent?: Pet }' }),
 * })
 * ```
 */
export function createDefinitionRegistry(): DefinitionRegistry {
  return new DefinitionRegistryImpl()
}
