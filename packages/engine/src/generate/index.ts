/**
 * @module generate: runs generators over a parsed description with the enrichments of
 * `client.json`, and renders what they define. Internal until the official generators, which
 * will settle its shape, are built on it (issue 6).
 */
export {
  toGraphqlEntry,
  toModelEntry,
  toOperationEntry,
  toWebhookEntry,
  type AnyGeneratorEntry,
  type EntryKind,
  type GeneratorEntry,
  type ModelSubject,
  type SubjectOf,
  type TransformArgs,
} from './entries.js'
export type { DefineInput, GenerateContext } from './context.js'
export {
  generate,
  type GenerateOptions,
  type GenerateResult,
  type GenerateSettings,
  type ItemResult,
  type ItemStatus,
  type Manifest,
} from './generate.js'
export { propertyKey, toIdentifierName, type IdentifierCasing } from './render/index.js'
export { variantSuffix } from './enrichments/index.js'
