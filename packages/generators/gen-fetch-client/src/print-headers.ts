import { resolveRef, type ApiModel, type Header, type Response, type Schema } from '@svc/engine'
import { propertyKey } from '@svc/engine/generate'
import { printType, type NameModel } from '@svc/gen-typescript'
import { quote } from './quote.js'

/** How the runtime reads a header's text: as it is, as numbers, as booleans, or a list of them. */
type HeaderKind = 'string' | 'number' | 'boolean'

/** A response's documented headers: their type on the result, and how the runtime reads them. */
export type PrintedHeaders = {
  /** `readonly 'X-Rate-Limit'?: number`, …; none without documented headers. */
  readonly members: readonly string[]
  /** `{ 'X-Rate-Limit': 'number' }`; undefined without documented headers. */
  readonly kinds?: string
}

/** OpenAPI ignores a response header of this name: the content's media type says it. */
const IGNORED = 'content-type'

export function printHeaders(
  model: ApiModel,
  response: Response,
  nameModel: NameModel,
): PrintedHeaders {
  const members: string[] = []
  const kinds: string[] = []
  for (const [name, entry] of Object.entries(response.headers)) {
    if (name.toLowerCase() === IGNORED) continue
    const header: Header = entry.kind === 'ref' ? resolveRef(model, entry.$ref, 'headers') : entry
    const [kind, array, type] = typeOf(model, header.schema, nameModel)
    const deprecated = header.deprecated ? '/** @deprecated */ ' : ''
    members.push(`${deprecated}readonly ${propertyKey(name)}${header.required ? '' : '?'}: ${type}`)
    kinds.push(`${propertyKey(name)}: ${quote(array ? `${kind}[]` : kind)}`)
  }
  if (members.length === 0) return { members }
  return { members, kinds: `{ ${kinds.join(', ')} }` }
}

/** A header is text: numbers, booleans and lists of them (the `simple` style) are parsed. */
function typeOf(
  model: ApiModel,
  schema: Schema,
  nameModel: NameModel,
): [kind: HeaderKind, array: boolean, type: string] {
  const resolved = resolve(model, schema)
  if (resolved.kind === 'array') {
    const [kind] = typeOf(model, resolved.items, nameModel)
    return [kind, true, `Array<${kind}>`]
  }
  if (resolved.kind === 'integer' || resolved.kind === 'number') return ['number', false, 'number']
  if (resolved.kind === 'boolean') return ['boolean', false, 'boolean']
  if (resolved.kind === 'string') return ['string', false, printType(schema, nameModel)]
  return ['string', false, 'string']
}

function resolve(model: ApiModel, schema: Schema): Schema {
  return schema.kind === 'ref' && Object.hasOwn(model.components.schemas, schema.refName)
    ? resolveRef(model, schema.$ref, 'schemas')
    : schema
}
