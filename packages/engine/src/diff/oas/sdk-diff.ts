import { modelNames, modelOperationNames } from '../../generate/model-names.js'
import { successStatus } from '../../generate/success-status.js'
import { toIdentifierName } from '../../generate/render/to-identifier-name.js'
import type {
  HttpOperation,
  MediaType,
  OasModel,
  Parameter,
  RequestBody,
  Response,
  Schema,
} from '../../model/index.js'
import type { Change, ChangelogBuilder } from '../changelog.js'
import type { PolicyOptions } from '../policies.js'
import { byKey, labelOf, pointerOf } from './operation-keys.js'
import { resolveComponent } from './resolve-component.js'
import { escapePointer } from './scope.js'
import { OTHER_GENERATORS, SDK_RULES, SVC_GENERATORS, type SdkRuleId } from './sdk-rules.js'

/**
 * The SDK profile: what changes in the code svc's generators emit from the description (function
 * and type names, argument groups, result unions, optional members) and in what other generators
 * emit (enum names, positional parameters), where the wire sees no break. `wire` holds the
 * entries the wire rules already made; a move they judged harmless may still change a type.
 */
export function compareGenerated(
  log: ChangelogBuilder,
  old: OasModel,
  next: OasModel,
  options: PolicyOptions,
  wire: readonly Change[],
): void {
  const emit = emitter(log, options.sdkGenerators)
  compareOperations(emit, old, next)
  compareSchemas(emit, old, next)
  compareEnumNames(emit, old, next)
  compareOptionality(emit, wire)
}

type Emit = (id: SdkRuleId, location: string, message: string, extra?: Partial<Change>) => void

/** Adds an SDK change when the project uses a generator whose code it breaks (any, unsaid). */
function emitter(log: ChangelogBuilder, generators: readonly string[] | undefined): Emit {
  const used = generators && usedGenerators(generators)
  return (id, location, message, extra = {}) => {
    const judged: readonly string[] = SDK_RULES[id].generators
    if (used && !judged.some((generator) => used.has(generator))) return
    log.add(id, location, message, extra)
  }
}

/** The generators whose code a project has: gen-tanstack-query calls gen-fetch-client's functions. */
function usedGenerators(ids: readonly string[]): Set<string> {
  const svc: readonly string[] = SVC_GENERATORS
  const used = new Set(ids.map((id) => (svc.includes(id) ? id : OTHER_GENERATORS)))
  if (used.has('@svc/gen-tanstack-query')) used.add('@svc/gen-fetch-client')
  return used
}

// Operations ----------------------------------------------------------------------------------

function compareOperations(emit: Emit, old: OasModel, next: OasModel): void {
  const before = byKey(old.operations)
  const oldNames = modelOperationNames(old)
  const newNames = modelOperationNames(next)
  for (const [key, operation] of byKey(next.operations)) {
    const match = before.get(key)
    if (!match) continue
    const extra = { operation: labelOf(operation) }
    const pointer = pointerOf(operation)
    const a = toIdentifierName(oldNames.get(match)!, 'camel')
    const b = toIdentifierName(newNames.get(operation)!, 'camel')
    // TanStack Query's options are named after the function: `listPetsQuery`, `addPetMutation`.
    const options = operation.method === 'get' || operation.method === 'head' ? 'Query' : 'Mutation'
    if (a !== b)
      emit(
        'sdk-operation-renamed',
        pointer,
        `The generated function of ${extra.operation} is now \`${b}\`, not \`${a}\` (operationId ${describeId(match.operationId)} → ${describeId(operation.operationId)}), and its TanStack options \`${b}${options}\`, not \`${a}${options}\`.`,
        extra,
      )
    compareParameters(emit, old, next, match, operation, pointer, extra)
    compareResults(emit, old, next, match, operation, pointer, extra)
    compareOperationKind(emit, match, operation, pointer, extra)
    compareBodyTypes(emit, old, next, match, operation, pointer, extra)
  }
}

/**
 * The model a body is generated as, when it names one (`Pet`, or `Pet[]` for a list of them):
 * generators with nominal types (Java, C#, AutoRest) declare the method with it, so a body that
 * names another model, both still in the document, breaks the code that holds the result or
 * builds the argument even when the two have the same shape. svc's TypeScript types are
 * structural: the shape speaks for them, through the wire rules.
 */
function namedType(body: Response | RequestBody | undefined): string | undefined {
  // A Swagger 2.0 body without `consumes`/`produces` is `*/*`: the schema is the same.
  const media = jsonMedia(body) ?? Object.values(body?.content ?? {})[0]
  const schema = media?.schema
  if (schema?.kind === 'ref') return schema.refName
  if (schema?.kind === 'array' && schema.items.kind === 'ref') return `${schema.items.refName}[]`
  return undefined
}

function compareBodyTypes(
  emit: Emit,
  old: OasModel,
  next: OasModel,
  a: HttpOperation,
  b: HttpOperation,
  pointer: string,
  extra: { operation: string },
): void {
  const redirected = (before: string | undefined, after: string | undefined) => {
    if (before === undefined || after === undefined) return false
    const [oldName, newName] = [before.replace(/\[\]$/, ''), after.replace(/\[\]$/, '')]
    if (toIdentifierName(before, 'pascal') === toIdentifierName(after, 'pascal')) return false
    // A model renamed or removed is told by its own rule.
    return (
      Object.hasOwn(next.components.schemas, oldName) &&
      Object.hasOwn(old.components.schemas, newName)
    )
  }
  const bodyOf = (model: OasModel, operation: HttpOperation) =>
    operation.requestBody &&
    resolveComponent<RequestBody>(model, 'requestBodies', operation.requestBody)
  const [oldBody, newBody] = [namedType(bodyOf(old, a)), namedType(bodyOf(next, b))]
  if (redirected(oldBody, newBody))
    emit(
      'sdk-body-model-changed',
      `${pointer}/requestBody`,
      `The request body of ${extra.operation} is now the model \`${newBody}\`, not \`${oldBody}\`: generators with nominal types declare its argument with the other class.`,
      extra,
    )
  for (const [status, response] of Object.entries(b.responses)) {
    const was = a.responses[status]
    if (!was) continue
    const before = namedType(resolveComponent<Response>(old, 'responses', was))
    const after = namedType(resolveComponent<Response>(next, 'responses', response))
    if (redirected(before, after))
      emit(
        'sdk-body-model-changed',
        `${pointer}/responses/${escapePointer(status)}`,
        `The response ${status} of ${extra.operation} is now the model \`${after}\`, not \`${before}\`: generators with nominal types declare its result with the other class.`,
        extra,
      )
  }
}

/**
 * AutoRest's operation kinds, each a method of another shape: a long-running operation returns a
 * poller (`beginCreate`, `begin_create`) whose result `final-state-via` picks, a pageable one a
 * pager over `itemName` that follows `nextLinkName`. svc's generators read neither extension.
 */
function operationKind(operation: HttpOperation): string[] {
  const extensions = operation.extensions ?? {}
  const kinds: string[] = []
  if (extensions['x-ms-long-running-operation'] === true) {
    const options = extensions['x-ms-long-running-operation-options']
    const via = isRecord(options) ? options['final-state-via'] : undefined
    kinds.push(typeof via === 'string' ? `long-running (final-state-via ${via})` : 'long-running')
  }
  const pageable = extensions['x-ms-pageable']
  if (pageable !== undefined && pageable !== false) {
    const settings = isRecord(pageable) ? pageable : {}
    const text = (key: string, fallback: string) =>
      typeof settings[key] === 'string' ? settings[key] : fallback
    const next = settings['nextLinkName'] === null ? 'none' : text('nextLinkName', 'none')
    kinds.push(
      `pageable (items ${text('itemName', 'value')}, next link ${next}${typeof settings['operationName'] === 'string' ? `, next operation ${settings['operationName']}` : ''})`,
    )
  }
  return kinds
}

function compareOperationKind(
  emit: Emit,
  a: HttpOperation,
  b: HttpOperation,
  pointer: string,
  extra: { operation: string },
): void {
  const before = operationKind(a)
  const after = operationKind(b)
  if (before.join('; ') === after.join('; ')) return
  const describe = (kinds: string[]) =>
    kinds.length === 0 ? 'a plain operation' : kinds.join(' and ')
  emit(
    'sdk-operation-kind-changed',
    pointer,
    `${extra.operation} is now ${describe(after)}, was ${describe(before)}: the method generated from it by AutoRest returns another kind of result.`,
    extra,
  )
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function describeId(id: string | undefined): string {
  return id === undefined ? 'none' : `\`${id}\``
}

type Located = { in: Parameter['in']; name: string; positional: boolean; required: boolean }

function parametersOf(model: OasModel, operation: HttpOperation): Located[] {
  return operation.parameters.flatMap((entry) => {
    const parameter = resolveComponent<Parameter>(model, 'parameters', entry)
    if (!parameter) return []
    const name = parameter.in === 'header' ? parameter.name.toLowerCase() : parameter.name
    // AutoRest makes a shared parameter a property of the client unless it says `method`, and
    // any parameter one when it says `client`: neither is an argument of the method.
    const location = parameter.extensions?.['x-ms-parameter-location']
    const positional = location === undefined ? entry.kind !== 'ref' : location === 'method'
    return [{ in: parameter.in, name, positional, required: parameter.required }]
  })
}

function compareParameters(
  emit: Emit,
  old: OasModel,
  next: OasModel,
  a: HttpOperation,
  b: HttpOperation,
  pointer: string,
  extra: { operation: string },
): void {
  const before = parametersOf(old, a)
  const after = parametersOf(next, b)
  const key = (parameter: Located) => `${parameter.in} ${parameter.name}`
  const oldKeys = new Set(before.map(key))
  const newKeys = new Set(after.map(key))
  const inOrder = (parameters: readonly Located[], other: ReadonlySet<string>) =>
    parameters.filter((parameter) => parameter.positional && other.has(key(parameter))).map(key)
  const oldOrder = inOrder(
    before,
    new Set(after.filter((parameter) => parameter.positional).map(key)),
  )
  const newOrder = inOrder(
    after,
    new Set(before.filter((parameter) => parameter.positional).map(key)),
  )
  if (oldOrder.join('\n') !== newOrder.join('\n'))
    emit(
      'sdk-parameter-order-changed',
      `${pointer}/parameters`,
      `The parameters of ${extra.operation} are in another order: ${names(newOrder)}, was ${names(oldOrder)}.`,
      extra,
    )
  for (const moved of after) {
    if (oldKeys.has(key(moved))) continue
    const from = before.find(
      (parameter) =>
        parameter.name.toLowerCase() === moved.name.toLowerCase() && !newKeys.has(key(parameter)),
    )
    if (!from) continue
    emit(
      'sdk-parameter-location-changed',
      `${pointer}/parameters/${moved.in}/${escapePointer(moved.name)}`,
      `The parameter \`${moved.name}\` of ${extra.operation} moved from ${from.in} to ${moved.in}: its generated argument is now in \`${GROUPS[moved.in]}\`, not \`${GROUPS[from.in]}\`.`,
      extra,
    )
  }
  comparePositional(emit, before, after, pointer, extra)
}

/**
 * What changes a positional signature without reordering it: an optional argument added (a
 * required one breaks the wire already), and a parameter that AutoRest moves between the method
 * and the client (`x-ms-parameter-location`).
 */
function comparePositional(
  emit: Emit,
  before: readonly Located[],
  after: readonly Located[],
  pointer: string,
  extra: { operation: string },
): void {
  const sameName = (a: Located, b: Located) => a.name.toLowerCase() === b.name.toLowerCase()
  for (const parameter of after) {
    const location = `${pointer}/parameters/${parameter.in}/${escapePointer(parameter.name)}`
    const was = before.find((old) => old.in === parameter.in && old.name === parameter.name)
    if (was && was.positional !== parameter.positional)
      emit(
        'sdk-client-parameter-changed',
        location,
        `The parameter \`${parameter.name}\` of ${extra.operation} is now ${parameter.positional ? 'an argument of the method' : 'a property of the client'}, was ${was.positional ? 'an argument of the method' : 'a property of the client'} (\`x-ms-parameter-location\`).`,
        extra,
      )
    // One that moved to another location is `sdk-parameter-location-changed`.
    if (was || !parameter.positional || parameter.required) continue
    if (before.some((old) => sameName(old, parameter))) continue
    emit(
      'sdk-optional-parameter-added',
      location,
      `The optional parameter \`${parameter.name}\` was added to ${extra.operation}: generators with positional arguments add one to its method.`,
      extra,
    )
  }
}

/** The members of gen-fetch-client's argument object that group the parameters. */
const GROUPS: Readonly<Record<Parameter['in'], string>> = {
  path: 'path',
  query: 'query',
  header: 'headers',
  cookie: 'cookies',
}

function names(keys: readonly string[]): string {
  return keys.map((key) => `\`${key.slice(key.indexOf(' ') + 1)}\``).join(', ')
}

// Results -------------------------------------------------------------------------------------

/** Statuses whose responses never have a body (as gen-fetch-client types them). */
const NO_BODY = new Set(['204', '205', '304'])

/**
 * What the generated result union holds for one response: its data's type and its headers. Two
 * responses alike share a member; one like the `default` response has no member of its own.
 */
type Member = { readonly data: string; readonly headers: string }

function memberOf(
  model: OasModel,
  operation: HttpOperation,
  status: string,
  raw: HttpOperation['responses'][string] | undefined,
): Member {
  if (raw === undefined)
    return { data: operation.method === 'head' ? 'none' : 'unknown', headers: '' }
  const response = resolveComponent<Response>(model, 'responses', raw)
  const headers = Object.entries(response?.headers ?? {})
    .map(
      ([name, header]) =>
        `${name.toLowerCase()}${'required' in header && header.required ? '' : '?'}`,
    )
    .sort()
    .join(',')
  if (operation.method === 'head' || NO_BODY.has(status)) return { data: 'none', headers }
  return { data: dataOf(response), headers }
}

function dataOf(response: Response | undefined): string {
  const entries = Object.entries(response?.content ?? {})
  const json = entries.find(([type]) => /\bjson\b|\+json$/i.test(type))
  if (json) return `json ${canonical(json[1].schema)}`
  if (entries.some(([type]) => type.startsWith('text/'))) return 'text'
  return entries.length > 0 ? 'binary' : 'unknown'
}

function sameMember(a: Member, b: Member): boolean {
  return a.data === b.data && a.headers === b.headers
}

function isSuccess(status: string): boolean {
  return /^2(\d\d|XX)$/i.test(status)
}

function compareResults(
  emit: Emit,
  old: OasModel,
  next: OasModel,
  a: HttpOperation,
  b: HttpOperation,
  pointer: string,
  extra: { operation: string },
): void {
  const place = (status: string) => `${pointer}/responses/${escapePointer(status)}`
  const before = new Map(Object.keys(a.responses).map((status) => [status.toUpperCase(), status]))
  const after = new Map(Object.keys(b.responses).map((status) => [status.toUpperCase(), status]))
  const oldFallback = memberOf(old, a, 'default', a.responses['default'])
  const newFallback = memberOf(next, b, 'default', b.responses['default'])
  const oldSuccess = successStatus(Object.keys(a.responses))
  const newSuccess = successStatus(Object.keys(b.responses))
  if (oldSuccess && newSuccess && oldSuccess.toUpperCase() !== newSuccess.toUpperCase()) {
    // The type exists only for a body that is not a model's (`$ref`), which is named for itself.
    const ownType = (model: OasModel, operation: HttpOperation, status: string) => {
      const response = resolveComponent<Response>(model, 'responses', operation.responses[status]!)
      const json = jsonMedia(response)
      return json !== undefined && json.schema.kind !== 'ref'
    }
    if (ownType(old, a, oldSuccess) || ownType(next, b, newSuccess))
      emit(
        'sdk-success-status-changed',
        place(newSuccess),
        `The generated \`<Operation>Response\` type of ${extra.operation} now describes the response ${newSuccess}, not ${oldSuccess}.`,
        extra,
      )
  }
  const oldSuccessData = [...before.values()]
    .filter(isSuccess)
    .map((status) => memberOf(old, a, status, a.responses[status]).data)
  // A status typed as one already documented joins that member (`ClientResult<200 | 203, Pet>`).
  const kept = [...after]
    .filter(([upper, status]) => before.has(upper) && status !== 'default')
    .map(([, status]) => memberOf(next, b, status, b.responses[status]))
  for (const [upper, status] of after) {
    if (before.has(upper) || status === 'default') continue
    const member = memberOf(next, b, status, b.responses[status])
    if (!sameMember(member, newFallback) && !kept.some((other) => sameMember(member, other)))
      emit(
        'sdk-response-status-added',
        place(status),
        `The response ${status} of ${extra.operation} adds a member to its generated result union: a \`switch\` over \`status\` that checks it covers every case stops compiling.`,
        extra,
      )
    if (isSuccess(status) && oldSuccessData.length > 0 && !oldSuccessData.includes(member.data))
      emit(
        'sdk-success-data-widened',
        place(status),
        `The response ${status} of ${extra.operation} has a body of another type than its other 2XX responses: the data its generated query or mutation resolves to becomes a union.`,
        extra,
      )
  }
  for (const [upper, status] of before) {
    if (after.has(upper) || status === 'default' || /^[123]/.test(status)) continue
    const member = memberOf(old, a, status, a.responses[status])
    if (!sameMember(member, oldFallback))
      emit(
        'sdk-response-status-removed',
        place(status),
        `The response ${status} of ${extra.operation} was removed: its member of the generated result union is gone, so code that reads \`data\` after checking \`status === ${numeric(status)}\` no longer compiles.`,
        extra,
      )
  }
}

function numeric(status: string): string {
  return /^\d+$/.test(status) ? String(Number(status)) : `'${status}'`
}

function jsonMedia(response: Response | RequestBody | undefined): MediaType | undefined {
  return Object.entries(response?.content ?? {}).find(([type]) =>
    /\bjson\b|\+json$/i.test(type),
  )?.[1]
}

// Component schemas ---------------------------------------------------------------------------

/** The identifier each component schema is generated as (`PetOwner`), by identifier. */
function typeNames(model: OasModel): Map<string, string> {
  const byIdentifier = new Map<string, string>()
  for (const [refName, name] of modelNames(model))
    byIdentifier.set(toIdentifierName(name, 'pascal'), refName)
  return byIdentifier
}

function compareSchemas(emit: Emit, old: OasModel, next: OasModel): void {
  const before = typeNames(old)
  const after = typeNames(next)
  const fresh = [...after].filter(([identifier]) => !before.has(identifier))
  const bodies = new Map(
    fresh.map(([, refName]) => [refName, canonical(next.components.schemas[refName]!)]),
  )
  for (const [identifier, refName] of before) {
    if (after.has(identifier)) continue
    const body = canonical(old.components.schemas[refName]!)
    const renamed = fresh.find(([, candidate]) => bodies.get(candidate) === body)
    const zod = (name: string) => `${toIdentifierName(name, 'camel')}Schema`
    if (renamed) {
      const [newIdentifier, newRefName] = renamed
      bodies.delete(newRefName)
      emit(
        'sdk-schema-renamed',
        `/components/schemas/${escapePointer(newRefName)}`,
        `The schema \`${refName}\` was renamed \`${newRefName}\`: its generated type is \`${newIdentifier}\` (zod: \`${zod(newIdentifier)}\`), no longer \`${identifier}\`.`,
      )
    } else
      emit(
        'sdk-schema-removed',
        `/components/schemas/${escapePointer(refName)}`,
        `The schema \`${refName}\` was removed: its generated type \`${identifier}\` (zod: \`${zod(identifier)}\`) is gone.`,
      )
  }
  for (const refName of Object.keys(old.components.schemas)) {
    const tag = inheritedTag(old, refName)
    if (!tag || !Object.hasOwn(next.components.schemas, refName)) continue
    if (inheritedTag(next, refName)?.propertyName === tag.propertyName) continue
    emit(
      'sdk-schema-left-hierarchy',
      `/components/schemas/${escapePointer(refName)}`,
      `The schema \`${refName}\` no longer extends the base discriminated by \`${tag.propertyName}\`: its generated type's \`${tag.propertyName}\` is no longer the literal ${tag.values.map((value) => `'${value}'`).join(' | ')}, so a union of the hierarchy no longer narrows to it.`,
    )
  }
  compareBases(emit, old, next)
}

/**
 * Generators that make an `allOf` member named by `$ref` a base class (AutoRest, openapi-generator
 * with inheritance) lose the class a schema extended when the member goes, even when its
 * properties move into the schema itself: code that passes it as its base no longer compiles.
 * svc's generators merge `allOf`, so the same properties give the same type.
 */
function compareBases(emit: Emit, old: OasModel, next: OasModel): void {
  const bases = (schema: Schema | undefined) =>
    (schema?.allOfRefs ?? []).filter((base): base is string => base !== null)
  for (const [refName, schema] of Object.entries(old.components.schemas)) {
    if (!Object.hasOwn(next.components.schemas, refName)) continue
    const kept = new Set(bases(next.components.schemas[refName]))
    for (const base of bases(schema)) {
      if (kept.has(base)) continue
      emit(
        'sdk-schema-base-removed',
        `/components/schemas/${escapePointer(refName)}`,
        `The schema \`${refName}\` no longer extends \`${base}\` (\`allOf\`): generators that make it a base class drop it from \`${refName}\`.`,
      )
    }
  }
}

/**
 * The discriminator value a component schema carries as a child of an `allOf` hierarchy, as
 * gen-typescript finds it (the parser merges `allOf`, so a child holds its base's discriminator
 * and a superset of its properties): the mapping keys that point to it, else its name when
 * another schema with the same discriminator has a strict subset of its properties.
 */
function inheritedTag(
  model: OasModel,
  refName: string,
): { propertyName: string; values: string[] } | undefined {
  const schemas = model.components.schemas
  const own = schemas[refName]
  if (own?.kind !== 'object' || !own.discriminator) return undefined
  const { propertyName, mapping } = own.discriminator
  const mapped = Object.entries(mapping ?? {})
    .filter(([, target]) => target === refName || target.endsWith(`/${escapePointer(refName)}`))
    .map(([value]) => value)
  if (mapped.length > 0) return { propertyName, values: mapped }
  const keys = Object.keys(own.properties)
  const isChild = Object.entries(schemas).some(
    ([name, other]) =>
      name !== refName &&
      other.kind === 'object' &&
      other.discriminator?.propertyName === propertyName &&
      Object.keys(other.properties).length < keys.length &&
      Object.keys(other.properties).every((key) => Object.hasOwn(own.properties, key)),
  )
  return isChild ? { propertyName, values: [refName] } : undefined
}

/** A schema as text that two equal bodies share: key order and documentation left out. */
function canonical(schema: Schema): string {
  return JSON.stringify(schema, (key, value: unknown) => {
    if (DOCUMENTATION.has(key)) return undefined
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return value
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return Object.fromEntries(entries)
  })
}

const DOCUMENTATION = new Set(['title', 'description', 'example', 'examples'])

// Enum names ----------------------------------------------------------------------------------

type EnumPlaces = {
  /** Every schema's place, by a key that matches it across the two documents. */
  readonly places: Set<string>
  /** The schemas that name their enum members, and the names. */
  readonly named: Map<string, { pointer: string; names: EnumNames }>
}

/** Every schema of the components and of the operations' parameters and bodies, and its enum names. */
function enumPlacesOf(model: OasModel): EnumPlaces {
  const places = new Set<string>()
  const named = new Map<string, { pointer: string; names: EnumNames }>()
  const visit = (key: string, pointer: string, schema: Schema, extensions?: Extensions) => {
    places.add(key)
    const names = enumNames(schema.extensions) ?? enumNames(extensions)
    if (names) named.set(key, { pointer, names })
    for (const [step, child] of childrenOf(schema))
      visit(`${key}/${step}`, `${pointer}/${step}`, child)
  }
  for (const [name, schema] of Object.entries(model.components.schemas))
    visit(`schema ${name}`, `/components/schemas/${escapePointer(name)}`, schema)
  for (const [key, operation] of byKey(model.operations)) {
    const pointer = pointerOf(operation)
    for (const entry of operation.parameters) {
      const parameter = resolveComponent<Parameter>(model, 'parameters', entry)
      if (!parameter) continue
      const at = `parameters/${parameter.in}/${escapePointer(parameter.name)}`
      visit(`${key} ${at}`, `${pointer}/${at}`, parameter.schema, parameter.extensions)
    }
    const body =
      operation.requestBody && resolveComponent(model, 'requestBodies', operation.requestBody)
    for (const [type, media] of Object.entries(body?.content ?? {})) {
      const at = `requestBody/content/${escapePointer(type)}/schema`
      visit(`${key} ${at}`, `${pointer}/${at}`, media.schema)
    }
    for (const [status, raw] of Object.entries(operation.responses)) {
      const response = resolveComponent<Response>(model, 'responses', raw)
      for (const [type, media] of Object.entries(response?.content ?? {})) {
        const at = `responses/${escapePointer(status)}/content/${escapePointer(type)}/schema`
        visit(`${key} ${at}`, `${pointer}/${at}`, media.schema)
      }
    }
  }
  return { places, named }
}

type Extensions = Readonly<Record<string, unknown>>

/** The schemas inside one, by the step that reaches them; refs are visited at their component. */
function* childrenOf(schema: Schema): Generator<[string, Schema]> {
  if (schema.kind === 'object') {
    for (const [name, property] of Object.entries(schema.properties))
      yield [`properties/${escapePointer(name)}`, property]
    if (typeof schema.additionalProperties === 'object')
      yield ['additionalProperties', schema.additionalProperties]
  } else if (schema.kind === 'array') yield ['items', schema.items]
  else if (schema.kind === 'union')
    for (const [index, member] of schema.members.entries())
      yield [`${schema.mode}/${index}`, member]
}

type EnumNames = {
  readonly varnames?: string
  readonly name?: string
  readonly modelAsString?: boolean
  readonly values?: string
}

/** The names generators give an enum and its members, as `x-enum-varnames` and `x-ms-enum` say. */
function enumNames(extensions: Extensions | undefined): EnumNames | undefined {
  const varnames = extensions?.['x-enum-varnames']
  const ms = extensions?.['x-ms-enum'] as
    { name?: unknown; modelAsString?: unknown; values?: unknown } | undefined
  if (varnames === undefined && (ms === undefined || ms === null || typeof ms !== 'object'))
    return undefined
  const values = Array.isArray(ms?.values)
    ? (ms.values as { value?: unknown; name?: unknown }[])
        .filter((value) => value?.name !== undefined)
        .map((value) => `${JSON.stringify(value.value)}=${String(value.name)}`)
        .join(', ')
    : undefined
  return {
    ...(Array.isArray(varnames) && { varnames: varnames.map(String).join(', ') }),
    ...(typeof ms?.name === 'string' && { name: ms.name }),
    ...(ms && { modelAsString: ms.modelAsString === true }),
    ...(values && { values }),
  }
}

const ENUM_FIELDS = {
  varnames: '`x-enum-varnames`',
  name: '`x-ms-enum` name',
  modelAsString: '`x-ms-enum` modelAsString',
  values: '`x-ms-enum` value names',
} as const

function compareEnumNames(emit: Emit, old: OasModel, next: OasModel): void {
  const before = enumPlacesOf(old)
  const after = enumPlacesOf(next)
  for (const key of new Set([...before.named.keys(), ...after.named.keys()])) {
    // Names that came or went with their schema are the schema's change, not theirs.
    if (!before.places.has(key) || !after.places.has(key)) continue
    const a = before.named.get(key)
    const b = after.named.get(key)
    const changes = (Object.keys(ENUM_FIELDS) as (keyof EnumNames)[]).flatMap((field) => {
      const from = a?.names[field]
      const to = b?.names[field]
      if (from === to) return []
      return [`${ENUM_FIELDS[field]} ${show(from)} → ${show(to)}`]
    })
    if (changes.length === 0) continue
    emit(
      'sdk-enum-names-changed',
      (b ?? a)!.pointer,
      `The names an enum is generated with changed: ${changes.join('; ')}.`,
    )
  }
}

function show(value: string | boolean | undefined): string {
  return value === undefined ? 'none' : `\`${String(value)}\``
}

// Optional members ----------------------------------------------------------------------------

/**
 * Wire entries harmless to clients that still change a generated type: what is only received
 * becoming required, what is only sent becoming optional.
 */
const OPTIONALITY: Readonly<Record<string, SdkRuleId>> = {
  'response-body-property-became-required': 'sdk-property-became-required',
  'response-header-property-became-required': 'sdk-property-became-required',
  'webhook-payload-property-became-required': 'sdk-property-became-required',
  'response-header-became-required': 'sdk-property-became-required',
  'request-body-property-became-optional': 'sdk-property-became-optional',
  'request-parameter-property-became-optional': 'sdk-property-became-optional',
}

function compareOptionality(emit: Emit, wire: readonly Change[]): void {
  for (const change of wire) {
    const id = OPTIONALITY[change.id]
    if (!id) continue
    const extra = {
      ...(change.operation !== undefined && { operation: change.operation }),
      ...(change.operations !== undefined && { operations: change.operations }),
    }
    const effect =
      id === 'sdk-property-became-required'
        ? 'its generated type is no longer optional (`?:` is gone), so code that builds such values (fixtures, mocks) must set it'
        : 'its generated type is now optional (`?:`), so code that reads it from such a value must allow for its absence'
    emit(id, change.location, `${change.message.replace(/\.$/, '')}: ${effect}.`, extra)
  }
}
