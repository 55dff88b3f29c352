import type { ApiModel, HttpOperation, Parameter, ParameterLocation } from '@svc/engine'
import { propertyKey } from '@svc/engine/generate'
import { printType, type NameModel } from '@svc/gen-typescript'
import { printMembers, type ArgumentMember } from './arguments.js'
import { resolveParameter } from './components.js'
import { mediaKind } from './media-types.js'
import { quote } from './quote.js'

/** The argument members of an operation's parameters, and how the runtime serializes them. */
export type PrintedParameters = {
  readonly members: readonly ArgumentMember[]
  /** The `styles` of the runtime's operation descriptor; undefined when all are the default. */
  readonly styles?: string
}

const GROUPS: readonly [ParameterLocation, string][] = [
  ['path', 'path'],
  ['query', 'query'],
  ['header', 'headers'],
  ['cookie', 'cookies'],
]

/** OpenAPI ignores header parameters with these names: the request's body and security set them. */
const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization'])

export function printParameters(
  model: ApiModel,
  operation: HttpOperation,
  nameModel: NameModel,
): PrintedParameters {
  const byLocation = new Map<ParameterLocation, Map<string, Parameter>>()
  for (const entry of operation.parameters) {
    const parameter = resolveParameter(model, entry)
    if (parameter.in === 'header' && IGNORED_HEADERS.has(parameter.name.toLowerCase())) continue
    const group = byLocation.get(parameter.in) ?? new Map<string, Parameter>()
    byLocation.set(parameter.in, group.set(parameter.name, parameter))
  }
  const members: ArgumentMember[] = []
  const styles: string[] = []
  for (const [location, key] of GROUPS) {
    const parameters = [...(byLocation.get(location)?.values() ?? [])]
    if (parameters.length === 0) continue
    const properties = parameters.map((parameter) => ({
      key: propertyKey(parameter.name),
      type: printType(parameter.schema, nameModel),
      // A path cannot leave a placeholder out, whatever the description says.
      required: parameter.required || parameter.in === 'path',
    }))
    members.push({
      key,
      type: printMembers(properties),
      required: properties.some((property) => property.required),
      members: properties,
    })
    const nonDefault = parameters.flatMap((parameter) => {
      const style = printStyle(parameter)
      return style === undefined ? [] : [`${propertyKey(parameter.name)}: ${style}`]
    })
    if (nonDefault.length > 0) styles.push(`${location}: { ${nonDefault.join(', ')} }`)
  }
  return { members, ...(styles.length > 0 && { styles: `{ ${styles.join(', ')} }` }) }
}

/** What differs from the default serialization of the parameter's location, if anything. */
function printStyle(parameter: Parameter): string | undefined {
  const form = parameter.in === 'query' || parameter.in === 'cookie'
  const style = parameter.style ?? (form ? 'form' : 'simple')
  const fields: string[] = []
  if (style !== (form ? 'form' : 'simple')) fields.push(`style: ${quote(style)}`)
  if (parameter.explode !== undefined && parameter.explode !== (style === 'form'))
    fields.push(`explode: ${parameter.explode}`)
  if (parameter.mediaType !== undefined && mediaKind(parameter.mediaType) === 'json')
    fields.push('json: true')
  return fields.length > 0 ? `{ ${fields.join(', ')} }` : undefined
}
