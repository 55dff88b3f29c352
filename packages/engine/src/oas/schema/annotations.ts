import { OAS_ISSUES } from '../../issues/index.js'
import type { Schema } from '../../model/schema.js'
import type { OasContext } from '../context.js'
import type { SchemaFields } from './schema-fields.js'
import { checkExample, readDefault } from './values.js'

export type Mutable<T> = { -readonly [K in keyof T]: T[K] }

/**
 * Adds a schema's annotations to its built node and freezes it: title, description, deprecated,
 * readOnly, writeOnly, extensions, then `default` and `example`, each checked against the node
 * (INVALID_DEFAULT, INVALID_EXAMPLE, EXAMPLE_AND_EXAMPLES_DEFINED).
 */
export function annotate<S extends Schema>(ctx: OasContext, f: SchemaFields, node: Mutable<S>): S {
  if (typeof f.title === 'string') node.title = f.title
  if (typeof f.description === 'string') node.description = f.description
  if (f.deprecated === true) node.deprecated = true
  if (f.readOnly === true) node.readOnly = true
  if (f.writeOnly === true) node.writeOnly = true
  if (f.extensions) node.extensions = Object.freeze(f.extensions)
  if (f.const !== undefined) node.const = f.const
  if (f.default !== undefined) {
    const value = readDefault(ctx, f.default, node as S)
    if (value !== undefined) node.default = value
    else node.invalidDefault = f.default
  }
  if (f.example !== undefined || f.examples !== undefined) {
    const example = readExample(ctx, f, node as S)
    if (example !== undefined) node.example = example
    if (Array.isArray(f.examples)) node.examples = f.examples
  }
  return Object.freeze(node)
}

/**
 * The schema's example: `example`, or in 3.1 the first of `examples`. Both on one node gives
 * EXAMPLE_AND_EXAMPLES_DEFINED, and the singular `example` wins.
 */
function readExample(ctx: OasContext, f: SchemaFields, node: Schema): unknown {
  const examples = f.examples
  if (f.example !== undefined) {
    if (examples !== undefined) {
      ctx.report(
        OAS_ISSUES.exampleAndExamples,
        'Both example and examples are defined; using example.',
        'example',
      )
    }
    return checkExample(ctx, f.example, node, 'example')
  }
  if (Array.isArray(examples) && examples.length > 0) {
    ctx.push('examples')
    const example = checkExample(ctx, examples[0], node, '0')
    ctx.pop()
    return example
  }
  return undefined
}

/** The annotations a wrapper (`allOf: [$ref]` with a description) puts on its only member. */
export function wrapperAnnotations(
  f: SchemaFields,
  member: Schema,
  nullable: boolean,
): Partial<Mutable<Schema>> {
  return {
    nullable: nullable || member.nullable,
    title: typeof f.title === 'string' ? f.title : undefined,
    description: typeof f.description === 'string' ? f.description : undefined,
    deprecated: f.deprecated === true ? true : undefined,
    readOnly: f.readOnly === true ? true : undefined,
    writeOnly: f.writeOnly === true ? true : undefined,
    default: f.default,
    example: f.example,
    extensions: f.extensions ? Object.freeze(f.extensions) : undefined,
  }
}

/** A copy of `node` with the given annotations set (undefined values are skipped). */
export function overlay<S extends Schema>(node: S, annotations: Partial<Mutable<S>>): S {
  let copy: Mutable<S> | undefined
  for (const key in annotations) {
    const value = annotations[key]
    if (value === undefined || node[key] === value) continue
    copy ??= { ...node }
    copy[key] = value
  }
  return copy ? Object.freeze(copy) : node
}
