/** Joins the segments of a readable path. */
export const PATH_SEPARATOR = ' › '

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'])

/** The media type a body is taken to be when its path does not name one. */
const DEFAULT_MEDIA_TYPE = 'application/json'

/**
 * Where a change applies, for a reader: an OpenAPI JSON pointer spelled as the endpoint, the part
 * of it and the property path (`GET /pets/{petId} › response 200 › body.owner.email`); a GraphQL
 * schema coordinate, which reads well already, as it is.
 *
 * @example
 * readablePath('/paths/~1pets/get/parameters/query/limit') // 'GET /pets › query parameter limit'
 */
export function readablePath(location: string): string {
  return readableSegments(location).join(PATH_SEPARATOR)
}

/**
 * The segments of {@link readablePath}: for an OpenAPI pointer the first names the endpoint
 * (`GET /pets`, `webhook petCreated (POST)`) or the document's part (`components`, `servers`);
 * none for the whole document.
 */
export function readableSegments(location: string): string[] {
  if (location === '') return []
  if (!location.startsWith('/')) return [location]
  const tokens = location
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'))
  const [root, name, method] = tokens
  if ((root === 'paths' || root === 'webhooks') && name !== undefined) {
    if (method !== undefined && METHODS.has(method)) {
      const label =
        root === 'paths'
          ? `${method.toUpperCase()} ${name}`
          : `webhook ${name} (${method.toUpperCase()})`
      return [label, ...operationPart(tokens.slice(3))]
    }
    return [root === 'paths' ? name : `webhook ${name}`, ...operationPart(tokens.slice(2))]
  }
  if (root === 'components' && name !== undefined && method !== undefined)
    return ['components', name, method, ...componentPart(name, tokens.slice(3))]
  return tokens
}

function componentPart(bucket: string, rest: readonly string[]): string[] {
  switch (bucket) {
    case 'schemas':
      return schemaPart(rest, '')
    case 'parameters':
    case 'headers':
      return valuePart(rest)
    case 'requestBodies':
      return bodyPart(rest)
    case 'responses':
      return responsePart(rest)
    default:
      return [...rest]
  }
}

/** What follows an operation's pointer: its parameters, request body, responses … */
function operationPart(rest: readonly string[]): string[] {
  const [part, first, second] = rest
  if (part === 'parameters' && first !== undefined && second !== undefined)
    return [`${first} parameter ${second}`, ...valuePart(rest.slice(3))]
  if (part === 'requestBody') return ['request body', ...bodyPart(rest.slice(1))]
  if (part === 'responses' && first !== undefined)
    return [`response ${first}`, ...responsePart(rest.slice(2))]
  return [...rest]
}

function responsePart(rest: readonly string[]): string[] {
  const [part, name] = rest
  if (part === 'headers' && name !== undefined)
    return [`header ${name}`, ...valuePart(rest.slice(2))]
  return bodyPart(rest)
}

/** A parameter's or header's value: its schema, with no prefix (the segment before names it). */
function valuePart(rest: readonly string[]): string[] {
  if (rest[0] === 'schema') return schemaPart(rest.slice(1), '')
  if (rest[0] === 'content' && rest[1] !== undefined && rest[2] === 'schema')
    return [...mediaType(rest[1]), ...schemaPart(rest.slice(3), '')]
  return [...rest]
}

/** A request or response body: its media types, their schemas as `body…`. */
function bodyPart(rest: readonly string[]): string[] {
  const [part, type, schema] = rest
  if (part !== 'content' || type === undefined) return [...rest]
  if (schema === 'schema') return [...mediaType(type), ...schemaPart(rest.slice(3), 'body')]
  return [type, ...rest.slice(2)]
}

/** JSON is what a body is taken to be; any other media type is named. */
function mediaType(type: string): string[] {
  return type.toLowerCase() === DEFAULT_MEDIA_TYPE ? [] : [type]
}

/**
 * A schema's inner place as a property path: `owner.email`, `tags[]` (an item), `labels{}` (a
 * value of a map), `[0]` (a tuple position), `[oneOf 1]` (an alternative); `allOf` members and
 * conditional branches add to the object they are in, so they are not named. Whatever follows
 * that is not a schema (a keyword: `description`, `discriminator` …) is a segment of its own.
 */
function schemaPart(rest: readonly string[], prefix: string): string[] {
  let path = prefix
  let index = 0
  while (index < rest.length) {
    const [token, next] = [rest[index]!, rest[index + 1]]
    const step = schemaStep(token, next, path)
    if (step === undefined) break
    path = step.path
    index += step.tokens
  }
  return [...(path === '' ? [] : [path]), ...rest.slice(index)]
}

function schemaStep(
  token: string,
  next: string | undefined,
  path: string,
): { path: string; tokens: number } | undefined {
  switch (token) {
    case 'properties':
      return next === undefined ? undefined : { path: property(path, next), tokens: 2 }
    case 'items':
    case 'unevaluatedItems':
      return { path: `${path}[]`, tokens: 1 }
    case 'additionalProperties':
    case 'unevaluatedProperties':
      return { path: `${path}{}`, tokens: 1 }
    case 'prefixItems':
      return next === undefined ? undefined : { path: `${path}[${next}]`, tokens: 2 }
    case 'patternProperties':
      return next === undefined ? undefined : { path: `${path}{/${next}/}`, tokens: 2 }
    case 'contains':
    case 'not':
      return { path: `${path}[${token}]`, tokens: 1 }
    case 'oneOf':
    case 'anyOf':
      return next === undefined ? undefined : { path: `${path}[${token} ${next}]`, tokens: 2 }
    case 'allOf':
    case 'dependentSchemas':
      return next === undefined ? undefined : { path, tokens: 2 }
    case 'then':
    case 'else':
    case 'propertyNames':
    case 'contentSchema':
      return { path, tokens: 1 }
    default:
      return undefined
  }
}

/** `owner.email`; a name that is not an identifier is quoted: `meta["x.y"]`. */
function property(path: string, name: string): string {
  if (!/^[\p{L}\p{N}_$-]+$/u.test(name)) return `${path}[${JSON.stringify(name)}]`
  return path === '' ? name : `${path}.${name}`
}
