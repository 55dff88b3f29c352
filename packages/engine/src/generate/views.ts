import type { ApiModel, ObjectSchema, Schema } from '../model/index.js'

/**
 * The side of an exchange a model is printed for. `read`: a response, where `readOnly`
 * properties may come and `writeOnly` ones should not (they are optional, so that a server that
 * sends one still matches a closed object). `write`: a request body, where `readOnly` properties
 * should not be sent (they are left out) and `writeOnly` ones are as declared.
 */
export type ModelView = 'read' | 'write'

/**
 * The schema as the view sees it, down to (not through) its refs: the models it refers to have
 * views of their own. A schema the view does not change is returned as it is.
 */
export function schemaView(model: ApiModel, schema: Schema, view: ModelView): Schema {
  switch (schema.kind) {
    case 'object':
      return objectView(model, schema, view)
    case 'array': {
      const items = schemaView(model, schema.items, view)
      const prefixItems = schema.prefixItems && mapSame(schema.prefixItems, model, view)
      return items === schema.items && prefixItems === schema.prefixItems
        ? schema
        : { ...schema, items, ...(prefixItems && { prefixItems }) }
    }
    case 'union': {
      const members = mapSame(schema.members, model, view)
      return members === schema.members ? schema : { ...schema, members }
    }
    default:
      return schema
  }
}

function objectView(model: ApiModel, schema: ObjectSchema, view: ModelView): ObjectSchema {
  const hidden = (property: Schema) =>
    view === 'write' ? marked(model, property, 'readOnly') : false
  const optional = (property: Schema) =>
    view === 'write' ? marked(model, property, 'readOnly') : marked(model, property, 'writeOnly')
  let changed = false
  const properties: Record<string, Schema> = {}
  for (const [name, property] of Object.entries(schema.properties)) {
    if (hidden(property)) {
      changed = true
      continue
    }
    const seen = schemaView(model, property, view)
    if (seen !== property) changed = true
    properties[name] = seen
  }
  const required = schema.required.filter((name) => {
    const property = schema.properties[name]
    return property === undefined || !optional(property)
  })
  if (required.length !== schema.required.length) changed = true
  const extra = schema.additionalProperties
  const additional = typeof extra === 'object' ? schemaView(model, extra, view) : extra
  if (additional !== extra) changed = true
  const patterns = schema.patternProperties && mapValues(schema.patternProperties, model, view)
  if (patterns !== schema.patternProperties) changed = true
  if (!changed) return schema
  return {
    ...schema,
    properties,
    required,
    ...(additional !== undefined && { additionalProperties: additional }),
    ...(patterns && { patternProperties: patterns }),
  }
}

/** Whether a property is `readOnly` (`writeOnly`): itself, or the model its ref names. */
function marked(model: ApiModel, property: Schema, marker: 'readOnly' | 'writeOnly'): boolean {
  if (property[marker]) return true
  return property.kind === 'ref' && model.components.schemas[property.refName]?.[marker] === true
}

function mapSame(schemas: readonly Schema[], model: ApiModel, view: ModelView) {
  const seen = schemas.map((schema) => schemaView(model, schema, view))
  return seen.every((schema, i) => schema === schemas[i]) ? schemas : seen
}

function mapValues(
  schemas: Readonly<Record<string, Schema>>,
  model: ApiModel,
  view: ModelView,
): Readonly<Record<string, Schema>> {
  let changed = false
  const seen: Record<string, Schema> = {}
  for (const [key, schema] of Object.entries(schemas)) {
    seen[key] = schemaView(model, schema, view)
    if (seen[key] !== schema) changed = true
  }
  return changed ? seen : schemas
}

const writable = new WeakMap<object, ReadonlySet<string>>()

/**
 * Whether the component schema `refName` needs a write view of its own: when it, or a model it
 * reaches through refs, has a `readOnly` property (left out of a request) or a required
 * `writeOnly` one (optional in the read view, required in the write view). Any other model is
 * the same in both views and keeps its one name. Computed once per model for every schema.
 */
export function needsWriteView(model: ApiModel, refName: string): boolean {
  const schemas = model.components.schemas
  let names = writable.get(schemas)
  if (names === undefined) writable.set(schemas, (names = writeViewNames(model)))
  return names.has(refName)
}

/** The models with a marker of their own, and every model that refers to one, directly or not. */
function writeViewNames(model: ApiModel): ReadonlySet<string> {
  const schemas = model.components.schemas
  const referrers = new Map<string, string[]>()
  const needing: string[] = []
  for (const [refName, schema] of Object.entries(schemas)) {
    const found = { marker: false }
    for (const target of walk(model, schema, found)) {
      const list = referrers.get(target)
      if (list) list.push(refName)
      else referrers.set(target, [refName])
    }
    if (found.marker) needing.push(refName)
  }
  const names = new Set(needing)
  for (let i = 0; i < needing.length; i++) {
    for (const referrer of referrers.get(needing[i]!) ?? []) {
      if (names.has(referrer)) continue
      names.add(referrer)
      needing.push(referrer)
    }
  }
  return names
}

/** The refNames a schema refers to; sets `found.marker` when it has a property the views split. */
function* walk(model: ApiModel, schema: Schema, found: { marker: boolean }): Generator<string> {
  switch (schema.kind) {
    case 'ref':
      yield schema.refName
      return
    case 'object': {
      const required = new Set(schema.required)
      for (const [name, property] of Object.entries(schema.properties)) {
        if (
          marked(model, property, 'readOnly') ||
          (required.has(name) && marked(model, property, 'writeOnly'))
        )
          found.marker = true
        yield* walk(model, property, found)
      }
      if (typeof schema.additionalProperties === 'object')
        yield* walk(model, schema.additionalProperties, found)
      for (const pattern of Object.values(schema.patternProperties ?? {}))
        yield* walk(model, pattern, found)
      return
    }
    case 'array':
      for (const item of schema.prefixItems ?? []) yield* walk(model, item, found)
      yield* walk(model, schema.items, found)
      return
    case 'union':
      for (const member of schema.members) yield* walk(model, member, found)
      return
    default:
      return
  }
}
