import type { ApiModel, HttpOperation } from '../model/index.js'
import { toIdentifierName, type IdentifierCasing } from './render/index.js'
import { needsWriteView, type ModelView } from './views.js'

/**
 * The name each component schema is known by in generated code: its refName, unless another
 * schema's refName gives the same identifier (`pet.owner`, `Pet Owner`, `petOwner` all give
 * `PetOwner`). Then one of them keeps its refName and each other gets `<refName> <n>`, the
 * smallest counter from 2 whose identifier is no other schema's:
 *
 * - the one that keeps it is the schema whose refName is already that identifier in PascalCase
 *   (`PetOwner` stays `PetOwner` wherever it is in the document), or else the first in document
 *   order;
 * - identifiers are compared ignoring case, so the names differ in camelCase too (`gen-zod`'s
 *   `petOwnerSchema`), and on case-insensitive file systems;
 * - every refName's own identifier is taken before any counter is given, so a counter never takes
 *   the name another schema has by itself (`PetOwner2` in the document stays `PetOwner2`).
 *
 * The result depends only on the refNames and their order: the same document always gives the
 * same names, and a schema that collides with nothing renames nobody.
 */
export function distinctModelNames(refNames: readonly string[]): ReadonlyMap<string, string> {
  const names = distinctNames(refNames, 'pascal')
  return new Map(refNames.map((refName, index) => [refName, names[index]!]))
}

/**
 * The texts, in order, each made distinct from the others as {@link distinctModelNames} does:
 * where several give the same identifier (ignoring case), the one that already is that identifier
 * in `casing` (else the first) keeps its text and each other gets ` <n>` appended. Equal texts are
 * told apart the same way, by their order.
 */
export function distinctNames(texts: readonly string[], casing: IdentifierCasing): string[] {
  const groups = new Map<string, number[]>()
  texts.forEach((text, index) => {
    const key = keyOf(text)
    const group = groups.get(key)
    if (group) group.push(index)
    else groups.set(key, [index])
  })
  const names = [...texts]
  const taken = new Set(groups.keys())
  for (const group of groups.values()) {
    const keeper = group.find((index) => toIdentifierName(texts[index]!, casing) === texts[index])
    const rest = keeper === undefined ? group.slice(1) : group.filter((index) => index !== keeper)
    for (const index of rest) {
      let counter = 2
      while (taken.has(keyOf(`${texts[index]} ${counter}`))) counter++
      taken.add(keyOf(`${texts[index]} ${counter}`))
      names[index] = `${texts[index]} ${counter}`
    }
  }
  return names
}

/**
 * The names of the write views of the `writable` models, given every model's name: `<name>
 * Writable` (`AccountWritable`, `accountWritableSchema`), or `<name> Writable <n>` with the
 * smallest counter from 2 whose identifier is neither a model's nor another view's (a schema of
 * the document already called `AccountWritable` keeps its name). Identifiers are compared ignoring
 * case, as for models, and the result depends only on the names and their order.
 */
export function distinctWriteViewNames(
  names: ReadonlyMap<string, string>,
  writable: readonly string[],
): ReadonlyMap<string, string> {
  const taken = new Set([...names.values()].map(keyOf))
  const views = new Map<string, string>()
  for (const refName of writable) {
    const base = `${names.get(refName) ?? refName} Writable`
    let name = base
    for (let counter = 2; taken.has(keyOf(name)); counter++) name = `${base} ${counter}`
    taken.add(keyOf(name))
    views.set(refName, name)
  }
  return views
}

function keyOf(text: string): string {
  return toIdentifierName(text, 'pascal').toLowerCase()
}

const cache = new WeakMap<object, ReadonlyMap<string, string>>()
const writeCache = new WeakMap<object, ReadonlyMap<string, string>>()

/** {@link distinctModelNames} of the model's component schemas, in document order, made once per model. */
export function modelNames(model: ApiModel): ReadonlyMap<string, string> {
  const schemas = model.components.schemas
  let names = cache.get(schemas)
  if (names === undefined) cache.set(schemas, (names = distinctModelNames(Object.keys(schemas))))
  return names
}

/**
 * The name a model goes by in a view: its {@link modelNames} name in the read view (the main
 * model), its {@link distinctWriteViewNames} name in the write view of a model that needs one.
 */
export function viewName(model: ApiModel, refName: string, view: ModelView): string {
  const name = modelNames(model).get(refName) ?? refName
  if (view === 'read' || !needsWriteView(model, refName)) return name
  return writeViewNames(model).get(refName) ?? `${name} Writable`
}

/** {@link distinctWriteViewNames} of the models that need a write view, made once per model. */
function writeViewNames(model: ApiModel): ReadonlyMap<string, string> {
  const schemas = model.components.schemas
  let views = writeCache.get(schemas)
  if (views === undefined) {
    const writable = Object.keys(schemas).filter((key) => needsWriteView(model, key))
    writeCache.set(schemas, (views = distinctWriteViewNames(modelNames(model), writable)))
  }
  return views
}

/**
 * Names for definitions a generator makes beside the models (`CreatePetBody`,
 * `CreatePetResponse404`), one for each request, in the order given: the request itself when its
 * identifier is no model's, no write view's and no earlier request's, else the request with the smallest counter
 * from 2 (`CreatePetBody 2`) that is free. Identifiers are compared ignoring case, as model names
 * are, so the names differ in either casing. The same model and requests always give the same
 * names, and a request that collides with nothing is never renamed.
 */
export function claimNames(model: ApiModel, requests: readonly string[]): readonly string[] {
  const models = [...modelNames(model).values(), ...writeViewNames(model).values()]
  const taken = new Set(models.map(keyOf))
  return requests.map((request) => {
    let name = request
    for (let counter = 2; taken.has(keyOf(name)); counter++) name = `${request} ${counter}`
    taken.add(keyOf(name))
    return name
  })
}

const operationCache = new WeakMap<object, ReadonlyMap<HttpOperation, string>>()

/**
 * The name each operation of the model is known by in generated code: its operationId, or
 * `<method> <path>` when it has none, made distinct as model names are ({@link distinctNames}, in
 * camelCase: `get-pet` and `getPet` give `getPet`, which the one written `getPet` keeps, and
 * `get-pet 2`, `getPet2`, for the other), in document order; made once per model.
 */
export function modelOperationNames(model: ApiModel): ReadonlyMap<HttpOperation, string> {
  if (model.protocol !== 'oas') return new Map()
  const operations = model.operations
  let names = operationCache.get(operations)
  if (names === undefined) {
    const texts = operations.map((op) => op.operationId ?? `${op.method} ${op.path}`)
    const distinct = distinctNames(texts, 'camel')
    names = new Map(operations.map((operation, index) => [operation, distinct[index]!]))
    operationCache.set(operations, names)
  }
  return names
}
