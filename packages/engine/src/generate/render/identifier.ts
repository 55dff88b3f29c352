/** `type` for declarations erased at runtime (`type`, `interface`); `value` for `const`, `function`, `class`. */
export type IdentifierKind = 'type' | 'value'

/** The name of one exported declaration, checked to be safe to write into a generated ES module. */
export interface Identifier {
  readonly name: string
  readonly kind: IdentifierKind
}

/** Reserved words of ECMAScript modules, which are always strict mode code. */
const RESERVED_WORDS = new Set([
  ...['break', 'case', 'catch', 'class', 'const', 'continue', 'debugger', 'default', 'delete'],
  ...['do', 'else', 'enum', 'export', 'extends', 'false', 'finally', 'for', 'function', 'if'],
  ...['import', 'in', 'instanceof', 'new', 'null', 'return', 'super', 'switch', 'this', 'throw'],
  ...['true', 'try', 'typeof', 'var', 'void', 'while', 'with'],
  // Strict mode only.
  ...['implements', 'interface', 'let', 'package', 'private', 'protected', 'public', 'static'],
  ...['yield'],
  // Module code only.
  'await',
])

/** Not reserved, but strict mode code may not declare a binding with these names. */
const STRICT_MODE_RESTRICTED = new Set(['arguments', 'eval'])

/**
 * The value properties of the global object. Declaring one is legal but silently changes the
 * meaning of every other definition in the file that uses it (`x === undefined`).
 */
const GLOBAL_VALUES = new Set(['globalThis', 'Infinity', 'NaN', 'undefined'])

/** TypeScript rejects these as type alias and interface names (TS2457). */
const PREDEFINED_TYPES = new Set([
  ...['any', 'bigint', 'boolean', 'never', 'number', 'object', 'string', 'symbol', 'undefined'],
  'unknown',
])

const IDENTIFIER_PATTERN = /^[A-Za-z_$][A-Za-z0-9_$]*$/

/**
 * Why `name` cannot name a declaration of `kind`, or `undefined` when it can.
 *
 * Contextual keywords (`type`, `of`, `from`, `async`, `declare`, …) are allowed: TypeScript
 * accepts them as binding names, and API models use several of them as schema names.
 */
export function identifierProblem(name: string, kind: IdentifierKind): string | undefined {
  if (name === '') return 'must not be empty'
  if (!IDENTIFIER_PATTERN.test(name)) {
    if (/^[0-9]/.test(name)) return 'must not start with a digit'
    const bad = [...name].find((char) => !/[A-Za-z0-9_$]/.test(char)) ?? ''
    const codePoint = `U+${(bad.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`
    return `contains '${bad}' (${codePoint}); only ASCII letters, digits, '_' and '$' are allowed`
  }
  if (RESERVED_WORDS.has(name)) return 'is a reserved word'
  if (STRICT_MODE_RESTRICTED.has(name)) return 'cannot be declared in strict mode code'
  if (GLOBAL_VALUES.has(name)) return 'would shadow a global value'
  if (kind === 'type' && PREDEFINED_TYPES.has(name)) return 'is a predefined type name'
  // `export type as = …` does not parse (TS1005), although `as` is fine everywhere else.
  if (kind === 'type' && name === 'as') return 'cannot name an exported type alias'
  return undefined
}

/**
 * Creates a frozen identifier, throwing when the name would produce broken code, so that the
 * generator item that asked for it fails instead of writing an unparsable file.
 *
 * @example
 * ```ts
 * createIdentifier('Pet', 'type') // { name: 'Pet', kind: 'type' }
 * createIdentifier('2fa', 'value') // throws Invalid identifier '2fa': must not start with a digit
 * ```
 */
export function createIdentifier(name: string, kind: IdentifierKind): Identifier {
  const problem = identifierProblem(name, kind)
  if (problem !== undefined) throw new Error(`Invalid identifier '${name}': ${problem}`)
  return Object.freeze({ name, kind })
}
