/**
 * Where a place in a converted document (OpenAPI 3.0) was in the Swagger 2.0 source, as far as
 * the conversion keeps it: components move back under `definitions`, `parameters`, `responses`
 * and `securityDefinitions`, a response's `content/<type>/schema` back to its `schema`. Places
 * with no exact counterpart (request bodies made from body parameters) map to their operation.
 */
export function swaggerPath(path: readonly string[]): readonly string[] {
  const [first, second, third, fourth, ...rest] = path
  if (first === 'components' && third !== undefined) {
    const tail = fourth === undefined ? [] : [fourth, ...rest]
    switch (second) {
      case 'schemas':
        return ['definitions', third, ...tail]
      case 'parameters':
      case 'requestBodies':
        return ['parameters', third]
      case 'responses':
        return ['responses', third, ...responseTail(tail)]
      case 'securitySchemes':
        return ['securityDefinitions', third, ...tail]
      default:
        return []
    }
  }
  if (first === 'paths' && second !== undefined && third !== undefined) {
    if (fourth === 'responses' && rest[0] !== undefined)
      return ['paths', second, third, 'responses', rest[0], ...responseTail(rest.slice(1))]
    return ['paths', second, third]
  }
  return path
}

function responseTail(tail: readonly string[]): readonly string[] {
  return tail[0] === 'content' && tail[2] === 'schema' ? ['schema', ...tail.slice(3)] : []
}
