import type { OasModel, Parameter, RequestBody, Response, Header } from '../../model/index.js'
import { ChangelogBuilder, type Changelog, type OasSection } from '../changelog.js'
import type { PolicyOptions } from '../policies.js'
import type { RuleId } from '../rules.js'
import { compareDocumentParts } from './components-diff.js'
import { compareDocumentDocs, emitDocumentation } from './documentation-diff.js'
import { compareOperation, type Operation } from './operation-diff.js'
import { byKey, labelOf, pointerOf } from './operation-keys.js'
import { compareParameter } from './parameter-diff.js'
import { checkVersion, Policies, removalRule } from './policy-diff.js'
import { compareRequestBody } from './request-body-diff.js'
import { resolveComponent } from './resolve-component.js'
import { compareHeader, compareResponse } from './response-diff.js'
import { compareGenerated } from './sdk-diff.js'
import { compareDocumentSecurity, inheritsSecurity } from './security-diff.js'
import { SCHEMA_CONTEXTS, type SchemaContext } from './rules.js'
import { Comparison } from './schema-diff.js'
import {
  BUCKET_NOUNS,
  escapePointer,
  READ_ONLY,
  WRITE_ONLY,
  type Fact,
  type Scope,
  type Shared,
} from './scope.js'

/** What changed from one OpenAPI model to the other, judged by the rule catalogue. */
export function diffOas(old: OasModel, next: OasModel, options: PolicyOptions = {}): Changelog {
  const log = new ChangelogBuilder()
  const policies = new Policies(options)
  const cmp = new Comparison(old, next)
  const compared: { label: string; section: OasSection; scope: Scope }[] = []
  const inheriting = new Set<string>()

  for (const section of ['operations', 'webhooks'] as const) {
    const before = byKey<Operation>(section === 'operations' ? old.operations : old.webhooks)
    const after = byKey<Operation>(section === 'operations' ? next.operations : next.webhooks)
    for (const [key, operation] of after) {
      const match = before.get(key)
      if (!match) {
        log.count(section, 'added')
        log.add(
          section === 'operations' ? 'endpoint-added' : 'webhook-added',
          pointerOf(operation),
          `The ${section === 'operations' ? 'operation' : 'webhook'} ${labelOf(operation)} was added.`,
          { operation: labelOf(operation) },
        )
        continue
      }
      const scope = compareOperation(cmp, match, operation, pointerOf(operation), policies)
      compared.push({ label: labelOf(operation), section, scope })
      if (operation.kind === 'http' && inheritsSecurity(match, operation))
        inheriting.add(labelOf(operation))
    }
    for (const [key, operation] of before) {
      if (after.has(key)) continue
      log.count(section, 'deleted')
      const { id, note } = removalRule(policies, operation)
      log.add(
        id,
        pointerOf(operation),
        `The ${section === 'operations' ? 'operation' : 'webhook'} ${labelOf(operation)} was removed${note}.`,
        {
          operation: labelOf(operation),
        },
      )
    }
  }

  const documentSecurity = inheriting.size > 0 ? compareDocumentSecurity(old, next).facts : []
  for (const fact of documentSecurity)
    log.add(fact.rule as RuleId, fact.pointer, fact.text, { operations: [...inheriting].sort() })
  for (const { label, section, scope } of compared) {
    let modified =
      emitLocal(log, scope, label) || (documentSecurity.length > 0 && inheriting.has(label))
    const visited = new Map<Shared, Set<string>>()
    for (const [link, context] of linksOf(scope, undefined))
      if (reach(link.shared, context, link.mask, label, visited)) modified = true
    if (modified) log.count(section, 'modified')
    emitDocumentation(log, scope, { operation: label })
  }

  compareComponents(log, cmp)
  for (const shared of cmp.allShared) emitShared(log, shared)
  for (const shared of cmp.allShared) emitDocumentation(log, shared, {})
  compareDocumentParts(log, old, next)
  compareDocumentDocs(log, old, next)
  if (options.profile === 'sdk') compareGenerated(log, old, next, options, log.changes)
  checkVersion(policies, log, old.info, next.info, log.countOf('breaking') > 0)
  return log.finish()
}

// Turning facts into changelog entries --------------------------------------------------------

type Located = { fact: Fact; context: SchemaContext | undefined; scope: Scope }

function* factsOf(scope: Scope, inherited: SchemaContext | undefined): Generator<Located> {
  const context = scope.context ?? inherited
  for (const fact of scope.facts) yield { fact, context, scope }
  for (const region of scope.regions) yield* factsOf(region, context)
}

function* linksOf(
  scope: Scope,
  inherited: SchemaContext | undefined,
): Generator<[Scope['links'][number], SchemaContext | undefined]> {
  const context = scope.context ?? inherited
  for (const link of scope.links) yield [link, link.context ?? context]
  for (const region of scope.regions) yield* linksOf(region, context)
}

/** The rule a fact is in a context; none when the context makes it irrelevant. */
function ruleOf(
  fact: Fact,
  context: SchemaContext | undefined,
  inheritedMask: number,
): RuleId | undefined {
  if (typeof fact.rule === 'string') return fact.rule
  if (!context) return undefined
  const direction = SCHEMA_CONTEXTS[context].direction
  const mask = fact.mask | inheritedMask
  // A readOnly property is never sent, a writeOnly one never received.
  if (direction === 'in' && mask & READ_ONLY) return undefined
  if (direction === 'out' && mask & WRITE_ONLY) return undefined
  return `${context}-${fact.rule[direction]}` as RuleId
}

function messageOf({ fact, context, scope }: Located, shared: boolean): string {
  if (typeof fact.rule === 'string') return fact.text
  const place = fact.at === '' ? '' : ` \`${fact.at}\``
  const subject =
    shared && context ? `${SCHEMA_CONTEXTS[context].what}, ${scope.label}` : scope.label
  return `${subject.charAt(0).toUpperCase()}${subject.slice(1)}${place}: ${fact.text}.`
}

/** Emits an operation's own changes; true when it has any. */
function emitLocal(log: ChangelogBuilder, scope: Scope, operation: string): boolean {
  let any = false
  for (const located of factsOf(scope, undefined)) {
    const id = ruleOf(located.fact, located.context, 0)
    if (!id) continue
    any = true
    log.add(id, located.fact.pointer, messageOf(located, false), { operation })
  }
  return any
}

/** Records that an operation reaches a shared component; true when a change applies on the way. */
function reach(
  shared: Shared,
  context: SchemaContext | undefined,
  mask: number,
  operation: string,
  visited: Map<Shared, Set<string>>,
): boolean {
  if (!context) return false
  const key = `${context}|${mask}`
  const seen = visited.get(shared) ?? new Set<string>()
  if (seen.has(key)) return false
  seen.add(key)
  visited.set(shared, seen)
  let entry = shared.reached.get(key)
  if (!entry) {
    entry = { context, mask, operations: new Set() }
    shared.reached.set(key, entry)
  }
  entry.operations.add(operation)
  let live = false
  for (const located of factsOf(shared, context))
    if (ruleOf(located.fact, located.context, mask)) {
      live = true
      break
    }
  for (const [link, linkContext] of linksOf(shared, context))
    if (reach(link.shared, linkContext, mask | link.mask, operation, visited)) live = true
  return live
}

/** A shared component's changes, once each, with every operation that reaches them. */
function emitShared(log: ChangelogBuilder, shared: Shared): void {
  const entries = new Map<string, { id: RuleId; located: Located; operations: Set<string> }>()
  for (const { context, mask, operations } of shared.reached.values())
    for (const located of factsOf(shared, context)) {
      const id = ruleOf(located.fact, located.context, mask)
      if (!id) continue
      const key = `${id}\u0000${located.fact.pointer}\u0000${located.fact.text}`
      const entry = entries.get(key) ?? { id, located, operations: new Set<string>() }
      for (const operation of operations) entry.operations.add(operation)
      entries.set(key, entry)
    }
  for (const { id, located, operations } of entries.values())
    log.add(id, located.fact.pointer, messageOf(located, true), {
      operations: [...operations].sort(),
    })
}

// Components ----------------------------------------------------------------------------------

const BUCKETS = ['schemas', 'parameters', 'requestBodies', 'responses', 'headers'] as const
type Bucket = (typeof BUCKETS)[number]

/** Counts each component section; a component is modified when its own definition changed. */
function compareComponents(log: ChangelogBuilder, cmp: Comparison): void {
  // Every schema is compared first, so that each allOf has named its members before any is called unused.
  for (const name of Object.keys(cmp.next.components.schemas))
    if (Object.hasOwn(cmp.old.components.schemas, name)) cmp.schemaComponent(name, name)
  for (const bucket of BUCKETS) {
    const old = cmp.old.components[bucket] as Readonly<Record<string, unknown>>
    const next = cmp.next.components[bucket] as Readonly<Record<string, unknown>>
    for (const name of Object.keys(next)) {
      const place = `/components/${bucket}/${escapePointer(name)}`
      if (!Object.hasOwn(old, name)) {
        log.count(bucket, 'added')
        if (bucket === 'schemas')
          log.add('schema-added', place, `The schema \`${name}\` was added.`)
        else
          log.add(
            'component-added',
            place,
            `The ${BUCKET_NOUNS[bucket]} component \`${name}\` was added.`,
          )
        continue
      }
      const shared = sharedComponent(cmp, bucket, name)
      if (!shared || !hasOwnFacts(shared)) continue
      log.count(bucket, 'modified')
      if (shared.reached.size === 0 && !(bucket === 'schemas' && cmp.allOfMembers.has(name)))
        log.add(
          'unused-component-changed',
          place,
          `The ${BUCKET_NOUNS[bucket]} \`${name}\` changed; no operation uses it.`,
        )
    }
    for (const name of Object.keys(old)) {
      if (Object.hasOwn(next, name)) continue
      const place = `/components/${bucket}/${escapePointer(name)}`
      log.count(bucket, 'deleted')
      if (bucket === 'schemas')
        log.add('schema-removed', place, `The schema \`${name}\` was removed.`)
      else
        log.add(
          'component-removed',
          place,
          `The ${BUCKET_NOUNS[bucket]} component \`${name}\` was removed.`,
        )
    }
  }
}

function hasOwnFacts(scope: Scope): boolean {
  return scope.facts.length > 0 || scope.regions.some(hasOwnFacts)
}

function sharedComponent(cmp: Comparison, bucket: Bucket, name: string): Shared | undefined {
  if (bucket === 'schemas') return cmp.schemaComponent(name, name)
  const ref = {
    kind: 'ref',
    bucket,
    $ref: `#/components/${bucket}/${name}`,
    refName: name,
  } as const
  const a = resolveComponent<unknown>(cmp.old, bucket, ref)
  const b = resolveComponent<unknown>(cmp.next, bucket, ref)
  if (!a || !b) return undefined
  return cmp.shared(bucket, name, name, (shared) => {
    const pointer = shared.pointer
    if (bucket === 'parameters')
      compareParameter(cmp, shared, a as Parameter, b as Parameter, pointer)
    else if (bucket === 'requestBodies')
      compareRequestBody(cmp, shared, a as RequestBody, b as RequestBody, pointer)
    else if (bucket === 'responses')
      compareResponse(cmp, shared, a as Response, b as Response, pointer, `response \`${name}\``)
    else compareHeader(cmp, shared, a as Header, b as Header, pointer, `header \`${name}\``)
  })
}
