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

/** What the views need to know of a model's component schemas, found in one pass. */
type ViewFacts = {
  /** The schemas with a `readOnly` or `writeOnly` property of their own (not through refs). */
  readonly marked: ReadonlySet<string>
  /** The schemas that need a write view. */
  readonly writable: ReadonlySet<string>
}

const facts = new WeakMap<object, ViewFacts>()

function factsOf(model: ApiModel): ViewFacts {
  const schemas = model.components.schemas
  let known = facts.get(schemas)
  if (known === undefined) facts.set(schemas, (known = findFacts(model)))
  return known
}

/**
 * Whether the component schema `refName` needs a write view of its own: when it, or a model it
 * reaches through refs, has a `readOnly` property (left out of a request) or a required
 * `writeOnly` one (optional in the read view, required in the write view). Any other model is
 * the same in both views and keeps its one name. Computed once per model for every schema.
 */
export function needsWriteView(model: ApiModel, refName: string): boolean {
  return factsOf(model).writable.has(refName)
}

/**
 * {@link schemaView} of the component schema `refName`; a schema without a `readOnly` or
 * `writeOnly` property of its own is the same in both views and is not walked again.
 */
export function modelView(model: ApiModel, refName: string, view: ModelView): Schema {
  const schema = model.components.schemas[refName]!
  return factsOf(model).marked.has(refName) ? schemaView(model, schema, view) : schema
}

/** The models with a marker of their own, and every model that refers to one, directly or not. */
function findFacts(model: ApiModel): ViewFacts {
  const schemas = model.components.schemas
  const referrers = new Map<string, string[]>()
  const marked = new Set<string>()
  const needing: string[] = []
  for (const [refName, schema] of Object.entries(schemas)) {
    const found: Found = { marker: false, splits: false }
    walk(model, schema, found, (target) => {
      const list = referrers.get(target)
      if (list) list.push(refName)
      else referrers.set(target, [refName])
    })
    if (found.marker) marked.add(refName)
    if (found.splits) needing.push(refName)
  }
  const writable = new Set(needing)
  for (let i = 0; i < needing.length; i++) {
    for (const referrer of referrers.get(needing[i]!) ?? []) {
      if (writable.has(referrer)) continue
      writable.add(referrer)
      needing.push(referrer)
    }
  }
  return { marked, writable }
}

/** `marker`: a property is `readOnly` or `writeOnly`; `splits`: the views differ because of one. */
type Found = { marker: boolean; splits: boolean }

/** Calls `ref` for each refName the schema refers to, and records what markers it has. */
function walk(model: ApiModel, schema: Schema, found: Found, ref: (refName: string) => void) {
  switch (schema.kind) {
    case 'ref':
      ref(schema.refName)
      return
    case 'object': {
      for (const name in schema.properties) {
        const property = schema.properties[name]!
        const readOnly = marked(model, property, 'readOnly')
        const writeOnly = marked(model, property, 'writeOnly')
        if (readOnly || writeOnly) found.marker = true
        if (readOnly || (writeOnly && schema.required.includes(name))) found.splits = true
        walk(model, property, found, ref)
      }
      if (typeof schema.additionalProperties === 'object')
        walk(model, schema.additionalProperties, found, ref)
      for (const name in schema.patternProperties)
        walk(model, schema.patternProperties[name]!, found, ref)
      return
    }
    case 'array':
      for (const item of schema.prefixItems ?? []) walk(model, item, found, ref)
      walk(model, schema.items, found, ref)
      return
    case 'union':
      for (const member of schema.members) walk(model, member, found, ref)
      return
    default:
      return
  }
}
