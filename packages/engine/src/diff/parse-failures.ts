import { parseLocation, type ParseIssue } from '../issues/index.js'
import type { ComponentBucket, Components, OasModel } from '../model/index.js'
import { HTTP_METHODS } from '../model/index.js'
import {
  ChangelogBuilder,
  type Changelog,
  type ChangelogIssues,
  type ChangeSection,
  type ErrorIssue,
} from './changelog.js'
import { BUCKET_NOUNS, escapePointer } from './oas/scope.js'
import type { ParseFailureRuleId } from './parse-failure-rules.js'
import type { RuleId } from './rules.js'

/** The error-level parse issues of both sides of a diff. */
export type SideIssues = ChangelogIssues

type Kind = 'operation' | 'webhook' | 'component' | 'document' | 'definition'

/** Something the diff compares, named the same way on both sides. */
type Item = {
  readonly kind: Kind
  /** Its identity across the two sides. */
  readonly key: string
  /** Where the change is reported: a JSON pointer (OpenAPI) or a schema coordinate (GraphQL). */
  readonly location: string
  /** `operation GET /pets`, `schema \`Pet\``, `type \`User\``. */
  readonly label: string
  readonly operation?: string
  /** The keys of its text in the document, to tell whether it changed. */
  readonly raw: readonly string[]
  readonly section?: ChangeSection
  /** The rule for its plain removal, when it failed to parse in the old document only. */
  readonly removed?: RuleId
}

type Failed = Item & { before: ErrorIssue[]; after: ErrorIssue[] }

export function errorIssues(issues: readonly ParseIssue[]): ErrorIssue[] {
  return issues.filter((issue): issue is ErrorIssue => issue.level === 'error')
}

/**
 * The OpenAPI items with error-level issues on either side. Each failed item is removed from both
 * models, so the diff does not mistake a failure for an addition or removal, and is reported by
 * {@link failureChangelog} instead.
 */
export class OasFailures {
  readonly #items = new Map<string, Failed>()
  readonly #keys = new Map<OasModel, ReadonlySet<string>>()

  constructor(
    readonly old: OasModel,
    readonly next: OasModel,
    issues: SideIssues,
  ) {
    for (const side of ['before', 'after'] as const)
      for (const issue of issues[side])
        for (const item of this.#itemsOf(parseLocation(issue.location))) {
          const failed = this.#items.get(item.key) ?? { ...item, before: [], after: [] }
          failed[side].push(issue)
          this.#items.set(item.key, failed)
        }
  }

  get failed(): readonly Failed[] {
    return [...this.#items.values()]
  }

  /** The model without the failed items, so that both sides lack them alike. */
  without(model: OasModel): OasModel {
    if (this.#items.size === 0) return model
    const components: Record<string, Record<string, unknown>> = { ...model.components }
    for (const item of this.#items.values()) {
      if (item.kind !== 'component') continue
      const [, bucket, name] = item.raw as [string, string, string]
      const entries = components[bucket]
      if (!entries || !Object.hasOwn(entries, name)) continue
      const { [name]: _dropped, ...rest } = entries
      components[bucket] = rest
    }
    return {
      ...model,
      operations: model.operations.filter((op) => !this.#items.has(operationKey(op))),
      webhooks: model.webhooks.filter((op) => !this.#items.has(operationKey(op))),
      components: components as unknown as Components,
    }
  }

  /** Whether the model has the item (a failed item is absent from its side's model). */
  has(model: OasModel, item: Item): boolean {
    if (item.kind === 'operation' || item.kind === 'webhook') {
      let keys = this.#keys.get(model)
      if (!keys) {
        keys = new Set([...model.operations, ...model.webhooks].map(operationKey))
        this.#keys.set(model, keys)
      }
      return keys.has(item.key)
    }
    if (item.kind === 'component') {
      const [, bucket, name] = item.raw as [string, string, string]
      const entries = (model.components as Record<string, Record<string, unknown> | undefined>)[
        bucket
      ]
      return entries !== undefined && Object.hasOwn(entries, name)
    }
    // Whether a part outside operations and components was in a document is not modelled.
    return true
  }

  #itemsOf(segments: readonly string[]): Item[] {
    const [root, first, second] = segments
    if ((root === 'paths' || root === 'webhooks') && first !== undefined) {
      const webhook = root === 'webhooks'
      if (second !== undefined && isMethod(second)) return [operationItem(webhook, first, second)]
      // A path item that failed as a whole fails each of its methods; those that parsed on the
      // other side name them.
      const methods = [...this.old.operations, ...this.old.webhooks]
        .concat(this.next.operations, this.next.webhooks)
        .filter((op) =>
          op.kind === 'webhook'
            ? webhook && op.name === first
            : !webhook && samePath(op.path, first),
        )
        .map((op) => op.method)
      if (methods.length > 0)
        return [...new Set(methods)].map((method) => operationItem(webhook, first, method))
      return [
        {
          ...operationItem(webhook, first, ''),
          label: webhook ? `webhook ${first}` : `path ${first}`,
          raw: [root, first],
        },
      ]
    }
    if (root === 'components' && first !== undefined && second !== undefined)
      return [componentItem(first, second)]
    const raw = segments
    return [
      {
        kind: 'document',
        key: `document ${raw.join('\u0000')}`,
        location: raw.length === 0 ? '' : `/${raw.map(escapePointer).join('/')}`,
        label: raw.length === 0 ? 'the document' : `\`${raw.join('.')}\``,
        raw,
      },
    ]
  }
}

/** The GraphQL definitions with error-level issues on either side; the SDL diff compares the rest. */
export function gqlFailures(issues: SideIssues): Failed[] {
  const items = new Map<string, Failed>()
  for (const side of ['before', 'after'] as const)
    for (const issue of issues[side]) {
      const name = parseLocation(issue.location)[0] ?? 'schema'
      const failed = items.get(name) ?? {
        kind: 'definition' as const,
        key: name,
        location: name,
        label: name.startsWith('@') ? `directive \`${name}\`` : `type \`${name}\``,
        raw: [name],
        before: [],
        after: [],
      }
      failed[side].push(issue)
      items.set(name, failed)
    }
  return [...items.values()]
}

type Sides = {
  /** Whether the item is in each side's document, parsed or not. */
  readonly present: (item: Failed, side: 'before' | 'after') => boolean
  /** Whether an item that failed on both sides has the same text in both; false when unknown. */
  readonly unchanged: (item: Failed) => boolean
}

/** One change per failed item: what the diff cannot compare, and why. */
export function failureChangelog(items: readonly Failed[], sides: Sides): Changelog {
  const log = new ChangelogBuilder()
  for (const item of items) {
    const extra = item.operation ? { operation: item.operation } : {}
    const subject =
      item.kind === 'operation' && item.operation ? `operation ${item.label}` : item.label
    const Subject = subject.charAt(0).toUpperCase() + subject.slice(1)
    if (item.after.length > 0 && item.before.length > 0 && sides.unchanged(item)) {
      log.add(
        ruleOf(item.kind, 'still-unparsable'),
        item.location,
        `${Subject} still does not parse: ${reasons(item.after)}`,
        extra,
      )
    } else if (item.after.length > 0) {
      const added = item.before.length === 0 && !sides.present(item, 'before')
      const state = added
        ? 'was added but does not parse'
        : item.before.length > 0
          ? 'changed and still does not parse'
          : 'no longer parses'
      log.add(
        ruleOf(item.kind, added ? 'added-unparsable' : 'unparsable'),
        item.location,
        `${Subject} ${state}: ${reasons(item.after)}`,
        extra,
      )
      if (item.section) log.count(item.section, added ? 'added' : 'modified')
    } else if (item.removed && !sides.present(item, 'after')) {
      log.add(
        item.removed,
        item.location,
        `${Subject} was removed (it could not be parsed in the old document: ${reasons(item.before, '')}).`,
        extra,
      )
      if (item.section) log.count(item.section, 'deleted')
    } else {
      log.add(
        ruleOf(item.kind, 'was-unparsable'),
        item.location,
        `${Subject} could not be parsed in the old document, so its changes cannot be judged: ${reasons(item.before)}`,
        extra,
      )
      if (item.section) log.count(item.section, 'modified')
    }
  }
  return log.finish()
}

type Outcome = 'unparsable' | 'added-unparsable' | 'was-unparsable' | 'still-unparsable'

function ruleOf(kind: Kind, outcome: Outcome): ParseFailureRuleId {
  // A part of the document outside the compared items is never new: it fails or it does not.
  if (outcome === 'added-unparsable')
    return kind === 'document' ? 'document-unparsable' : `${kind}-added-unparsable`
  return `${kind}-${outcome}`
}

/** The issue messages, as one sentence's tail. */
function reasons(issues: readonly ParseIssue[], end = '.'): string {
  const text = issues.map((issue) => issue.message.replace(/\.$/, '')).join('; ')
  return `${text}${end}`
}

function operationItem(webhook: boolean, name: string, method: string): Item {
  const label = webhook
    ? `webhook ${name} (${method.toUpperCase()})`
    : `${method.toUpperCase()} ${name}`
  return {
    kind: webhook ? 'webhook' : 'operation',
    key: webhook ? `webhook ${name} ${method}` : `${method} ${normalisePath(name)}`,
    location: `/${webhook ? 'webhooks' : 'paths'}/${escapePointer(name)}${method ? `/${method}` : ''}`,
    label,
    ...(method ? { operation: label } : {}),
    raw: [webhook ? 'webhooks' : 'paths', name, method],
    section: webhook ? 'webhooks' : 'operations',
    removed: webhook ? 'webhook-removed' : 'endpoint-removed',
  }
}

const SECTIONS: ReadonlySet<string> = new Set([
  'schemas',
  'parameters',
  'requestBodies',
  'responses',
  'headers',
  'securitySchemes',
])

function componentItem(bucket: string, name: string): Item {
  const noun = Object.hasOwn(BUCKET_NOUNS, bucket)
    ? BUCKET_NOUNS[bucket as ComponentBucket]
    : undefined
  const removed: RuleId | undefined =
    bucket === 'schemas'
      ? 'schema-removed'
      : bucket === 'securitySchemes'
        ? undefined
        : noun
          ? 'component-removed'
          : undefined
  return {
    kind: 'component',
    key: `component ${bucket} ${name}`,
    location: `/components/${bucket}/${escapePointer(name)}`,
    label: `${noun ?? bucket} \`${name}\``,
    raw: ['components', bucket, name],
    ...(SECTIONS.has(bucket) ? { section: bucket as ChangeSection } : {}),
    ...(removed ? { removed } : {}),
  }
}

type Keyed = { kind: string; method: string; path?: string; name?: string }

function operationKey(op: Keyed): string {
  return op.kind === 'webhook'
    ? `webhook ${op.name ?? ''} ${op.method}`
    : `${op.method} ${normalisePath(op.path ?? '')}`
}

/** Path parameter names are not part of an endpoint's identity, as in the diff. */
function normalisePath(path: string): string {
  return path.replace(/\{[^}]*\}/g, '{}')
}

function samePath(a: string, b: string): boolean {
  return normalisePath(a) === normalisePath(b)
}

const METHODS: ReadonlySet<string> = new Set(HTTP_METHODS)

function isMethod(segment: string): boolean {
  return METHODS.has(segment)
}

/** The value at `keys` in a decoded document, or undefined. */
export function valueAt(document: unknown, keys: readonly string[]): unknown {
  let value = document
  for (const key of keys) {
    if (key === '') continue
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return undefined
    value = (value as Record<string, unknown>)[key]
  }
  return value
}

/** Equal values, whatever the key order. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false
  if (Array.isArray(a) !== Array.isArray(b)) return false
  const keysA = Object.keys(a)
  const keysB = Object.keys(b)
  if (keysA.length !== keysB.length) return false
  return keysA.every(
    (key) =>
      Object.hasOwn(b, key) &&
      sameValue((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
  )
}
