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
