/**
 * @module generate: runs generators over a parsed description with the enrichments of
 * `client.json`, and renders what they define. `serveGenerateRequests` is the body of a
 * project's bundle, which `svc generate` runs in a worker thread.
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
  type OperationSubject,
  type SubjectOf,
  type TransformArgs,
} from './entries.js'
export type { DefineInput, GenerateContext } from './context.js'
export { needsWriteView, schemaView, type ModelView } from './views.js'
export {
  generate,
  type GenerateOptions,
  type GenerateProgress,
  type GenerateResult,
  type GenerateSettings,
  type ItemResult,
  type ItemStatus,
  type Manifest,
} from './generate.js'
export { propertyKey, toIdentifierName, type IdentifierCasing } from './render/index.js'
export { variantSuffix, type Subject } from './enrichments/index.js'
export { serveGenerateRequests, type GenerateMessage, type GenerateRequest } from './worker.js'
export { listSubjects, type SubjectListing } from './subjects.js'
export { claimNames, modelOperationNames } from './model-names.js'
export { successStatus } from './success-status.js'
