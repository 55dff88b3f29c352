import {
  breakParent,
  conditionalGroup,
  group,
  hardline,
  ifBreak,
  indent,
  join,
  lazy,
  line,
  printDoc,
  softline,
  willBreak,
  type Doc,
} from './layout.js'

/**
 * The JavaScript expressions zod schemas are written with, kept as a tree until printed so that
 * they can be laid out: `z.string().min(1)` is the chain `z` → `.string()` → `.min(1)`.
 */
export type Expression = Chain | Call | ObjectLiteral | ArrayLiteral | Atom

/**
 * Each node carries its one-line text, made as the tree is built (`null` when an object inside
 * must break): most of a file fits, and is then printed without building a layout at all.
 */
type Node = { readonly flat: string | null }

/** A name followed by calls: `z.object({…}).nullable()`, `petSchema.exactOptional()`. */
export type Chain = Node & {
  readonly kind: 'chain'
  readonly root: string
  readonly links: readonly Link[]
}
export type Link = { readonly name: string; readonly args: readonly Expression[] }
/** A call that is not a method call: `new RegExp("…")`. */
export type Call = Node & {
  readonly kind: 'call'
  readonly callee: string
  readonly args: readonly Expression[]
}
export type ObjectLiteral = Node & {
  readonly kind: 'object'
  readonly entries: readonly (readonly [key: string, value: Expression])[]
  /** One entry a line even when they would fit on one: a model's shape, diff-friendly. */
  readonly broken: boolean
}
export type ArrayLiteral = Node & { readonly kind: 'array'; readonly items: readonly Expression[] }
/** Text that is never broken: a literal, an arrow function. */
export type Atom = Node & {
  readonly kind: 'atom'
  readonly text: string
  readonly simple: boolean
}

export function atom(text: string, simple = true): Atom {
  return { kind: 'atom', text, simple, flat: text }
}

/** `root` followed by the calls of `links`: `chain('z.iso', [{ name: '.date', args: [] }])`. */
export function chain(root: string, links: readonly Link[]): Chain {
  let flat: string | null = root
  for (const link of links) {
    const args = flatList(link.args)
    flat = flat === null || args === null ? null : `${flat}${link.name}(${args})`
  }
  return { kind: 'chain', root, links, flat }
}

/** `z.name(args…)`. */
export function z(name: string, ...args: Expression[]): Chain {
  return chain('z', [{ name: `.${name}`, args }])
}

/** A bare name: `petSchema`. */
export function named(name: string): Chain {
  return chain(name, [])
}

/** The expression followed by `.name(args…)`. */
export function withCall(expression: Expression, name: string, ...args: Expression[]): Expression {
  const link = { name: `.${name}`, args }
  if (expression.kind === 'chain') {
    const argsText = flatList(args)
    const flat =
      expression.flat === null || argsText === null
        ? null
        : `${expression.flat}.${name}(${argsText})`
    return { ...expression, links: [...expression.links, link], flat }
  }
  // An identifier, a call or a `new` expression binds tighter than `.`; a literal needs brackets.
  const text = printFlat(expression)
  const bare = expression.kind === 'atom' || expression.kind === 'call'
  return chain(bare ? text : `(${text})`, [link])
}

export function call(callee: string, ...args: Expression[]): Call {
  const argsText = flatList(args)
  return { kind: 'call', callee, args, flat: argsText === null ? null : `${callee}(${argsText})` }
}

export function object(
  entries: readonly (readonly [string, Expression])[],
  broken = false,
): ObjectLiteral {
  let flat: string | null = null
  if (!broken) {
    const texts: string[] = []
    for (const [key, value] of entries) {
      if (value.flat === null) break
      texts.push(`${key}: ${value.flat}`)
    }
    if (texts.length === entries.length)
      flat = texts.length === 0 ? '{}' : `{ ${texts.join(', ')} }`
  }
  return { kind: 'object', entries, broken, flat }
}

export function array(items: readonly Expression[]): ArrayLiteral {
  const itemsText = flatList(items)
  return { kind: 'array', items, flat: itemsText === null ? null : `[${itemsText}]` }
}

function flatList(items: readonly Expression[]): string | null {
  const texts: string[] = []
  for (const item of items) {
    if (item.flat === null) return null
    texts.push(item.flat)
  }
  return texts.join(', ')
}

/** Whether the expression ends in `.name(…)`. */
export function endsWith(expression: Expression, name: string): boolean {
  return expression.kind === 'chain' && expression.links.at(-1)?.name === `.${name}`
}

/** The expression on one line. */
export function printFlat(expression: Expression): string {
  if (expression.flat !== null) return expression.flat
  switch (expression.kind) {
    case 'atom':
      return expression.text
    case 'object': {
      const entries = expression.entries.map(([key, value]) => `${key}: ${printFlat(value)}`)
      return entries.length === 0 ? '{}' : `{ ${entries.join(', ')} }`
    }
    case 'array':
      return `[${expression.items.map(printFlat).join(', ')}]`
    case 'call':
      return `${expression.callee}(${expression.args.map(printFlat).join(', ')})`
    case 'chain':
      return expression.links.reduce(
        (text, link) => `${text}${link.name}(${link.args.map(printFlat).join(', ')})`,
        expression.root,
      )
  }
}

/**
 * The expression after `prefix` (`export const petSchema = `), laid out to `width` columns as
 * prettier would print it. `pure` builds it in an arrow function called at once and marked
 * `/* @__PURE__ *\/`, which prettier breaks after the `=>` when the whole does not fit.
 */
export function printLaidOut(
  prefix: string,
  expression: Expression,
  width: number,
  pure = false,
): string {
  const doc = toDoc(expression)
  const wrapped = pure ? group([PURE_OPEN, indent([line, doc]), ')()']) : doc
  return prefix + printDoc(wrapped, width, prefix.length)
}

const PURE_OPEN = '/* @__PURE__ */ (() =>'

/** The document of an expression; one that cannot break by force is built only if needed. */
function toDoc(expression: Expression): Doc {
  if (expression.kind === 'atom') return expression.text
  const text = expression.flat
  return text === null ? structure(expression) : lazy(text, () => structure(expression))
}

function structure(expression: Expression): Doc {
  switch (expression.kind) {
    case 'atom':
      return expression.text
    case 'object':
      return objectDoc(expression)
    case 'array':
      return arrayDoc(expression)
    case 'call':
      return [expression.callee, argumentsDoc(expression.args)]
    case 'chain':
      return chainDoc(expression)
  }
}

function objectDoc(expression: ObjectLiteral): Doc {
  if (expression.entries.length === 0) return '{}'
  const entries = expression.entries.map(([key, value]) => [`${key}: `, toDoc(value)])
  return group(
    ['{', indent([line, join([',', line], entries)]), ifBreak(','), line, '}'],
    expression.broken,
  )
}

function arrayDoc(expression: ArrayLiteral): Doc {
  if (expression.items.length === 0) return '[]'
  const items = expression.items.map(toDoc)
  return group(['[', indent([softline, join([',', line], items)]), ifBreak(','), softline, ']'])
}

/**
 * Prettier's member chain: up to two calls (`z.object({…})`, `petSchema.exactOptional()`) stay
 * together; with more, they go one a line when they do not fit, or when a call before the last
 * breaks, or when one of three or more calls has a complex argument.
 */
function chainDoc(chain: Chain): Doc {
  const links = chain.links.map((link) => [link.name, argumentsDoc(link.args)])
  const oneLine = [chain.root, ...links]
  if (chain.links.length < 2) return oneLine
  const expanded = [chain.root, indent([hardline, join(hardline, links)])]
  const complex = chain.links.length > 2 && chain.links.some((link) => !link.args.every(isSimple))
  if (complex || links.slice(0, -1).some(willBreak)) return group(expanded)
  return [willBreak(oneLine) ? breakParent : '', conditionalGroup([oneLine, expanded])]
}

/**
 * Prettier's call arguments: on one line when they fit; else a last object or array argument
 * hugs the parentheses (`z.union([` … `])`); else one argument a line.
 */
function argumentsDoc(args: readonly Expression[]): Doc {
  if (args.length === 0) return '()'
  const printed = args.map(toDoc)
  const allBroken = group(
    ['(', indent([softline, join([',', line], printed)]), ifBreak(','), softline, ')'],
    true,
  )
  const last = args[args.length - 1]!
  const others = printed.slice(0, -1)
  const hug = (last.kind === 'object' || last.kind === 'array') && !others.some(willBreak)
  if (!hug)
    return group(['(', indent([softline, join([',', line], printed)]), ifBreak(','), softline, ')'])
  const lastDoc = printed[printed.length - 1]!
  const head = others.flatMap((doc) => [doc, ', '])
  return [
    printed.some(willBreak) ? breakParent : '',
    conditionalGroup([
      ['(', ...head, lastDoc, ')'],
      // Built, not lazy: the hugged argument must break even where its one-line text would fit.
      ['(', ...head, group(structure(last), true), ')'],
      allBroken,
    ]),
  ]
}

/** Prettier's "simple" call argument: no function with a body to read, no deep nesting. */
function isSimple(expression: Expression): boolean {
  switch (expression.kind) {
    case 'atom':
      return expression.simple
    case 'object':
      return expression.entries.every(([, value]) => isSimple(value))
    case 'array':
      return expression.items.every(isSimple)
    case 'call':
      return expression.args.every(isSimple)
    case 'chain':
      return expression.links.every((link) => link.args.every(isSimple))
  }
}
