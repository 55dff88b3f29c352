import { OAS_ISSUES } from '../issues/index.js'
import {
  HTTP_METHODS,
  type ComponentRef,
  type HttpMethod,
  type HttpOperation,
  type Parameter,
  type Response,
  type SecurityRequirement,
  type Server,
  type WebhookOperation,
} from '../model/operation.js'
import { setOwn } from '../model/own.js'
import { getAtLocalRef } from '../refs/pointer.js'
import { parseMaybeRef } from './component-ref.js'
import {
  describeValue,
  isObject,
  type OasContext,
  type Outcome,
  type RawObject,
} from './context.js'
import { parseRequestBody, parseResponse } from './bodies.js'
import { reportMissingResponses } from './missing-responses.js'
import { parseParameter } from './parameter.js'
import { readExternalDocs } from './external-docs.js'
import { parseServers } from './servers.js'

type Mutable<T> = { -readonly [K in keyof T]: T[K] }
type ResponseEntry = Response | ComponentRef<'responses'>
type OperationFields = Omit<HttpOperation, 'kind' | 'path' | 'responses'>

/** A parsed operation whose response entries are units of their own. */
export type ParsedOperation = {
  readonly fields: OperationFields
  readonly responses: readonly (readonly [status: string, outcome: Outcome<ResponseEntry>])[]
}

/** One path × method (or webhook × method) and what became of it. */
export type OperationUnit = {
  readonly kind: 'http' | 'webhook'
  /** The path, or the webhook's name. */
  readonly key: string
  readonly method: HttpMethod
  readonly path: readonly string[]
  readonly outcome: Outcome<ParsedOperation>
}

const METHODS: ReadonlySet<string> = new Set(HTTP_METHODS)
const STATUS = /^(?:[1-5](?:\d\d|XX)|default)$/

/**
 * Parses every operation under `paths` (or `webhooks`), each path × method as an isolated unit
 * that fails alone with INVALID_OPERATION. Path-level parameters are parsed into each operation.
 */
export function parsePathItems(
  ctx: OasContext,
  section: 'paths' | 'webhooks',
  value: unknown,
): OperationUnit[] {
  if (value === undefined) return []
  if (!isObject(value)) {
    ctx.issues.add(
      OAS_ISSUES.unexpectedProperty,
      [section],
      `Unexpected property '${section}' at the document root: expected an object, got ${describeValue(value)}.`,
    )
    return []
  }
  const units: OperationUnit[] = []
  ctx.push(section)
  for (const key in value) {
    if (key.startsWith('x-')) continue
    if (section === 'paths' && !key.startsWith('/')) {
      ctx.unexpected(key)
      continue
    }
    ctx.push(key)
    const item = resolvePathItem(ctx, value[key])
    if (item) {
      ctx.checkKeys(item, 'pathItem')
      for (const method in item) {
        if (!METHODS.has(method)) continue
        const path = [...ctx.trail, method]
        const outcome = ctx.runUnit(path, OAS_ISSUES.invalidOperation, () =>
          parseOperation(ctx, item, method as HttpMethod),
        )
        units.push({
          kind: section === 'paths' ? 'http' : 'webhook',
          key,
          method: method as HttpMethod,
          path,
          outcome,
        })
      }
    }
    ctx.pop()
  }
  ctx.pop()
  return units
}

/** A path item, following a local `$ref` on it (its own fields win); undefined when unusable. */
function resolvePathItem(ctx: OasContext, value: unknown): RawObject | undefined {
  if (!isObject(value)) {
    ctx.issues.add(
      OAS_ISSUES.invalidOperation,
      ctx.trail,
      `Expected a path item object, got ${describeValue(value)}.`,
      'not an object',
    )
    return undefined
  }
  if (typeof value.$ref !== 'string') return value
  const target = getAtLocalRef(ctx.document, value.$ref)
  if (!isObject(target)) {
    const reason = `Ref "${value.$ref}" not found`
    ctx.issues.add(
      OAS_ISSUES.invalidDependencyRef,
      [...ctx.trail, '$ref'],
      `${reason}; dropped ${ctx.location}.`,
      reason,
    )
    return undefined
  }
  const merged: RawObject = { ...target, ...value }
  delete merged.$ref
  return merged
}

function parseOperation(ctx: OasContext, item: RawObject, method: HttpMethod): ParsedOperation {
  const raw = item[method]
  if (!isObject(raw)) return ctx.fail(`Expected an operation object, got ${describeValue(raw)}`)
  const extensions = ctx.checkKeys(raw, 'operation')
  const fields: Mutable<OperationFields> = {
    method,
    tags: readTags(ctx, raw.tags),
    deprecated: raw.deprecated === true,
    parameters: mergeParameters(ctx, item, raw),
  }
  if (raw.operationId !== undefined) {
    if (typeof raw.operationId !== 'string')
      ctx.fail(`"operationId" must be a string, got ${describeValue(raw.operationId)}`)
    fields.operationId = raw.operationId
  }
  const summary = raw.summary ?? item.summary
  if (typeof summary === 'string') fields.summary = summary
  const description = raw.description ?? item.description
  if (typeof description === 'string') fields.description = description
  const externalDocs = readExternalDocs(raw.externalDocs)
  if (externalDocs) fields.externalDocs = externalDocs
  if (raw.requestBody !== undefined) {
    ctx.push('requestBody')
    fields.requestBody = parseMaybeRef(ctx, raw.requestBody, 'requestBodies', (value) =>
      parseRequestBody(ctx, value),
    )
    ctx.pop()
  }
  if (raw.security !== undefined) fields.security = readSecurity(ctx, raw.security, 'security')
  const servers = raw.servers ?? item.servers
  if (servers !== undefined)
    fields.servers = parseServers(ctx, servers, raw.servers !== undefined ? 'servers' : undefined)
  if (extensions) fields.extensions = Object.freeze(extensions)
  if (raw.responses === undefined && ctx.dialect === '3.0' && ctx.trail[0] === 'paths')
    reportMissingResponses(ctx.issues, ctx.trail)
  return { fields: Object.freeze(fields), responses: parseResponses(ctx, raw.responses) }
}

function readTags(ctx: OasContext, tags: unknown): readonly string[] {
  if (tags === undefined) return []
  if (!Array.isArray(tags) || !tags.every((tag) => typeof tag === 'string')) {
    return ctx.fail(`"tags" must be an array of strings, got ${describeValue(tags)}`)
  }
  return Object.freeze([...tags])
}

/** Path-level parameters then the operation's; the operation's win by name and location. */
function mergeParameters(
  ctx: OasContext,
  item: RawObject,
  raw: RawObject,
): (Parameter | ComponentRef<'parameters'>)[] {
  const byKey = new Map<string, Parameter | ComponentRef<'parameters'>>()
  const saved = ctx.trail
  if (item.parameters !== undefined) {
    // Path-level parameters live beside the methods: report them at the path, not the operation.
    ctx.trail = saved.slice(0, -1)
    for (const parameter of readParameterList(ctx, item.parameters))
      byKey.set(parameterKey(ctx, parameter), parameter)
    ctx.trail = saved
  }
  for (const parameter of readParameterList(ctx, raw.parameters))
    byKey.set(parameterKey(ctx, parameter), parameter)
  return [...byKey.values()]
}

function readParameterList(
  ctx: OasContext,
  list: unknown,
): (Parameter | ComponentRef<'parameters'>)[] {
  if (list === undefined) return []
  if (!Array.isArray(list))
    return ctx.fail(`"parameters" must be an array, got ${describeValue(list)}`)
  ctx.push('parameters')
  const parameters = list.map((value, index) => {
    ctx.push(String(index))
    const parameter = parseMaybeRef(ctx, value, 'parameters', (raw) => parseParameter(ctx, raw))
    ctx.pop()
    return parameter
  })
  ctx.pop()
  return parameters
}

function parameterKey(ctx: OasContext, parameter: Parameter | ComponentRef<'parameters'>): string {
  if (parameter.kind === 'parameter') return `${parameter.in}\u0000${parameter.name}`
  const ref = parameter.$ref
  let key = ctx.parameterKeys.get(ref)
  if (key === undefined) {
    const target = getAtLocalRef(ctx.document, ref)
    const named =
      isObject(target) && typeof target.name === 'string' && typeof target.in === 'string'
    key = named ? `${target.in}\u0000${target.name}` : ref
    ctx.parameterKeys.set(ref, key)
  }
  return key
}

function parseResponses(ctx: OasContext, value: unknown): ParsedOperation['responses'] {
  if (value === undefined) return []
  if (!isObject(value))
    return ctx.fail(`"responses" must be an object, got ${describeValue(value)}`)
  const entries: [string, Outcome<ResponseEntry>][] = []
  ctx.push('responses')
  for (const status in value) {
    if (status.startsWith('x-')) continue
    if (!STATUS.test(status)) {
      ctx.unexpected(status)
      continue
    }
    const path = [...ctx.trail, status]
    const outcome = ctx.runUnit(path, OAS_ISSUES.invalidResponse, () =>
      parseMaybeRef(ctx, value[status], 'responses', (raw) => parseResponse(ctx, raw)),
    )
    entries.push([status, outcome])
  }
  ctx.pop()
  return entries
}

/** A security requirement list: scheme name → scopes. */
export function readSecurity(
  ctx: OasContext,
  value: unknown,
  key: string,
): readonly SecurityRequirement[] {
  const valid =
    Array.isArray(value) &&
    value.every(
      (requirement) =>
        isObject(requirement) &&
        Object.values(requirement).every(
          (scopes) => Array.isArray(scopes) && scopes.every((s) => typeof s === 'string'),
        ),
    )
  if (!valid)
    return ctx.fail(
      `"${key}" must be a list of scheme name → scopes maps, got ${describeValue(value)}`,
    )
  return Object.freeze(
    (value as SecurityRequirement[]).map((requirement) => Object.freeze({ ...requirement })),
  )
}

/** Builds the model's operation from a parsed one and its surviving responses. */
export function toOperation(
  unit: OperationUnit,
  parsed: ParsedOperation,
  responses: readonly (readonly [string, ResponseEntry])[],
): HttpOperation | WebhookOperation {
  const byStatus: Record<string, ResponseEntry> = {}
  for (let i = 0; i < responses.length; i++) setOwn(byStatus, responses[i]![0], responses[i]![1])
  const base = { ...parsed.fields, responses: Object.freeze(byStatus) }
  return Object.freeze(
    unit.kind === 'http'
      ? { kind: 'http', path: unit.key, ...base }
      : { kind: 'webhook', name: unit.key, ...base },
  )
}

export type { Server }
