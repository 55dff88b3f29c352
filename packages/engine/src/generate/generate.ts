import type { ParseIssue } from '../issues/index.js'
import type { ParseApiResult } from '../parse-api.js'
import { ItemContext, generatorKey, runTransform, type RunState } from './context.js'
import { createEnrichments, type EnrichmentWarning } from './enrichments/index.js'
import type { AnyGeneratorEntry, EntryKind, GeneratorEntry, ModelSubject } from './entries.js'
import { itemsOf, type Item } from './items.js'
import { needsWriteView } from './views.js'
import { createDefinitionRegistry, renderFiles, type ImportExtension } from './render/index.js'

export type ItemStatus = 'success' | 'warning' | 'error' | 'skipped' | 'notSupported'

/** How one item of one generator went; `cause` is the error or warning message. */
export type ItemResult = { readonly status: ItemStatus; readonly cause?: string }

/** What a run records: `.svc/<project>/.settings/manifest.json`. */
export type Manifest = {
  readonly startAt: string
  readonly endAt: string
  /** Always present; empty when the document has none. */
  readonly parseIssues: readonly ParseIssue[]
  readonly enrichmentWarnings: readonly EnrichmentWarning[]
  /** Generator id → item key (`GET /pets`, `model Pet` …) → result, in run and document order. */
  readonly results: Readonly<Record<string, Readonly<Record<string, ItemResult>>>>
  /**
   * Export path → how rendering it went: `success`, `error` when definitions had to be left out
   * or the file could not be rendered (the cause says which and why), `skipped` when every
   * definition of the file was empty.
   */
  readonly render: Readonly<Record<string, ItemResult>>
  /** Export path → its size. */
  readonly files: Readonly<Record<string, { readonly lines: number; readonly characters: number }>>
  readonly timings: { readonly generateMs: number; readonly renderMs: number }
}

export type GenerateSettings = {
  /** `settings.enrichments` of client.json, as written. */
  readonly enrichments?: unknown
  /** Generator ids, item keys or operation paths to leave out. */
  readonly skip?: readonly string[]
  /** When given, only these generator ids, item keys or operation paths run. */
  readonly include?: readonly string[]
}

export type GenerateOptions = {
  readonly parsed: ParseApiResult
  readonly generators: readonly AnyGeneratorEntry[]
  readonly settings?: GenerateSettings
  /** Extension of imports between generated files: `.js` (default), `.ts` or none. */
  readonly importExtension?: ImportExtension
  /** Called after each item of each generator: `done` of `total` items of `generatorId`. */
  readonly onProgress?: (progress: GenerateProgress) => void
}

export type GenerateProgress = {
  readonly generatorId: string
  readonly done: number
  readonly total: number
}

export type GenerateResult = {
  /** Export path → content, in code-unit order of paths; never an empty file. */
  readonly files: ReadonlyMap<string, string>
  readonly manifest: Manifest
}

/**
 * Runs every generator over the items of its kind, each variant of each item, and renders what
 * they defined. An item that throws is recorded as `error` with the message as its cause and
 * never stops the others; enrichments are audited after the run and never change the output.
 */
export function generate(options: GenerateOptions): GenerateResult {
  const startAt = new Date().toISOString()
  const started = performance.now()
  const { generators } = options
  const { model } = options.parsed
  const { state, selected } = prepareRun(options)
  const { enrichments } = state
  const results: Record<string, Record<string, ItemResult>> = {}
  for (const entry of generators) {
    const byItem: Record<string, ItemResult> = (results[entry.id] = {})
    const generatorSelected = selected.generator(entry.id)
    if (!generatorSelected) enrichments.markGeneratorSkipped(entry.id)
    const items = itemsOf(model, entry.kind)
    for (const [index, item] of items.entries()) {
      if (!generatorSelected || !selected.item(item)) {
        if (generatorSelected) enrichments.markSubjectSkipped(entry.id, item.route)
        byItem[item.key] = { status: 'skipped' }
      } else byItem[item.key] = runItem(state, entry, item)
      options.onProgress?.({ generatorId: entry.id, done: index + 1, total: items.length })
    }
  }
  const generateMs = performance.now() - started
  const rendered = renderFiles(state.registry, {
    ...(options.importExtension === undefined ? {} : { importExtension: options.importExtension }),
  })
  const files = new Map<string, string>()
  const sizes: Record<string, { lines: number; characters: number }> = {}
  const render: Record<string, ItemResult> = {}
  for (const [path, file] of rendered.files) {
    files.set(path, file.content)
    sizes[path] = { lines: file.lines, characters: file.characters }
    render[path] = { status: 'success' }
  }
  for (const path of rendered.empty)
    render[path] = { status: 'skipped', cause: 'every definition of the file is empty' }
  for (const [path, messages] of rendered.errors)
    render[path] = { status: 'error', cause: messages.join('; ') }
  return {
    files,
    manifest: {
      startAt,
      endAt: new Date().toISOString(),
      parseIssues: options.parsed.parseIssues,
      enrichmentWarnings: enrichments.audit(),
      results,
      render: Object.fromEntries(Object.entries(render).sort(([a], [b]) => (a < b ? -1 : 1))),
      files: sizes,
      timings: { generateMs, renderMs: performance.now() - started - generateMs },
    },
  }
}

/** What one run shares, and its selection; refuses a generator id given twice. */
export function prepareRun(options: Pick<GenerateOptions, 'parsed' | 'generators' | 'settings'>) {
  const ids = options.generators.map((entry) => entry.id)
  const twice = ids.find((id, index) => ids.indexOf(id) !== index)
  if (twice !== undefined) throw new Error(`The generator '${twice}' is in the run twice`)
  const settings = options.settings ?? {}
  const enrichments = createEnrichments({
    enrichments: settings.enrichments,
    generators: options.generators.map((entry) => ({
      id: entry.id,
      kind: entry.kind === 'model' ? 'model' : 'operation',
      ...(entry.enrichmentSchema ? { schema: entry.enrichmentSchema } : {}),
    })),
  })
  const state: RunState = {
    model: options.parsed.model,
    registry: createDefinitionRegistry(),
    enrichments,
    inRun: new Set(ids),
    models: new Map(),
  }
  return { state, selected: selection(settings, new Set(ids)) }
}

function runItem(
  state: RunState,
  entry: GeneratorEntry<EntryKind, unknown>,
  item: Item,
): ItemResult {
  const warnings: string[] = []
  const keys: string[] = []
  try {
    const probe = new ItemContext(state, entry.id, generatorKey(entry.id, item.route, 'main'))
    if (entry.isSupported && !entry.isSupported({ context: probe, subject: item.subject }))
      return { status: 'notSupported' }
    for (const variant of state.enrichments.variants(entry.id, item.route)) {
      const context = new ItemContext(state, entry.id, generatorKey(entry.id, item.route, variant))
      keys.push(context.key)
      runTransform(context, entry, item.subject, variant, item.route)
      // A model's write view is part of its item: it exists whether or not a body refers to it.
      if (entry.kind === 'model' && variant === 'main') {
        const { refName } = item.subject as ModelSubject
        if (needsWriteView(state.model, refName))
          context.insertModel(entry as GeneratorEntry<'model', unknown>, refName, 'write')
      }
      warnings.push(...context.warnings)
    }
  } catch (error) {
    // Nothing of a failed item is rendered: its other variants' definitions go too.
    for (const key of keys) state.registry.discard(key)
    return { status: 'error', cause: error instanceof Error ? error.message : String(error) }
  }
  return warnings.length > 0
    ? { status: 'warning', cause: warnings.join('; ') }
    : { status: 'success' }
}

/**
 * `skip` and `include` name generator ids, item keys, or operation paths (all their methods).
 * An `include` that names generator ids runs only those; one that names items runs only those
 * items; naming both narrows by both.
 */
function selection(settings: GenerateSettings, generatorIds: ReadonlySet<string>) {
  const skip = new Set(names(settings.skip ?? [], 'skip'))
  const include = names(settings.include ?? [], 'include')
  const includedGenerators = new Set(include.filter((name) => generatorIds.has(name)))
  const includedItems = new Set(include.filter((name) => !generatorIds.has(name)))
  const named = (set: ReadonlySet<string>, item: Item) =>
    set.has(item.key) || (item.path !== undefined && set.has(item.path))
  return {
    generator: (id: string) =>
      !skip.has(id) && (includedGenerators.size === 0 || includedGenerators.has(id)),
    item: (item: Item) =>
      !named(skip, item) && (includedItems.size === 0 || named(includedItems, item)),
  }
}

function names(value: unknown, what: string): readonly string[] {
  if (!Array.isArray(value) || value.some((entry) => typeof entry !== 'string'))
    throw new Error(`settings.${what} must be a list of generator ids, items or paths`)
  return value as string[]
}
