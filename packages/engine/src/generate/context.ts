import type { ApiModel } from '../model/index.js'
import { subjectKeys, type Enrichments, type Subject } from './enrichments/index.js'
import type { AnyGeneratorEntry, EntryKind, GeneratorEntry, SubjectOf } from './entries.js'
import { modelItem } from './items.js'
import { exportPathOf, nameOf } from './naming.js'
import { needsWriteView, type ModelView } from './views.js'
import {
  createIdentifier,
  type DefinitionBody,
  type DefinitionKey,
  type DefinitionRegistry,
  type IdentifierKind,
} from './render/index.js'

type ModelEntry = Extract<AnyGeneratorEntry, { kind: 'model' }>

/** A definition to make: its name, kind and file, with its body or a function that builds it. */
export type DefineInput = {
  readonly name: string
  readonly kind: IdentifierKind
  readonly exportPath: string
  /**
   * `item` (the default): the definition belongs to this item and variant, and another item
   * claiming the same name and file is a mismatch. `generator`: a helper every item of this
   * generator shares (a runtime function, an options type); the first item to ask builds it.
   */
  readonly scope?: 'item' | 'generator'
} & (DefinitionBody | { readonly build: () => DefinitionBody })

/** What a generator's transform can do. */
export interface GenerateContext {
  readonly model: ApiModel
  /** `settings.enrichments._stack`: shared by every generator of the run. */
  readonly stack: Readonly<Record<string, unknown>>
  /** `settings.enrichments[<id>]._generator`: this generator's own settings. */
  readonly generatorSettings: Readonly<Record<string, unknown>>
  /**
   * Makes a definition owned by this item, or returns the one made already for the same name
   * and file by this item. Pass `build` when the body refers to definitions that may refer back
   * (recursion): the name is reserved before `build` runs.
   * @throws `Registered definition mismatch: …` when another generator or item owns the place
   */
  define(input: DefineInput): DefinitionKey
  /**
   * The definition a model generator makes for a component schema, made on first use: in the
   * read view (the main model) by default; in the `write` view, the model's write view when it
   * needs one (`needsWriteView`), else the main model, which is the same.
   */
  insertModel(entry: ModelEntry, refName: string, view?: ModelView): DefinitionKey
  /** Marks this item `warning` in the manifest, with the message as its cause. */
  warn(message: string): void
}

/** What one run shares between the contexts of its items. */
export type RunState = {
  readonly model: ApiModel
  readonly registry: DefinitionRegistry
  readonly enrichments: Enrichments
  /** The generator ids of the run, whose enrichments can be read. */
  readonly inRun: ReadonlySet<string>
  /**
   * `insertModel`'s answers by generator id, view and refName: a large description refers to its
   * models thousands of times, and naming one again each time is most of the cost.
   */
  readonly models: Map<string, DefinitionKey>
}

export function generatorKey(generatorId: string, route: Subject, variant: string): string {
  return [generatorId, ...subjectKeys(route), variant].join('|')
}

/** The generator key of the helpers every item of one generator shares. */
export function sharedKey(generatorId: string): string {
  return `${generatorId}|*`
}

/** The context of one item × variant of one generator. */
export class ItemContext implements GenerateContext {
  readonly warnings: string[] = []

  constructor(
    readonly state: RunState,
    readonly generatorId: string,
    readonly key: string,
  ) {}

  get model(): ApiModel {
    return this.state.model
  }

  get stack() {
    return this.state.enrichments.stack()
  }

  get generatorSettings() {
    return this.state.inRun.has(this.generatorId)
      ? this.state.enrichments.generatorScope(this.generatorId)
      : {}
  }

  define(input: DefineInput): DefinitionKey {
    const { name, kind, exportPath, scope = 'item', ...body } = input
    return this.state.registry.register({
      identifier: createIdentifier(name, kind),
      exportPath,
      generatorKey: scope === 'generator' ? sharedKey(this.generatorId) : this.key,
      ...body,
    })
  }

  insertModel(entry: ModelEntry, refName: string, view: ModelView = 'read'): DefinitionKey {
    const seen = view === 'write' && needsWriteView(this.model, refName) ? 'write' : 'read'
    const id = `${entry.id}\0${seen}\0${refName}`
    const cached = this.state.models.get(id)
    // Only a filled definition: one reserved and building (recursion) goes the long way round.
    if (cached && this.state.registry.get(cached.identifier.name, cached.exportPath)) return cached
    const item = modelItem(this.model, refName, seen)
    const context = new ItemContext(
      this.state,
      entry.id,
      generatorKey(entry.id, item.route, 'main'),
    )
    const key = runTransform(
      context,
      entry as GeneratorEntry<'model', unknown>,
      item.subject,
      'main',
      item.route,
    )
    this.warnings.push(...context.warnings)
    this.state.models.set(id, key)
    return key
  }

  warn(message: string): void {
    this.warnings.push(message)
  }
}

/** Runs one transform for one variant, with the enrichment and names the entry gives it. */
export function runTransform<K extends EntryKind>(
  context: ItemContext,
  entry: GeneratorEntry<K, unknown>,
  subject: SubjectOf[K],
  variant: string,
  route: Subject,
): K extends 'model' ? DefinitionKey : void {
  const { enrichments, inRun } = context.state
  const enrichment = inRun.has(entry.id) ? enrichments.read(entry.id, route, variant) : undefined
  return entry.transform({
    context,
    subject,
    variant,
    enrichment,
    name: nameOf(entry, subject, variant),
    exportPath: exportPathOf(entry, subject),
  })
}
