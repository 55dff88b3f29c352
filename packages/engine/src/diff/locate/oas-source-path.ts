import { getAtPointer, parseLocalRef } from '../../refs/pointer.js'

/** Where a parameter can be (`in`): the segment after `parameters` in a diff location. */
const PARAMETER_PLACES: ReadonlySet<string> = new Set([
  'query',
  'header',
  'path',
  'cookie',
  'body',
  'formData',
])

/** A path in the document as written, and whether every segment of the location was mapped. */
export type SourcePath = { readonly path: readonly string[]; readonly complete: boolean }

/** `/paths/~1pets/get` → `['paths', '/pets', 'get']`; `''` is the document. */
export function pointerSegments(pointer: string): string[] {
  if (pointer === '' || !pointer.startsWith('/')) return []
  return pointer
    .slice(1)
    .split('/')
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
}

/**
 * The path in the source document of a place a diff names. Diff locations address parameters by
 * location and name (`…/get/parameters/query/limit`); the source has them in an array, of the
 * operation or of its path item, maybe as a `$ref`: they become `…/parameters/<index>`. A Swagger
 * 2.0 source (`swagger`) is first mapped from OpenAPI 3 terms: `components/schemas` →
 * `definitions`, a request body → its body (or form) parameter, a response's
 * `content/<type>/schema` → its `schema`.
 */
export function sourcePath(
  segments: readonly string[],
  document: unknown,
  swagger: boolean,
): SourcePath {
  const mapped = swagger ? swaggerSegments(segments, document) : { path: segments, complete: true }
  const resolved = resolveParameters(mapped.path, document)
  return { path: resolved.path, complete: mapped.complete && resolved.complete }
}

function resolveParameters(segments: readonly string[], document: unknown): SourcePath {
  let path: string[] = []
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!
    const place = segments[i + 1]
    const name = segments[i + 2]
    if (
      segment === 'parameters' &&
      place !== undefined &&
      name !== undefined &&
      PARAMETER_PLACES.has(place) &&
      path.length === 3 &&
      (path[0] === 'paths' || path[0] === 'webhooks')
    ) {
      const found = findParameter(document, path, place, name)
      if (!found) return { path, complete: false }
      i += 2
      // Below a `$ref`'d parameter (its schema …), the rest is in the component.
      const ref = field(found.node, '$ref')
      const target = typeof ref === 'string' ? parseLocalRef(ref) : undefined
      path = target !== undefined && i + 1 < segments.length ? target : found.path
      continue
    }
    path.push(segment)
  }
  return { path, complete: true }
}

/**
 * The parameter `in: place, name` of the operation at `operationPath`, in its own `parameters`
 * or else its path item's; a `$ref`'d one is followed when more of the location is below it.
 */
function findParameter(
  document: unknown,
  operationPath: readonly string[],
  place: string,
  name: string,
): { path: string[]; node: unknown } | undefined {
  const owners = [operationPath, operationPath.slice(0, -1)]
  for (const owner of owners) {
    const list = field(getAtPointer(document, owner), 'parameters')
    if (!Array.isArray(list)) continue
    for (let index = 0; index < list.length; index++) {
      const raw: unknown = list[index]
      const value = resolve(document, raw)
      if (field(value, 'in') !== place) continue
      const actual = field(value, 'name')
      if (typeof actual !== 'string') continue
      const same =
        place === 'header' ? actual.toLowerCase() === name.toLowerCase() : actual === name
      if (!same) continue
      return { path: [...owner, 'parameters', String(index)], node: raw }
    }
  }
  return undefined
}

/**
 * OpenAPI 3 terms back to Swagger 2.0 ones, as far as the conversion keeps a counterpart; what
 * has none stops at the nearest place that does (`complete: false`).
 */
function swaggerSegments(segments: readonly string[], document: unknown): SourcePath {
  const [first, second, third, ...rest] = segments
  if (first === 'components' && second !== undefined && third !== undefined) {
    switch (second) {
      case 'schemas':
        return { path: ['definitions', third, ...rest], complete: true }
      case 'parameters':
        return { path: ['parameters', third, ...rest], complete: true }
      case 'requestBodies':
        return bodyTail(['parameters', third], rest)
      case 'responses':
        return responseTail(['responses', third], rest)
      case 'securitySchemes':
        return { path: ['securityDefinitions', third, ...rest], complete: true }
      default:
        return { path: [], complete: false }
    }
  }
  if (first === 'servers') return { path: ['host'], complete: false }
  if (first !== 'paths' || second === undefined || third === undefined)
    return { path: segments, complete: true }
  const operation = ['paths', second, third]
  const [member, ...tail] = rest
  if (member === 'responses' && tail[0] !== undefined)
    return responseTail([...operation, 'responses', tail[0]], tail.slice(1))
  if (member !== 'requestBody') return { path: segments, complete: true }
  return requestBody(document, operation, tail)
}

/** A request body was a `body` parameter, or the `formData` parameters (one per property). */
function requestBody(
  document: unknown,
  operation: readonly string[],
  tail: readonly string[],
): SourcePath {
  const parameters = [operation, operation.slice(0, -1)].flatMap((owner) => {
    const list = field(getAtPointer(document, owner), 'parameters')
    return Array.isArray(list)
      ? list.map((value: unknown, index) => ({ owner, index, value: resolve(document, value) }))
      : []
  })
  const at = (entry: { owner: readonly string[]; index: number }) => [
    ...entry.owner,
    'parameters',
    String(entry.index),
  ]
  const body = parameters.find((entry) => field(entry.value, 'in') === 'body')
  if (body) return bodyTail(at(body), tail)
  const form = parameters.filter((entry) => field(entry.value, 'in') === 'formData')
  // `content/<type>/schema/properties/<name>`: the form parameter of that name.
  const property = tail[3] === 'properties' ? tail[4] : undefined
  const named = form.find((entry) => field(entry.value, 'name') === property)
  if (named) return { path: at(named), complete: tail.length <= 5 }
  if (form[0] && tail.length === 0) return { path: at(form[0]), complete: true }
  return { path: [...operation], complete: false }
}

/** `content/<type>/schema/…` below a body → the body parameter's `schema/…`. */
function bodyTail(base: readonly string[], tail: readonly string[]): SourcePath {
  if (tail.length === 0) return { path: base, complete: true }
  if (tail[0] === 'content' && tail[2] === 'schema')
    return { path: [...base, 'schema', ...tail.slice(3)], complete: true }
  return { path: base, complete: tail[0] === 'description' || tail[0] === 'required' }
}

/** A response's `content/<type>/schema/…` → its `schema/…`; headers and description stay. */
function responseTail(base: readonly string[], tail: readonly string[]): SourcePath {
  if (tail.length === 0 || tail[0] === 'headers' || tail[0] === 'description')
    return { path: [...base, ...tail], complete: true }
  if (tail[0] === 'content' && tail[2] === 'schema')
    return { path: [...base, 'schema', ...tail.slice(3)], complete: true }
  if (tail[0] === 'content' && tail.length === 2) return { path: [...base], complete: true }
  return { path: [...base], complete: false }
}

/** A local `$ref`'s target; anything else as it is. */
function resolve(document: unknown, value: unknown): unknown {
  const ref = field(value, '$ref')
  const target = typeof ref === 'string' ? parseLocalRef(ref) : undefined
  return target ? getAtPointer(document, target) : value
}

function field(node: unknown, key: string): unknown {
  return getAtPointer(node, [key])
}
