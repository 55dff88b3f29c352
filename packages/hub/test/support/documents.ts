/** Small API descriptions to push, built from a list of operations such as `get /pets`. */

type Operations = readonly string[]

/** An OpenAPI 3.0 document with one operation per entry of `operations`, as a JSON value. */
export function oasDocument(operations: Operations, title = 'Pets'): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const entry of operations) {
    const [method = '', path = ''] = entry.split(' ')
    paths[path] ??= {}
    paths[path][method] = {
      operationId: operationId(method, path),
      responses: { '200': { description: 'ok' } },
    }
  }
  return { openapi: '3.0.3', info: { title, version: '1.0.0' }, paths }
}

export function oasJson(operations: Operations, title = 'Pets'): string {
  return `${JSON.stringify(oasDocument(operations, title), null, 2)}\n`
}

/** The same document as {@link oasDocument}, written as YAML by hand. */
export function oasYaml(operations: Operations, title = 'Pets'): string {
  const lines = ['openapi: 3.0.3', 'info:', `  title: ${title}`, '  version: 1.0.0', 'paths:']
  const byPath = new Map<string, string[]>()
  for (const entry of operations) {
    const [method = '', path = ''] = entry.split(' ')
    byPath.set(path, [...(byPath.get(path) ?? []), method])
  }
  if (byPath.size === 0) lines[lines.length - 1] = 'paths: {}'
  for (const [path, methods] of byPath) {
    lines.push(`  ${path}:`)
    for (const method of methods) {
      lines.push(
        `    ${method}:`,
        `      operationId: ${operationId(method, path)}`,
        '      responses:',
        "        '200':",
        '          description: ok',
      )
    }
  }
  return `${lines.join('\n')}\n`
}

/** GraphQL SDL with one Query field per name. */
export function graphqlSdl(fields: readonly string[]): string {
  return [
    'type Pet {',
    '  id: ID!',
    '  name: String',
    '}',
    '',
    'type Query {',
    ...fields.map((field) => `  ${field}: [Pet]`),
    '}',
    '',
  ].join('\n')
}

function operationId(method: string, path: string): string {
  return `${method}${path.replace(/[^A-Za-z0-9]+/g, '_')}`
}

/**
 * An OpenAPI document with an operation that does not parse (an error), a property with an
 * invalid example and an array without items (warnings), `strings` properties with a string
 * format and no type (warnings), in a schema without a type (debug).
 */
export function oasWithIssues(strings: number): string {
  return [
    'openapi: 3.0.3',
    "info: {title: t, version: '1'}",
    'paths:',
    '  /pets:',
    '    post:',
    '      responses: null',
    'components:',
    '  schemas:',
    '    Loose:',
    '      properties:',
    '        a: {type: string, example: 5}',
    '        c: {type: array}',
    ...Array.from({ length: strings }, (_, i) => `        s${i}: {format: email}`),
    '',
  ].join('\n')
}

/** A `get` operation per path, each answering a Pet with the given properties (YAML keys). */
export function petsDocument(properties: string[], operations: string[]): string {
  return [
    'openapi: 3.0.3',
    "info: {title: t, version: '1'}",
    'paths:',
    ...operations.flatMap((operation) => [
      `  ${operation.split(' ')[1]}:`,
      '    get:',
      '      responses:',
      "        '200':",
      '          description: ok',
      '          content:',
      '            application/json:',
      "              schema: {$ref: '#/components/schemas/Pet'}",
    ]),
    'components:',
    '  schemas:',
    '    Pet:',
    '      type: object',
    '      properties:',
    ...properties.map((name) => `        ${name}: {type: string}`),
    '',
  ].join('\n')
}

/**
 * The alias-expansion bomb of issue 36 as YAML: one anchored schema of `properties` properties
 * and `aliases` aliases of it, under the engine's 1,000-alias limit. Each alias expands to
 * 4 × `properties` + 5 nodes: 3,000 × 990 (the default) make ~12 million, 125 KB of text.
 */
export function aliasBomb(properties = 3_000, aliases = 990, title = 'Bomb'): string {
  return [
    'openapi: 3.0.3',
    `info: { title: ${title}, version: "1" }`,
    'paths: {}',
    'components:',
    '  schemas:',
    '    Big: &big',
    '      type: object',
    '      properties:',
    ...Array.from({ length: properties }, (_, i) => `        field_${i}: { type: string }`),
    ...Array.from({ length: aliases }, (_, i) => `    Copy${i}: *big`),
  ].join('\n')
}
