import type {
  ComponentBucket,
  ComponentRef,
  Header,
  HttpOperation,
  MediaType,
  OasModel,
  Parameter,
  RequestBody,
  Response,
  SecurityRequirement,
  WebhookOperation,
} from '../../model/index.js'
import { compareSchemas, type Comparison } from './schema-diff.js'
import { escapePointer, Scope } from './scope.js'

export type Operation = HttpOperation | WebhookOperation

type Resolvable<T> = T | ComponentRef<ComponentBucket>

/** Follows a component ref chain; undefined when it leads nowhere. */
export function resolveComponent<T>(
  model: OasModel,
  bucket: 'parameters' | 'requestBodies' | 'responses' | 'headers',
  value: Resolvable<T>,
): T | undefined {
  let current: unknown = value
  for (let hops = 0; hops < 10; hops++) {
    const node = current as { kind?: string; refName?: string }
    if (node.kind !== 'ref') return current as T
    const components = model.components[bucket] as Record<string, unknown>
    if (!Object.hasOwn(components, node.refName!)) return undefined
    current = components[node.refName!]
  }
  return undefined
}

function isRef(value: unknown): value is ComponentRef<ComponentBucket> {
  return (value as { kind?: string }).kind === 'ref'
}

/** Compares two operations found under the same path and method (or webhook name and method). */
export function compareOperation(
  cmp: Comparison,
  old: Operation,
  next: Operation,
  pointer: string,
): Scope {
  const scope = new Scope('operation')
  const webhook = next.kind === 'webhook'
  if (!old.deprecated && next.deprecated)
    scope.fixed(
      webhook ? 'webhook-deprecated' : 'endpoint-deprecated',
      pointer,
      'The operation was deprecated.',
    )
  if (old.deprecated && !next.deprecated)
    scope.fixed('endpoint-reactivated', pointer, 'The operation is no longer deprecated.')
  compareOperationId(scope, old.operationId, next.operationId, pointer)
  for (const tag of next.tags)
    if (!old.tags.includes(tag))
      scope.fixed('operation-tag-added', pointer, `The tag \`${tag}\` was added.`)
  for (const tag of old.tags)
    if (!next.tags.includes(tag))
      scope.fixed('operation-tag-removed', pointer, `The tag \`${tag}\` was removed.`)
  compareParameters(cmp, scope, old, next, pointer)
  if (webhook) comparePayloads(cmp, scope, old.requestBody, next.requestBody, pointer)
  else {
    compareRequestBodies(cmp, scope, old.requestBody, next.requestBody, pointer)
    compareResponses(cmp, scope, old, next, pointer)
    compareSecurity(
      scope,
      effectiveSecurity(cmp.old, old),
      effectiveSecurity(cmp.next, next),
      pointer,
    )
  }
  return scope
}

function compareOperationId(
  scope: Scope,
  old: string | undefined,
  next: string | undefined,
  pointer: string,
): void {
  if (old === next) return
  if (old === undefined)
    scope.fixed('operation-id-added', pointer, `The operationId \`${next}\` was added.`)
  else if (next === undefined)
    scope.fixed('operation-id-removed', pointer, `The operationId \`${old}\` was removed.`)
  else
    scope.fixed(
      'operation-id-changed',
      pointer,
      `The operationId changed from \`${old}\` to \`${next}\`.`,
    )
}

// Parameters ----------------------------------------------------------------------------------

/** Path parameters match by their place in the path, so renaming `{id}` to `{petId}` is no change. */
function parameterKey(parameter: Parameter, operation: Operation): string {
  if (parameter.in === 'path' && operation.kind === 'http') {
    const names = [...operation.path.matchAll(/\{([^}]*)\}/g)].map((match) => match[1])
    const index = names.indexOf(parameter.name)
    if (index >= 0) return `path:#${index}`
  }
  return `${parameter.in}:${parameter.in === 'header' ? parameter.name.toLowerCase() : parameter.name}`
}

function parameterLabel(parameter: Parameter): string {
  return `${parameter.in} parameter \`${parameter.name}\``
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}

function compareParameters(
  cmp: Comparison,
  scope: Scope,
  old: Operation,
  next: Operation,
  pointer: string,
): void {
  const before = new Map<string, { raw: Resolvable<Parameter>; value: Parameter }>()
  for (const raw of old.parameters) {
    const value = resolveComponent<Parameter>(cmp.old, 'parameters', raw)
    if (value) before.set(parameterKey(value, old), { raw, value })
  }
  for (const raw of next.parameters) {
    const value = resolveComponent<Parameter>(cmp.next, 'parameters', raw)
    if (!value) continue
    const key = parameterKey(value, next)
    const place = `${pointer}/parameters/${value.in}/${escapePointer(value.name)}`
    const match = before.get(key)
    before.delete(key)
    if (!match) {
      scope.fixed(
        value.required ? 'new-required-request-parameter' : 'new-optional-request-parameter',
        place,
        `The ${value.required ? 'required' : 'optional'} ${parameterLabel(value)} was added.`,
      )
      continue
    }
    if (isRef(match.raw) && isRef(raw)) {
      const shared = cmp.shared('parameters', match.raw.refName, raw.refName, (component) =>
        compareParameter(cmp, component, match.value, value, component.pointer),
      )
      scope.link(shared, 'request-parameter')
    } else
      compareParameter(
        cmp,
        scope.region(parameterLabel(value), 'request-parameter'),
        match.value,
        value,
        place,
      )
  }
  for (const { value } of before.values())
    scope.fixed(
      'request-parameter-removed',
      `${pointer}/parameters/${value.in}/${escapePointer(value.name)}`,
      `The ${parameterLabel(value)} was removed.`,
    )
}

const DEFAULT_STYLES: Record<Parameter['in'], string> = {
  query: 'form',
  cookie: 'form',
  path: 'simple',
  header: 'simple',
}

function serialisation(parameter: Parameter): string {
  const style = parameter.style ?? DEFAULT_STYLES[parameter.in]
  return `style ${style}, explode ${parameter.explode ?? style === 'form'}`
}

export function compareParameter(
  cmp: Comparison,
  scope: Scope,
  old: Parameter,
  next: Parameter,
  pointer: string,
): void {
  const label = capitalise(parameterLabel(next))
  if (!old.required && next.required)
    scope.fixed('request-parameter-became-required', pointer, `${label} became required.`)
  if (old.required && !next.required)
    scope.fixed('request-parameter-became-optional', pointer, `${label} became optional.`)
  if (!old.deprecated && next.deprecated)
    scope.fixed('request-parameter-deprecated', pointer, `${label} was deprecated.`)
  if (old.mediaType !== next.mediaType)
    scope.fixed(
      'request-parameter-media-type-changed',
      pointer,
      `${label} changed its media type from \`${old.mediaType ?? 'none'}\` to \`${next.mediaType ?? 'none'}\`.`,
    )
  else if (next.mediaType === undefined && serialisation(old) !== serialisation(next))
    scope.fixed(
      'request-parameter-style-changed',
      pointer,
      `${label} changed serialisation from ${serialisation(old)} to ${serialisation(next)}.`,
    )
  compareSchemas(cmp, scope, old.schema, next.schema, `${pointer}/schema`)
}

// Request bodies ------------------------------------------------------------------------------

function compareRequestBodies(
  cmp: Comparison,
  scope: Scope,
  oldRaw: Resolvable<RequestBody> | undefined,
  nextRaw: Resolvable<RequestBody> | undefined,
  pointer: string,
): void {
  const place = `${pointer}/requestBody`
  const [old, next] = resolveBodies(cmp, oldRaw, nextRaw)
  if (!old && !next) return
  if (!old) {
    const required = next!.required
    scope.fixed(
      required ? 'new-required-request-body' : 'new-optional-request-body',
      place,
      `A${required ? ' required' : 'n optional'} request body was added.`,
    )
    return
  }
  if (!next) return scope.fixed('request-body-removed', place, 'The request body was removed.')
  if (isRef(oldRaw) && isRef(nextRaw)) {
    const shared = cmp.shared('requestBodies', oldRaw.refName, nextRaw.refName, (component) =>
      compareRequestBody(cmp, component, old, next, component.pointer),
    )
    scope.link(shared, 'request-body')
  } else compareRequestBody(cmp, scope.region('request body', 'request-body'), old, next, place)
}

function resolveBodies(
  cmp: Comparison,
  old: Resolvable<RequestBody> | undefined,
  next: Resolvable<RequestBody> | undefined,
): [RequestBody | undefined, RequestBody | undefined] {
  return [
    old && resolveComponent<RequestBody>(cmp.old, 'requestBodies', old),
    next && resolveComponent<RequestBody>(cmp.next, 'requestBodies', next),
  ]
}

export function compareRequestBody(
  cmp: Comparison,
  scope: Scope,
  old: RequestBody,
  next: RequestBody,
  pointer: string,
): void {
  if (!old.required && next.required)
    scope.fixed('request-body-became-required', pointer, 'The request body became required.')
  if (old.required && !next.required)
    scope.fixed('request-body-became-optional', pointer, 'The request body became optional.')
  compareContent(cmp, scope, old.content, next.content, pointer, {
    added: 'request-body-media-type-added',
    removed: 'request-body-media-type-removed',
    what: 'request',
  })
}

type ContentRules = {
  readonly added:
    | 'request-body-media-type-added'
    | 'response-media-type-added'
    | 'webhook-payload-media-type-added'
  readonly removed:
    | 'request-body-media-type-removed'
    | 'response-media-type-removed'
    | 'webhook-payload-media-type-removed'
  readonly what: string
}

/** Media types match by name, case-insensitively; their schemas are compared where both exist. */
function compareContent(
  cmp: Comparison,
  scope: Scope,
  old: Readonly<Record<string, MediaType>>,
  next: Readonly<Record<string, MediaType>>,
  pointer: string,
  rules: ContentRules,
): void {
  const before = new Map(Object.keys(old).map((type) => [type.toLowerCase(), type]))
  for (const type of Object.keys(next)) {
    const place = `${pointer}/content/${escapePointer(type)}`
    const match = before.get(type.toLowerCase())
    if (match === undefined) {
      scope.fixed(rules.added, place, `The ${rules.what} media type \`${type}\` was added.`)
      continue
    }
    before.delete(type.toLowerCase())
    compareSchemas(cmp, scope, old[match]!.schema, next[type]!.schema, `${place}/schema`)
  }
  for (const type of before.values())
    scope.fixed(
      rules.removed,
      `${pointer}/content/${escapePointer(type)}`,
      `The ${rules.what} media type \`${type}\` was removed.`,
    )
}

/** A webhook's request body is what the API sends: a receiver reads it like a response. */
function comparePayloads(
  cmp: Comparison,
  scope: Scope,
  oldRaw: Resolvable<RequestBody> | undefined,
  nextRaw: Resolvable<RequestBody> | undefined,
  pointer: string,
): void {
  const place = `${pointer}/requestBody`
  const [old, next] = resolveBodies(cmp, oldRaw, nextRaw)
  if (!old && !next) return
  if (!old) return scope.fixed('webhook-payload-added', place, 'The webhook now carries a payload.')
  if (!next)
    return scope.fixed('webhook-payload-removed', place, 'The webhook no longer carries a payload.')
  compareContent(
    cmp,
    scope.region('webhook payload', 'webhook-payload'),
    old.content,
    next.content,
    place,
    {
      added: 'webhook-payload-media-type-added',
      removed: 'webhook-payload-media-type-removed',
      what: 'payload',
    },
  )
}

// Responses -----------------------------------------------------------------------------------

function isSuccess(status: string): boolean {
  return /^[123]/.test(status)
}

function compareResponses(
  cmp: Comparison,
  scope: Scope,
  old: Operation,
  next: Operation,
  pointer: string,
): void {
  const before = new Map(Object.keys(old.responses).map((status) => [status.toUpperCase(), status]))
  for (const status of Object.keys(next.responses)) {
    const place = `${pointer}/responses/${escapePointer(status)}`
    const match = before.get(status.toUpperCase())
    if (match === undefined) {
      scope.fixed('response-status-added', place, `The response ${status} was added.`)
      continue
    }
    before.delete(status.toUpperCase())
    const oldRaw = old.responses[match]!
    const nextRaw = next.responses[status]!
    const a = resolveComponent<Response>(cmp.old, 'responses', oldRaw)
    const b = resolveComponent<Response>(cmp.next, 'responses', nextRaw)
    if (!a || !b) continue
    if (isRef(oldRaw) && isRef(nextRaw)) {
      const shared = cmp.shared('responses', oldRaw.refName, nextRaw.refName, (component) =>
        compareResponse(cmp, component, a, b, component.pointer, `response \`${nextRaw.refName}\``),
      )
      scope.link(shared, 'response-body')
    } else
      compareResponse(
        cmp,
        scope.region(`response ${status}`, 'response-body'),
        a,
        b,
        place,
        `response ${status}`,
      )
  }
  for (const status of before.values())
    scope.fixed(
      isSuccess(status) ? 'response-success-status-removed' : 'response-non-success-status-removed',
      `${pointer}/responses/${escapePointer(status)}`,
      `The response ${status} was removed.`,
    )
}

export function compareResponse(
  cmp: Comparison,
  scope: Scope,
  old: Response,
  next: Response,
  pointer: string,
  label: string,
): void {
  compareContent(cmp, scope, old.content, next.content, pointer, {
    added: 'response-media-type-added',
    removed: 'response-media-type-removed',
    what: 'response',
  })
  const before = new Map(Object.keys(old.headers).map((name) => [name.toLowerCase(), name]))
  for (const name of Object.keys(next.headers)) {
    const place = `${pointer}/headers/${escapePointer(name)}`
    const match = before.get(name.toLowerCase())
    const nextRaw = next.headers[name]!
    const b = resolveComponent<Header>(cmp.next, 'headers', nextRaw)
    if (!b) continue
    if (match === undefined) {
      scope.fixed('response-header-added', place, `The ${label} header \`${name}\` was added.`)
      continue
    }
    before.delete(name.toLowerCase())
    const oldRaw = old.headers[match]!
    const a = resolveComponent<Header>(cmp.old, 'headers', oldRaw)
    if (!a) continue
    const headerLabel = `${label} header \`${name}\``
    if (isRef(oldRaw) && isRef(nextRaw)) {
      const shared = cmp.shared('headers', oldRaw.refName, nextRaw.refName, (component) =>
        compareHeader(cmp, component, a, b, component.pointer, `header \`${nextRaw.refName}\``),
      )
      scope.link(shared, 'response-header')
    } else
      compareHeader(cmp, scope.region(headerLabel, 'response-header'), a, b, place, headerLabel)
  }
  for (const name of before.values()) {
    const a = resolveComponent<Header>(cmp.old, 'headers', old.headers[name]!)
    const required = a?.required ?? false
    scope.fixed(
      required ? 'response-required-header-removed' : 'response-optional-header-removed',
      `${pointer}/headers/${escapePointer(name)}`,
      `The ${required ? 'required' : 'optional'} ${label} header \`${name}\` was removed.`,
    )
  }
}

export function compareHeader(
  cmp: Comparison,
  scope: Scope,
  old: Header,
  next: Header,
  pointer: string,
  label: string,
): void {
  if (old.required && !next.required)
    scope.fixed('response-header-became-optional', pointer, `${capitalise(label)} became optional.`)
  if (!old.required && next.required)
    scope.fixed('response-header-became-required', pointer, `${capitalise(label)} became required.`)
  compareSchemas(cmp, scope, old.schema, next.schema, `${pointer}/schema`)
}

// Security ------------------------------------------------------------------------------------

function effectiveSecurity(model: OasModel, operation: Operation): readonly SecurityRequirement[] {
  return operation.security ?? model.security ?? []
}

function requirementKey(requirement: SecurityRequirement): string {
  return Object.keys(requirement).sort().join(' + ')
}

/**
 * Security is a list of alternatives, each a set of schemes with scopes. Alternatives match by
 * their set of scheme names; an empty list or an empty alternative lets anonymous calls through.
 */
function compareSecurity(
  scope: Scope,
  old: readonly SecurityRequirement[],
  next: readonly SecurityRequirement[],
  pointer: string,
): void {
  const place = `${pointer}/security`
  const anonymous = (list: readonly SecurityRequirement[]) =>
    list.length === 0 || list.some((requirement) => Object.keys(requirement).length === 0)
  const [wasOpen, isOpen] = [anonymous(old), anonymous(next)]
  if (wasOpen && !isOpen)
    return scope.fixed(
      'endpoint-security-added',
      place,
      `The operation now requires authentication (${describe(next)}).`,
    )
  if (!wasOpen && isOpen)
    scope.fixed('endpoint-security-removed', place, 'The operation now allows anonymous calls.')
  const named = (list: readonly SecurityRequirement[]) =>
    new Map(list.filter((r) => Object.keys(r).length > 0).map((r) => [requirementKey(r), r]))
  const before = named(old)
  const after = named(next)
  if (wasOpen || isOpen) return
  for (const [key, requirement] of after) {
    const match = before.get(key)
    if (!match) {
      scope.fixed(
        'endpoint-security-alternative-added',
        place,
        `The security requirement \`${key}\` was added.`,
      )
      continue
    }
    for (const scheme of Object.keys(requirement)) {
      const had = new Set(match[scheme])
      const has = new Set(requirement[scheme])
      for (const scopeName of has)
        if (!had.has(scopeName))
          scope.fixed(
            'endpoint-security-scope-added',
            place,
            `The security requirement \`${key}\` now needs the scope \`${scopeName}\` of \`${scheme}\`.`,
          )
      for (const scopeName of had)
        if (!has.has(scopeName))
          scope.fixed(
            'endpoint-security-scope-removed',
            place,
            `The security requirement \`${key}\` no longer needs the scope \`${scopeName}\` of \`${scheme}\`.`,
          )
    }
  }
  for (const key of before.keys())
    if (!after.has(key))
      scope.fixed(
        'endpoint-security-alternative-removed',
        place,
        `The security requirement \`${key}\` was removed.`,
      )
}

function describe(list: readonly SecurityRequirement[]): string {
  return list.map(requirementKey).join(' or ')
}
