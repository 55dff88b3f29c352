import type { z } from 'zod'
import type { GraphqlOperation, HttpOperation, Schema, WebhookOperation } from '../model/index.js'
import type { GenerateContext } from './context.js'
import type { DefinitionKey } from './render/index.js'
import type { ModelView } from './views.js'

/**
 * A component schema in one view, as a model generator sees it. Every model has a `read` view,
 * the main model that responses use; a model that needs one (`needsWriteView`) also has a `write`
 * view for request bodies. A generator passes its subject's `view` to `insertModel` for the models
 * it refers to, so that a write view refers to write views where there are some.
 */
export type ModelSubject = {
  readonly refName: string
  /**
   * What to name it after: `refName`, or `refName` and a counter (`pet.owner 2`) when another
   * schema's refName gives the same identifier; in the write view `<that> Writable` (with a
   * counter when a schema already has that name). `toIdentifierName(name, casing)` gives every
   * model and view a distinct identifier in either casing.
   */
  readonly name: string
  readonly view: ModelView
  /** The schema as the view sees it (`schemaView`): its refs are left for the generator to name. */
  readonly schema: Schema
}

/** An OpenAPI operation, as an operation generator sees it. */
export type OperationSubject = HttpOperation & {
  /**
   * What to name it after: its `operationId`, or `<method> <path>` without one; with a counter
   * (`get-pet 2`) when another operation's gives the same identifier, as for models.
   */
  readonly name: string
}

/** What each kind of generator runs over. */
export type SubjectOf = {
  readonly operation: OperationSubject
  readonly webhook: WebhookOperation
  readonly graphql: GraphqlOperation
  readonly model: ModelSubject
}

export type EntryKind = keyof SubjectOf

export type TransformArgs<K extends EntryKind, E> = {
  readonly context: GenerateContext
  readonly subject: SubjectOf[K]
  /** `main`, or a variant configured in the enrichments; one transform runs per variant. */
  readonly variant: string
  /** This variant's enrichment payload, validated by `enrichmentSchema`; undefined when unset. */
  readonly enrichment: E | undefined
  /** The identifier name the entry's naming seam gives this item (variant suffix included). */
  readonly name: string
  /** The file the entry's export-path seam gives this item. */
  readonly exportPath: string
}

/**
 * One generator: its id, what it runs over, and how. A model generator's transform returns the
 * key of the definition it made, so that other generators can refer to it (`insertModel`).
 */
export type GeneratorEntry<K extends EntryKind = EntryKind, E = unknown> = {
  readonly kind: K
  /** `@svc/gen-typescript`: the first key of its enrichments and of its generator keys. */
  readonly id: string
  /** Describes one variant's enrichment payload; keys it does not declare are reported. */
  readonly enrichmentSchema?: z.ZodType<E>
  /** An item it returns false for is `notSupported` and is not transformed. */
  isSupported?(args: { context: GenerateContext; subject: SubjectOf[K] }): boolean
  /** The naming seam; a clone changes it to give its definitions other names. */
  toName?(subject: SubjectOf[K], variant: string): string
  /** The export-path seam: where the item's definitions go. */
  toExportPath?(subject: SubjectOf[K]): string
  // Methods, not function properties: a list of generators of different kinds is checked
  // bivariantly, and the runner hands each only the subjects of its kind.
  transform(args: TransformArgs<K, E>): K extends 'model' ? DefinitionKey : void
}

/**
 * Any generator, whatever its enrichment type: the runner passes each its own validated payload,
 * which a list of generators cannot express in one type parameter.
 */
export type AnyGeneratorEntry = { [K in EntryKind]: GeneratorEntry<K, any> }[EntryKind]

type EntryInput<K extends EntryKind, E> = Omit<GeneratorEntry<K, E>, 'kind'>

/** A generator that runs once per OpenAPI operation (path × method) and variant. */
export function toOperationEntry<E = undefined>(
  entry: EntryInput<'operation', E>,
): GeneratorEntry<'operation', E> {
  return { kind: 'operation', ...entry }
}

/** A generator that runs once per 3.1 webhook (name × method) and variant. */
export function toWebhookEntry<E = undefined>(
  entry: EntryInput<'webhook', E>,
): GeneratorEntry<'webhook', E> {
  return { kind: 'webhook', ...entry }
}

/** A generator that runs once per GraphQL root field and variant. */
export function toGraphqlEntry<E = undefined>(
  entry: EntryInput<'graphql', E>,
): GeneratorEntry<'graphql', E> {
  return { kind: 'graphql', ...entry }
}

/** A generator that runs once per component schema and variant, and on demand for others. */
export function toModelEntry<E = undefined>(
  entry: EntryInput<'model', E>,
): GeneratorEntry<'model', E> {
  return { kind: 'model', ...entry }
}
