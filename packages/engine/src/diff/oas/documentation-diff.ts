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
import { escapePointer, Scope, Shared } from './scope.js'

/** One documentation change, before it is a changelog entry. */
type Note = {
  readonly id: DocumentationRuleId
  readonly pointer: string
  readonly text: string
  readonly delta: keyof ChangeDelta
}

/**
 * Documentation changes are kept apart from a scope's facts: they never make the operation or
 * component that holds them "modified", and they are counted in the `documentation` section.
 */
const NOTES = new WeakMap<Scope, Note[]>()

type Examples = { readonly example?: unknown; readonly examples?: unknown }

// Comparing ----------------------------------------------------------------------------------

/** Summary, description and `externalDocs` of two operations at the same path and method. */
export function compareOperationDocs(
  scope: Scope,
  old: Operation,
  next: Operation,
  pointer: string,
): void {
  const label = operationLabel(next)
  compareText(scope, 'operation-summary-changed', `${pointer}/summary`, `the summary of ${label}`, [
    old.summary,
    next.summary,
  ])
  compareText(
    scope,
    'operation-description-changed',
    `${pointer}/description`,
    `the description of ${label}`,
    [old.description, next.description],
  )
  compareExternalDocs(scope, `${pointer}/externalDocs`, label, old.externalDocs, next.externalDocs)
}

export function compareParameterDocs(
  scope: Scope,
  old: Parameter,
  next: Parameter,
  pointer: string,
): void {
  const label = `${next.in} parameter \`${next.name}\``
  compareText(
    scope,
    'parameter-description-changed',
    `${pointer}/description`,
    `the description of ${label}`,
    [old.description, next.description],
  )
  compareExamples(scope, pointer, label, old, next)
}

export function compareRequestBodyDocs(
  scope: Scope,
  old: RequestBody,
  next: RequestBody,
  pointer: string,
): void {
  const label = scope instanceof Shared ? scope.label : 'the request body'
  compareText(
    scope,
    'request-body-description-changed',
    `${pointer}/description`,
    `the description of ${label}`,
    [old.description, next.description],
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
  compareText(
    scope,
    'response-description-changed',
    `${pointer}/description`,
    `the description of ${label}`,
    [old.description, next.description],
  )
}

export function compareHeaderDocs(
  scope: Scope,
  old: Header,
  next: Header,
  pointer: string,
  label: string,
): void {
  compareText(
    scope,
    'header-description-changed',
    `${pointer}/description`,
    `the description of ${label}`,
    [old.description, next.description],
  )
  compareExamples(scope, pointer, label, old, next)
}

/** The examples of one media type (`pointer` is its place under `content`). */
export function compareMediaTypeDocs(
  scope: Scope,
  type: string,
  old: MediaType,
  next: MediaType,
  pointer: string,
): void {
  compareExamples(scope, pointer, `\`${type}\` in ${scope.label}`, old, next)
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
  const [old, next] =
    o.kind === 'ref' && n.kind === 'ref'
      ? [o, n]
      : [annotationsOf(cmp.old, o), annotationsOf(cmp.next, n)]
  if (
    old.title === next.title &&
    old.description === next.description &&
    old.example === next.example &&
    old.examples === next.examples
  )
    return
  const owner =
    scope instanceof Shared && scope.bucket === 'schemas'
      ? scope.label
      : `the schema of ${scope.label}`
  const label = at === '' ? owner : `property \`${at}\` of ${owner}`
  compareText(scope, 'schema-description-changed', `${pointer}/title`, `the title of ${label}`, [
    old.title,
    next.title,
  ])
  compareText(
    scope,
    'schema-description-changed',
    `${pointer}/description`,
    `the description of ${label}`,
    [old.description, next.description],
  )
  const [a, b] = [old.examples ?? old.example, next.examples ?? next.example]
  if (!sameValue(a, b))
    note(
      scope,
      'example-changed',
      `${pointer}/${(next.examples ?? old.examples) ? 'examples' : 'example'}`,
      `the example of ${label}`,
      a,
      b,
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
  compareExternalDocs(scope, '/externalDocs', 'the API', old.externalDocs, next.externalDocs)
  const tags = new Map(old.tags.map((tag) => [tag.name, tag]))
  next.tags.forEach((tag, index) => {
    const before = tags.get(tag.name)
    if (!before) return
    const label = `tag \`${tag.name}\``
    compareText(
      scope,
      'tag-description-changed',
      `/tags/${index}/description`,
      `the description of ${label}`,
      [before.description, tag.description],
    )
    compareExternalDocs(
      scope,
      `/tags/${index}/externalDocs`,
      label,
      before.externalDocs,
      tag.externalDocs,
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
      compareText(
        scope,
        'security-scheme-description-changed',
        `/components/securitySchemes/${escapePointer(name)}/description`,
        `the description of security scheme \`${name}\``,
        [schemes[name]!.description, scheme.description],
      )
  emitDocumentation(log, scope, {})
}

function compareInfo(scope: Scope, old: OasModel['info'], next: OasModel['info']): void {
  // Titles and version labels are short: the message shows both.
  for (const key of ['title', 'version'] as const) {
    const [a, b] = [old[key] || undefined, next[key] || undefined]
    if (a !== b)
      note(
        scope,
        'api-info-changed',
        `/info/${key}`,
        `the API ${key}`,
        a,
        b,
        a && b && ` from \`${a}\` to \`${b}\``,
      )
  }
  for (const key of ['summary', 'description', 'termsOfService'] as const)
    compareText(scope, 'api-info-changed', `/info/${key}`, `the API ${INFO_NOUNS[key]}`, [
      old[key],
      next[key],
    ])
  for (const key of ['contact', 'license'] as const)
    if (!sameValue(old[key], next[key]))
      note(scope, 'api-info-changed', `/info/${key}`, `the API ${key}`, old[key], next[key])
}

const INFO_NOUNS = {
  summary: 'summary',
  description: 'description',
  termsOfService: 'terms of service',
}

function compareServer(scope: Scope, pointer: string, old: Server, next: Server): void {
  const label = `server \`${next.url}\``
  compareText(
    scope,
    'server-description-changed',
    `${pointer}/description`,
    `the description of ${label}`,
    [old.description, next.description],
  )
  const variables = old.variables ?? {}
  for (const [name, variable] of Object.entries(next.variables ?? {}))
    if (Object.hasOwn(variables, name))
      compareText(
        scope,
        'server-description-changed',
        `${pointer}/variables/${escapePointer(name)}/description`,
        `the description of variable \`${name}\` of ${label}`,
        [variables[name]!.description, variable.description],
      )
}

function serverKey(server: Server): string {
  return server.url.replace(/\/+$/, '')
}

function compareExternalDocs(
  scope: Scope,
  pointer: string,
  label: string,
  old: ExternalDocs | undefined,
  next: ExternalDocs | undefined,
): void {
  if (old === next) return
  if (old && next && old.url === next.url && text(old.description) === text(next.description))
    return
  note(scope, 'external-docs-changed', pointer, `the external documentation of ${label}`, old, next)
}

/** `example` and each named example of `examples`, apart. */
function compareExamples(
  scope: Scope,
  pointer: string,
  label: string,
  old: Examples,
  next: Examples,
): void {
  if (!sameValue(old.example, next.example))
    note(
      scope,
      'example-changed',
      `${pointer}/example`,
      `the example of ${label}`,
      old.example,
      next.example,
    )
  if (old.examples === next.examples) return
  const before = (old.examples ?? {}) as Readonly<Record<string, unknown>>
  const after = (next.examples ?? {}) as Readonly<Record<string, unknown>>
  for (const name of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const [a, b] = [own(before, name), own(after, name)]
    if (!sameExample(a, b))
      note(
        scope,
        'example-changed',
        `${pointer}/examples/${escapePointer(name)}`,
        `the example \`${name}\` of ${label}`,
        a,
        b,
      )
  }
}

function own(record: Readonly<Record<string, unknown>>, key: string): unknown {
  return Object.hasOwn(record, key) ? record[key] : undefined
}

// Texts and values ---------------------------------------------------------------------------

/**
 * A text as a reader sees it: runs of whitespace are one space, so re-wrapping a description or
 * a YAML block scalar's final newline is no change; an empty text is no text.
 */
function text(value: string | undefined): string | undefined {
  if (value === undefined) return undefined
  const normal = value.replace(/\s+/g, ' ').trim()
  return normal === '' ? undefined : normal
}

function compareText(
  scope: Scope,
  id: DocumentationRuleId,
  pointer: string,
  subject: string,
  [old, next]: readonly [string | undefined, string | undefined],
): void {
  if (old === next) return
  const [a, b] = [text(old), text(next)]
  if (a !== b) note(scope, id, pointer, subject, a, b)
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
  return Object.keys(y).length === count
}

function note(
  scope: Scope,
  id: DocumentationRuleId,
  pointer: string,
  subject: string,
  old: unknown,
  next: unknown,
  detail = '',
): void {
  const delta = old === undefined ? 'added' : next === undefined ? 'deleted' : 'modified'
  const verb = delta === 'added' ? 'was added' : delta === 'deleted' ? 'was removed' : 'changed'
  const text = `${subject.charAt(0).toUpperCase()}${subject.slice(1)} ${verb}${detail}.`
  let notes = NOTES.get(scope)
  if (!notes) NOTES.set(scope, (notes = []))
  notes.push({ id, pointer, text, delta })
}

// Emitting -----------------------------------------------------------------------------------

/**
 * Lists the documentation changes of a scope and its regions, each counted once in the
 * `documentation` section. A shared component's are listed once, with the operations that reach
 * it (none when no operation does).
 */
export function emitDocumentation(log: ChangelogBuilder, scope: Scope, extra: ChangeExtra): void {
  if (scope instanceof Shared && extra.operations === undefined) {
    const operations = new Set<string>()
    for (const entry of scope.reached.values())
      for (const operation of entry.operations) operations.add(operation)
    if (operations.size > 0) extra = { operations: [...operations].sort() }
  }
  for (const { id, pointer, text, delta } of NOTES.get(scope) ?? []) {
    const before = log.changeCount
    log.add(id, pointer, text, extra)
    if (log.changeCount > before) log.count('documentation', delta)
  }
  for (const region of scope.regions) emitDocumentation(log, region, extra)
}

function operationLabel(operation: Operation): string {
  return operation.kind === 'webhook'
    ? `webhook ${operation.name} (${operation.method.toUpperCase()})`
    : `${operation.method.toUpperCase()} ${operation.path}`
}
