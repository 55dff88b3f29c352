import type { Identifier } from './identifier.js'

/** Names one definition: its cache key is `(identifier.name, exportPath)`. */
export interface DefinitionKey {
  readonly identifier: Identifier
  /** The generated file that declares it, relative to the output folder: `zod/pet.ts`. */
  readonly exportPath: string
  /** Who emits it: `id|path|method|variant` for an operation, `id|refName|variant` for a model. */
  readonly generatorKey: string
}

/** Another generated definition that this one uses; another file's becomes an import. */
export interface DefinitionDependency {
  readonly name: string
  readonly exportPath: string
  /**
   * Used in type positions only (`z.infer<typeof petSchema>`), so it needs no ordering and is
   * imported with `type`. Implied for a dependency on a `type` identifier.
   */
  readonly typeOnly?: boolean
}

/** A named import from a package: `{ module: 'zod', name: 'z' }` is `import { z } from 'zod'`. */
export interface PackageImport {
  readonly module: string
  readonly name: string
  readonly typeOnly?: boolean
}

/** What a generator emits for one definition. */
export interface DefinitionBody {
  /** The whole declaration, `export` included. Empty code means the definition emits nothing. */
  readonly code: string
  readonly dependsOn?: readonly DefinitionDependency[]
  readonly imports?: readonly PackageImport[]
}

/** A registered definition whose code is known. Frozen. */
export interface Definition extends DefinitionKey {
  /** The body's code with Unix newlines, without blank lines before or whitespace after. */
  readonly code: string
  readonly dependsOn: readonly DefinitionDependency[]
  readonly imports: readonly PackageImport[]
}

/**
 * The input of `DefinitionRegistry.register`: the key with either the body, or a `build` thunk
 * that runs only when the key is new and may register other definitions, this one included.
 */
export type DefinitionInput = DefinitionKey &
  (DefinitionBody | { readonly build: () => DefinitionBody })
