import type {
  ExternalDocs,
  Header,
  MediaType,
  OasModel,
  Parameter,
  RequestBody,
  Response,
  Schema,
  SchemaAnnotations,
  Server,
} from '../../model/index.js'
import type { ChangeDelta, ChangeExtra, ChangelogBuilder } from '../changelog.js'
import type { DocumentationRuleId } from './documentation-rules.js'
import type { Operation } from './operation-diff.js'
import type { Comparison } from './schema-diff.js'
import { escapePointer, type Note, Scope, Shared } from './scope.js'

type Examples = { readonly example?: unknown; readonly examples?: unknown }
type Delta = keyof ChangeDelta

// Comparing ----------------------------------------------------------------------------------

// Most texts are equal: each function finds what changed first and builds labels and pointers
// only for that.

/** Summary, description and `externalDocs` of two operations at the same path and method. */
export function compareOperationDocs(
  scope: Scope,
  old: Operation,
  next: Operation,
  pointer: string,
): void {
  const summary = textDelta(old.summary, next.summary)
  const description = textDelta(old.description, next.description)
  const docs = docsDelta(old.externalDocs, next.externalDocs)
  if (!summary && !description && !docs) return
  const label = operationLabel(next)
  if (summary)
    note(
      scope,
      'operation-summary-changed',
      `${pointer}/summary`,
      `the summary of ${label}`,
      summary,
    )
  if (description)
    note(
      scope,
      'operation-description-changed',
      `${pointer}/description`,
      `the description of ${label}`,
      description,
    )
  if (docs)
    note(
      scope,
      'external-docs-changed',
      `${pointer}/externalDocs`,
      `the external documentation of ${label}`,
      docs,
    )
}

export function compareParameterDocs(
  scope: Scope,
  old: Parameter,
  next: Parameter,
  pointer: string,
): void {
  const label = () => `${next.in} parameter \`${next.name}\``
  compareDescription(scope, 'parameter-description-changed', pointer, label, old, next)
  compareExamples(scope, pointer, label, old, next)
}

export function compareRequestBodyDocs(
  scope: Scope,
  old: RequestBody,
  next: RequestBody,
  pointer: string,
): void {
  compareDescription(
    scope,
    'request-body-description-changed',
    pointer,
    () => (scope instanceof Shared ? scope.label : 'the request body'),
    old,
    next,
  )
}

/** `label` names the response: `response 200`, or `response \`NotFound\`` for a component. */
export function compareResponseDocs(
  scope: Scope,
  old: Response,
  next: Response,
  pointer: string,
  label: string,
): void {
  compareDescription(scope, 'response-description-changed', pointer, () => label, old, next)
}

export function compareHeaderDocs(
  scope: Scope,
  old: Header,
  next: Header,
  pointer: string,
  label: string,
): void {
  compareDescription(scope, 'header-description-changed', pointer, () => label, old, next)
  compareExamples(scope, pointer, () => label, old, next)
}

/** The examples of one media type (`pointer` is its place under `content`). */
export function compareMediaTypeDocs(
  scope: Scope,
  type: string,
  old: MediaType,
  next: MediaType,
  pointer: string,
): void {
  compareExamples(scope, pointer, () => `\`${type}\` in ${scope.label}`, old, next)
}

/**
 * The title, description and examples of two schemas at one place. Two component refs compare
 * only what the refs themselves say (3.1 siblings of `$ref`): the components are compared once,
 * on their own. A ref against an inline schema compares the ref's target, so inlining is no change.
 */
export function compareSchemaDocs(
  cmp: Comparison,
  scope: Scope,
  pointer: string,
  at: string,
  o: Schema,
  n: Schema,
): void {
  const refs = o.kind === 'ref' && n.kind === 'ref'
  const old = refs ? o : annotationsOf(cmp.old, o)
  const next = refs ? n : annotationsOf(cmp.next, n)
  if (
    old.title === next.title &&
    old.description === next.description &&
    old.example === next.example &&
    old.examples === next.examples
  )
    return
  const title = textDelta(old.title, next.title)
  const description = textDelta(old.description, next.description)
  const [a, b] = [old.examples ?? old.example, next.examples ?? next.example]
  const example = valueDelta(a, b)
  if (!title && !description && !example) return
  const owner =
    scope instanceof Shared && scope.bucket === 'schemas'
      ? scope.label
      : `the schema of ${scope.label}`
  const label = at === '' ? owner : `property \`${at}\` of ${owner}`
  if (title)
    note(scope, 'schema-description-changed', `${pointer}/title`, `the title of ${label}`, title)
  if (description)
    note(
      scope,
      'schema-description-changed',
      `${pointer}/description`,
      `the description of ${label}`,
      description,
    )
  if (example)
    note(
      scope,
      'example-changed',
      `${pointer}/${(next.examples ?? old.examples) ? 'examples' : 'example'}`,
      `the example of ${label}`,
      example,
    )
}

/** A ref's own annotations over its target's. */
function annotationsOf(model: OasModel, schema: Schema): SchemaAnnotations {
  if (schema.kind !== 'ref') return schema
  let target: Schema = schema
  for (let hops = 0; target.kind === 'ref' && hops < 10; hops++) {
    if (!Object.hasOwn(model.components.schemas, target.refName)) return schema
    target = model.components.schemas[target.refName]!
  }
  const own =
    schema.title !== undefined ||
    schema.description !== undefined ||
    schema.example !== undefined ||
    schema.examples !== undefined
  if (!own) return target
  return {
    nullable: target.nullable,
    title: schema.title ?? target.title,
    description: schema.description ?? target.description,
    example: schema.example ?? target.example,
    examples: schema.examples ?? target.examples,
  }
}

/** The info block, `externalDocs`, tags, servers and security schemes of two documents. */
export function compareDocumentDocs(log: ChangelogBuilder, old: OasModel, next: OasModel): void {
  const scope = new Scope('document')
  compareInfo(scope, old.info, next.info)
  const docs = docsDelta(old.externalDocs, next.externalDocs)
  if (docs)
    note(
      scope,
      'external-docs-changed',
      '/externalDocs',
      'the external documentation of the API',
      docs,
    )
  const tags = new Map(old.tags.map((tag) => [tag.name, tag]))
  next.tags.forEach((tag, index) => {
    const before = tags.get(tag.name)
    if (!before) return
    const label = () => `tag \`${tag.name}\``
    compareDescription(scope, 'tag-description-changed', `/tags/${index}`, label, before, tag)
    const docs = docsDelta(before.externalDocs, tag.externalDocs)
    if (docs)
      note(
        scope,
        'external-docs-changed',
        `/tags/${index}/externalDocs`,
        `the external documentation of ${label()}`,
        docs,
      )
  })
  const servers = new Map(old.servers.map((server) => [serverKey(server), server]))
  next.servers.forEach((server, index) => {
    const before = servers.get(serverKey(server))
    if (before) compareServer(scope, `/servers/${index}`, before, server)
  })
  const schemes = old.components.securitySchemes
  for (const [name, scheme] of Object.entries(next.components.securitySchemes))
    if (Object.hasOwn(schemes, name))
      compareDescription(
        scope,
        'security-scheme-description-changed',
        `/components/securitySchemes/${escapePointer(name)}`,
        () => `security scheme \`${name}\``,
        schemes[name]!,
        scheme,
      )
  emitDocumentation(log, scope, {})
}

function compareInfo(scope: Scope, old: OasModel['info'], next: OasModel['info']): void {
  // Titles and version labels are short: the message shows both.
  for (const key of ['title', 'version'] as const) {
    const delta = textDelta(old[key], next[key])
    if (delta)
      note(
        scope,
        'api-info-changed',
        `/info/${key}`,
        `the API ${key}`,
        delta,
        delta === 'modified' ? ` from \`${old[key]}\` to \`${next[key]}\`` : '',
      )
  }
  for (const key of ['summary', 'description', 'termsOfService'] as const) {
    const delta = textDelta(old[key], next[key])
    if (delta) note(scope, 'api-info-changed', `/info/${key}`, `the API ${INFO_NOUNS[key]}`, delta)
  }
  for (const key of ['contact', 'license'] as const) {
    const delta = valueDelta(old[key], next[key])
    if (delta) note(scope, 'api-info-changed', `/info/${key}`, `the API ${key}`, delta)
  }
}

const INFO_NOUNS = {
  summary: 'summary',
  description: 'description',
  termsOfService: 'terms of service',
}

function compareServer(scope: Scope, pointer: string, old: Server, next: Server): void {
  const label = () => `server \`${next.url}\``
  compareDescription(scope, 'server-description-changed', pointer, label, old, next)
  const variables = old.variables ?? {}
  for (const [name, variable] of Object.entries(next.variables ?? {}))
    if (Object.hasOwn(variables, name))
      compareDescription(
        scope,
        'server-description-changed',
        `${pointer}/variables/${escapePointer(name)}`,
        () => `variable \`${name}\` of ${label()}`,
        variables[name]!,
        variable,
      )
}

function serverKey(server: Server): string {
  return server.url.replace(/\/+$/, '')
}

/** The `description` of two things at `pointer`, named by `label` when it changed. */
function compareDescription(
  scope: Scope,
  id: DocumentationRuleId,
  pointer: string,
  label: () => string,
  old: { readonly description?: string },
  next: { readonly description?: string },
): void {
  const delta = textDelta(old.description, next.description)
  if (delta) note(scope, id, `${pointer}/description`, `the description of ${label()}`, delta)
}

/** `example` and each named example of `examples`, apart. */
function compareExamples(
  scope: Scope,
  pointer: string,
  label: () => string,
  old: Examples,
  next: Examples,
): void {
  const example = valueDelta(old.example, next.example)
  if (example)
    note(scope, 'example-changed', `${pointer}/example`, `the example of ${label()}`, example)
  if (old.examples === next.examples) return
  const before = (old.examples ?? {}) as Readonly<Record<string, unknown>>
  const after = (next.examples ?? {}) as Readonly<Record<string, unknown>>
  for (const name of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const [a, b] = [own(before, name), own(after, name)]
    if (sameExample(a, b)) continue
    note(
      scope,
      'example-changed',
      `${pointer}/examples/${escapePointer(name)}`,
      `the example \`${name}\` of ${label()}`,
      a === undefined ? 'added' : b === undefined ? 'deleted' : 'modified',
    )
  }
}

function own(record: Readonly<Record<string, unknown>>, key: string): unknown {
  return Object.hasOwn(record, key) ? record[key] : undefined
}

// Texts and values ---------------------------------------------------------------------------

/**
 * How a text changed for a reader: a run of whitespace is one space, so re-wrapping a
 * description, or a YAML block scalar's final newline, is no change; a blank text is no text.
 */
function textDelta(old: string | undefined, next: string | undefined): Delta | undefined {
  if (old === next) return undefined
  const [had, has] = [!blank(old), !blank(next)]
  if (!had) return has ? 'added' : undefined
  if (!has) return 'deleted'
  return normal(old!) === normal(next!) ? undefined : 'modified'
}

function blank(text: string | undefined): boolean {
  return text === undefined || !/\S/.test(text)
}

/** A text with each run of whitespace as one space and no space at either end. */
function normal(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

/** `externalDocs` changed when its URL or its description did. */
function docsDelta(
  old: ExternalDocs | undefined,
  next: ExternalDocs | undefined,
): Delta | undefined {
  if (old === next) return undefined
  if (!old) return 'added'
  if (!next) return 'deleted'
  return old.url === next.url && !textDelta(old.description, next.description)
    ? undefined
    : 'modified'
}

function valueDelta(old: unknown, next: unknown): Delta | undefined {
  if (sameValue(old, next)) return undefined
  return old === undefined ? 'added' : next === undefined ? 'deleted' : 'modified'
}

/** Named examples are often one component used by many media types: compare each pair once. */
const SAME_EXAMPLES = new WeakMap<object, WeakMap<object, boolean>>()

function sameExample(a: unknown, b: unknown): boolean {
  if (a === b || typeof a !== 'object' || typeof b !== 'object' || !a || !b) return sameValue(a, b)
  let known = SAME_EXAMPLES.get(a)
  if (!known) SAME_EXAMPLES.set(a, (known = new WeakMap()))
  let same = known.get(b)
  if (same === undefined) known.set(b, (same = sameValue(a, b)))
  return same
}

/** JSON values equal by content: object keys in any order. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false
    for (let i = 0; i < a.length; i++) if (!sameValue(a[i], b[i])) return false
    return true
  }
  if (Array.isArray(b)) return false
  const x = a as Readonly<Record<string, unknown>>
  const y = b as Readonly<Record<string, unknown>>
  let count = 0
  for (const key in x) {
    if (!Object.hasOwn(y, key) || !sameValue(x[key], y[key])) return false
    count++
  }
  for (const key in y) if (Object.hasOwn(y, key)) count--
  return count === 0
}

function note(
  scope: Scope,
  id: DocumentationRuleId,
  pointer: string,
  subject: string,
  delta: Delta,
  detail = '',
): void {
  const verb = delta === 'added' ? 'was added' : delta === 'deleted' ? 'was removed' : 'changed'
  const text = `${subject.charAt(0).toUpperCase()}${subject.slice(1)} ${verb}${detail}.`
  scope.notes.push({ id, pointer, text, delta })
}

// Emitting -----------------------------------------------------------------------------------

/**
 * Lists the documentation changes of a scope and its regions, each counted once in the
 * `documentation` section. A shared component's are listed once, with the operations that reach
 * it (none when no operation does).
 */
export function emitDocumentation(log: ChangelogBuilder, scope: Scope, extra: ChangeExtra): void {
  const notes = [...notesOf(scope)]
  if (notes.length === 0) return
  if (scope instanceof Shared) {
    const operations = new Set<string>()
    for (const entry of scope.reached.values())
      for (const operation of entry.operations) operations.add(operation)
    if (operations.size > 0) extra = { operations: [...operations].sort() }
  }
  for (const { id, pointer, text, delta } of notes) {
    const before = log.changeCount
    log.add(id, pointer, text, extra)
    if (log.changeCount > before) log.count('documentation', delta)
  }
}

function* notesOf(scope: Scope): Generator<Note> {
  yield* scope.notes
  for (const region of scope.regions) yield* notesOf(region)
}

function operationLabel(operation: Operation): string {
  return operation.kind === 'webhook'
    ? `webhook ${operation.name} (${operation.method.toUpperCase()})`
    : `${operation.method.toUpperCase()} ${operation.path}`
}
