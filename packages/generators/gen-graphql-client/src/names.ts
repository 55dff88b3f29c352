/** Words that cannot name an exported type alias in a strict ES module, though GraphQL allows them. */
const NOT_A_TYPE_NAME = new Set([
  ...['break', 'case', 'catch', 'class', 'const', 'continue', 'debugger', 'default', 'delete'],
  ...['do', 'else', 'enum', 'export', 'extends', 'false', 'finally', 'for', 'function', 'if'],
  ...['import', 'in', 'instanceof', 'new', 'null', 'return', 'super', 'switch', 'this', 'throw'],
  ...['true', 'try', 'typeof', 'var', 'void', 'while', 'with', 'implements', 'interface', 'let'],
  ...['package', 'private', 'protected', 'public', 'static', 'yield', 'await', 'arguments'],
  ...['eval', 'globalThis', 'Infinity', 'NaN', 'undefined', 'any', 'bigint', 'boolean', 'never'],
  ...['number', 'object', 'string', 'symbol', 'unknown', 'as'],
])

/** The names of the shared runtime, which a schema type must not take. */
export const RUNTIME_NAMES: ReadonlySet<string> = new Set([
  'GraphqlClientOptions',
  'GraphqlDocument',
  'GraphqlError',
  'GraphqlErrorEntry',
  'GraphqlFetch',
  'request',
])

/**
 * The TypeScript name of an enum or input object type: its GraphQL name, which is already an
 * ASCII identifier and unique among the schema's types. A name TypeScript refuses, or one the
 * runtime holds, gets a `$`, which no GraphQL name contains, so it cannot meet another type.
 */
export function schemaTypeName(graphqlName: string): string {
  return NOT_A_TYPE_NAME.has(graphqlName) || RUNTIME_NAMES.has(graphqlName)
    ? `${graphqlName}$`
    : graphqlName
}

/** `queryViewer` → `QueryViewer`: the stem of an item's type names. */
export function pascalStem(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1)
}

/** A GraphQL operation name for an item: identifiers may hold `$`, GraphQL names may not. */
export function operationName(name: string): string {
  return pascalStem(name).replace(/\$/g, '_')
}

/** A JSDoc block for a description, or '' when there is nothing to say. */
export function docComment(lines: readonly string[]): string {
  const text = lines
    .flatMap((line) => line.split(/\r\n|\r|\n/))
    .map((line) => line.replace(/\*\//g, '*\\/').trimEnd())
  while (text.length > 0 && text[text.length - 1] === '') text.pop()
  while (text.length > 0 && text[0] === '') text.shift()
  if (text.length === 0) return ''
  if (text.length === 1) return `/** ${text[0]} */\n`
  return `/**\n${text.map((line) => (line === '' ? ' *' : ` * ${line}`)).join('\n')}\n */\n`
}
