import { OAS_ISSUES, type IssueKind, type IssueLog } from '../issues/index.js'
import type { ApiInfo, Components, OasModel, Tag } from '../model/api-model.js'
import type {
  ComponentBucket,
  HttpOperation,
  SecurityRequirement,
  Server,
  WebhookOperation,
} from '../model/operation.js'
import type { SecurityScheme } from '../model/security-scheme.js'
import { setOwn } from '../model/own.js'
import { getAtLocalRef } from '../refs/pointer.js'
import { parseMaybeRef } from './component-ref.js'
import { describeValue, isObject, OasContext, type Outcome, type RawObject } from './context.js'
import { pruneIfUnusable, type ComponentOutcomes, type RefCheck } from './dependencies.js'
import { ParseFailure } from './failures.js'
import type { Dialect } from './keys.js'
import { parseRequestBody, parseResponse } from './bodies.js'
import { parsePathItems, readSecurity, toOperation } from './operation.js'
import { parseHeader } from './content.js'
import { parseParameter } from './parameter.js'
import { parseFields, parseSchema } from './schema/parse-schema.js'
import { schemaComponent } from './schema/schema-ref.js'
import { parseSecurityScheme } from './security-scheme.js'
import { parseServers } from './servers.js'
import { readExternalDocs } from './external-docs.js'

/**
 * Parses an OpenAPI 3.0 or 3.1 document (already decoded) into the model. Every component, path
 * × method and response entry is an isolation unit; once all are parsed, units whose refs cannot
 * be used are pruned, one hop deep.
 */
export function parseOas(
  document: RawObject,
  openapi: string,
  issues: IssueLog,
  refFailures: ReadonlyMap<string, string> = new Map(),
): OasModel {
  const dialect: Dialect = openapi.startsWith('3.1') ? '3.1' : '3.0'
  const ctx = new OasContext(document, dialect, issues, {
    schema: parseSchema,
    fields: parseFields,
  })
  ctx.checkKeys(document, 'document')

  const info = rootField(ctx, 'info', () => parseInfo(ctx, document.info)) ?? {
    title: '',
    version: '',
  }
  const servers =
    rootField(ctx, 'servers', () => parseServers(ctx, document.servers, 'servers')) ?? []
  const security = rootField(ctx, 'security', () =>
    readSecurity(ctx, document.security, 'security'),
  )
  const tags = rootField(ctx, 'tags', () => parseTags(ctx, document.tags)) ?? []
  if (isObject(document.externalDocs)) {
    ctx.push('externalDocs')
    ctx.checkKeys(document.externalDocs, 'externalDocs')
    ctx.pop()
  }
  const externalDocs = readExternalDocs(document.externalDocs)

  const outcomes = parseComponents(ctx)
  const check: RefCheck = { outcomes, failures: refFailures, verdicts: new Map() }
  const operations = parsePathItems(ctx, 'paths', document.paths)
  const webhooks = dialect === '3.1' ? parsePathItems(ctx, 'webhooks', document.webhooks) : []

  const components: Record<ComponentBucket, Record<string, unknown>> = {
    schemas: {},
    parameters: {},
    responses: {},
    requestBodies: {},
    headers: {},
    securitySchemes: {},
  }
  for (const bucket of Object.keys(components) as ComponentBucket[]) {
    for (const [name, outcome] of outcomes[bucket]) {
      if (!outcome.ok) continue
      if (pruneIfUnusable(['components', bucket, name], outcome.refs, check, issues)) continue
      setOwn(components[bucket], name, outcome.value)
    }
    Object.freeze(components[bucket])
  }

  const model: OasModel = {
    protocol: 'oas',
    openapi,
    info,
    servers,
    operations: assemble(operations, check, issues) as HttpOperation[],
    webhooks: assemble(webhooks, check, issues) as WebhookOperation[],
    components: Object.freeze(components) as unknown as Components,
    tags,
    ...(security ? { security } : {}),
    ...(externalDocs ? { externalDocs } : {}),
  }
  return Object.freeze(model)
}

function assemble(
  units: ReturnType<typeof parsePathItems>,
  check: RefCheck,
  issues: IssueLog,
): (HttpOperation | WebhookOperation)[] {
  const operations: (HttpOperation | WebhookOperation)[] = []
  for (const unit of units) {
    if (!unit.outcome.ok) continue
    if (pruneIfUnusable(unit.path, unit.outcome.refs, check, issues)) continue
    const responses: [
      string,
      NonNullable<(typeof unit.outcome.value.responses)[number][1]> extends Outcome<infer R>
        ? R
        : never,
    ][] = []
    const entries = unit.outcome.value.responses
    for (let i = 0; i < entries.length; i++) {
      const [status, outcome] = entries[i]!
      if (!outcome.ok) continue
      if (pruneIfUnusable([...unit.path, 'responses', status], outcome.refs, check, issues))
        continue
      responses.push([status, outcome.value])
    }
    operations.push(toOperation(unit, unit.outcome.value, responses))
  }
  return operations
}

type BucketParser = { kind: IssueKind; parse: (ctx: OasContext, raw: unknown) => unknown }

/** What each non-schema bucket's entries are parsed as, and the issue their failure logs. */
const BUCKETS: Record<Exclude<ComponentBucket, 'schemas'>, BucketParser> = {
  parameters: {
    kind: OAS_ISSUES.invalidParameter,
    parse: (ctx, raw) =>
      parseMaybeRef(ctx, raw, 'parameters', (value) => parseParameter(ctx, value)),
  },
  responses: {
    kind: OAS_ISSUES.invalidResponse,
    parse: (ctx, raw) => parseMaybeRef(ctx, raw, 'responses', (value) => parseResponse(ctx, value)),
  },
  // No issue type of its own: a request body is a container of schemas.
  requestBodies: {
    kind: OAS_ISSUES.invalidSchema,
    parse: (ctx, raw) =>
      parseMaybeRef(ctx, raw, 'requestBodies', (value) => parseRequestBody(ctx, value)),
  },
  // A header follows the structure of a parameter.
  headers: {
    kind: OAS_ISSUES.invalidParameter,
    parse: (ctx, raw) => parseMaybeRef(ctx, raw, 'headers', (value) => parseHeader(ctx, value)),
  },
  securitySchemes: {
    kind: OAS_ISSUES.invalidSecurityScheme,
    parse: (ctx, raw) => parseSecurityScheme(ctx, followLocalRef(ctx, raw)),
  },
}

function parseComponents(ctx: OasContext): ComponentOutcomes {
  const outcomes: Record<ComponentBucket, Map<string, Outcome<unknown>>> = {
    schemas: ctx.schemaOutcomes,
    parameters: new Map(),
    responses: new Map(),
    requestBodies: new Map(),
    headers: new Map(),
    securitySchemes: new Map(),
  }
  const components = ctx.document.components
  if (components === undefined) return outcomes
  ctx.push('components')
  if (!isObject(components)) {
    ctx.issues.add(
      OAS_ISSUES.unexpectedProperty,
      ['components'],
      `Unexpected property 'components' at the document root: expected an object, got ${describeValue(components)}; ignored.`,
    )
    ctx.pop()
    return outcomes
  }
  ctx.checkKeys(components, 'components')
  for (const bucket of Object.keys(outcomes) as ComponentBucket[]) {
    const entries = components[bucket]
    if (entries === undefined) continue
    if (!isObject(entries)) {
      ctx.report(
        OAS_ISSUES.unexpectedProperty,
        `Unexpected property '${bucket}' at components: expected a map of names, got ${describeValue(entries)}; ignored.`,
        bucket,
      )
      continue
    }
    for (const name in entries) {
      if (bucket === 'schemas') {
        schemaComponent(ctx, name)
        continue
      }
      const { kind, parse } = BUCKETS[bucket]
      outcomes[bucket].set(
        name,
        ctx.runUnit(['components', bucket, name], kind, () => parse(ctx, entries[name])),
      )
    }
  }
  ctx.pop()
  return outcomes
}

/** Security schemes have no lazy ref in the model: a local `$ref` to one is read in place. */
function followLocalRef(ctx: OasContext, raw: unknown): unknown {
  let value = raw
  for (let hops = 0; isObject(value) && typeof value.$ref === 'string'; hops++) {
    if (hops >= 10) ctx.fail('Max lookups reached')
    const target = getAtLocalRef(ctx.document, value.$ref)
    if (target === undefined) ctx.fail(`Ref "${value.$ref}" not found`)
    value = target
  }
  return value
}

/** Parses an optional root field; a malformed one is reported and ignored rather than failing the document. */
function rootField<T>(ctx: OasContext, key: string, parse: () => T): T | undefined {
  if (ctx.document[key] === undefined) return undefined
  const saved = ctx.trail
  try {
    return parse()
  } catch (error) {
    if (!(error instanceof ParseFailure)) throw error
    ctx.trail = saved
    const at = error.at?.[0] === key ? error.at : [key]
    ctx.issues.add(
      OAS_ISSUES.unexpectedProperty,
      at,
      `Unexpected property '${key}' at the document root: ${error.message}; ignored.`,
    )
    return undefined
  }
}

function parseInfo(ctx: OasContext, value: unknown): ApiInfo {
  if (!isObject(value)) return ctx.fail(`expected an info object, got ${describeValue(value)}`)
  ctx.push('info')
  ctx.checkKeys(value, 'info')
  for (const key of ['contact', 'license'] as const) {
    const nested = value[key]
    if (!isObject(nested)) continue
    ctx.push(key)
    ctx.checkKeys(nested, key)
    ctx.pop()
  }
  ctx.pop()
  const info: { -readonly [K in keyof ApiInfo]: ApiInfo[K] } = {
    title: typeof value.title === 'string' ? value.title : '',
    version: typeof value.version === 'string' ? value.version : String(value.version ?? ''),
  }
  if (typeof value.description === 'string') info.description = value.description
  if (typeof value.summary === 'string') info.summary = value.summary
  if (typeof value.termsOfService === 'string') info.termsOfService = value.termsOfService
  const contact = stringFields(value.contact, ['name', 'url', 'email'])
  if (contact) info.contact = contact
  const license = stringFields(value.license, ['name', 'url', 'identifier'])
  if (license) info.license = license
  return Object.freeze(info)
}

/** The string fields of a contact or license object; undefined when it has none. */
function stringFields<K extends string>(
  value: unknown,
  keys: readonly K[],
): Readonly<Partial<Record<K, string>>> | undefined {
  if (!isObject(value)) return undefined
  const fields: Partial<Record<K, string>> = {}
  let any = false
  for (const key of keys) {
    const field = value[key]
    if (typeof field !== 'string') continue
    fields[key] = field
    any = true
  }
  return any ? Object.freeze(fields) : undefined
}

function parseTags(ctx: OasContext, value: unknown): readonly Tag[] {
  if (!Array.isArray(value)) return ctx.fail(`expected a list of tags, got ${describeValue(value)}`)
  ctx.push('tags')
  const tags = value.flatMap((tag, index): Tag[] => {
    if (!isObject(tag) || typeof tag.name !== 'string') return []
    ctx.push(String(index))
    ctx.checkKeys(tag, 'tag')
    ctx.pop()
    const node: { -readonly [K in keyof Tag]: Tag[K] } = { name: tag.name }
    if (typeof tag.description === 'string') node.description = tag.description
    const externalDocs = readExternalDocs(tag.externalDocs)
    if (externalDocs) node.externalDocs = externalDocs
    return [Object.freeze(node)]
  })
  ctx.pop()
  return Object.freeze(tags)
}

export type { SecurityRequirement, SecurityScheme, Server }
