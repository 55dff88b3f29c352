/**
 * @module render: the definitions that generators emit, cached by `(name, exportPath)` in a
 * registry, and rendered into files with their imports, in dependency order. Internal to the
 * generator runner; not exported from `@svc/engine`.
 */
export { createIdentifier, type Identifier, type IdentifierKind } from './identifier.js'
export { toIdentifierName, type IdentifierCasing } from './to-identifier-name.js'
export { propertyKey } from './property-key.js'
export type {
  Definition,
  DefinitionBody,
  DefinitionDependency,
  DefinitionInput,
  DefinitionKey,
  PackageImport,
} from './definition.js'
export { createDefinitionRegistry, type DefinitionRegistry } from './definition-registry.js'
export { DefinitionMismatchError } from './definition-mismatch-error.js'
export type { ImportExtension } from './export-path.js'
export {
  GENERATED_HEADER,
  renderFiles,
  type RenderedFile,
  type RenderFilesOptions,
  type RenderFilesResult,
} from './render-files.js'
