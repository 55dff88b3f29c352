import { OAS_ISSUES } from '../issues/index.js'
import type { Schema } from '../model/schema.js'
import { setOwn } from '../model/own.js'
import { getAtLocalRef } from '../refs/pointer.js'
import { describeValue, isObject, type OasContext, type RawObject } from './context.js'
import { checkExample } from './schema/values.js'

/** How many `$ref`s an example may go through before it is kept as the `$ref` itself. */
const MAX_HOPS = 10

/**
 * The singular `example` of a parameter, header or media type, checked against its schema; both
 * `example` and `examples` on one node is EXAMPLE_AND_EXAMPLES_DEFINED and `example` wins.
 */
export function readExamples(ctx: OasContext, raw: RawObject, schema: Schema): unknown {
  if (raw.examples !== undefined) {
    if (!isObject(raw.examples))
      ctx.fail(`"examples" must be a map of example objects, got ${describeValue(raw.examples)}`)
    ctx.push('examples')
    for (const name in raw.examples) {
      const example = raw.examples[name]
      ctx.push(name)
      if (isObject(example) && typeof example.$ref !== 'string') ctx.checkKeys(example, 'example')
      ctx.pop()
    }
    ctx.pop()
  }
  if (raw.example === undefined) return undefined
  if (raw.examples !== undefined) {
    ctx.report(
      OAS_ISSUES.exampleAndExamples,
      'Both example and examples are defined; using example.',
      'example',
    )
  }
  return checkExample(ctx, raw.example, schema, 'example')
}

/**
 * The named `examples` of a parameter, header or media type, each `$ref` followed to the example
 * object it names (the document's own value, not a copy), so a `$ref` and its inlined target are
 * the same example. Undefined when there are none.
 */
export function namedExamples(
  ctx: OasContext,
  raw: RawObject,
): Readonly<Record<string, unknown>> | undefined {
  if (!isObject(raw.examples)) return undefined
  const examples: Record<string, unknown> = {}
  let any = false
  for (const name in raw.examples) {
    let example: unknown = raw.examples[name]
    for (let hops = 0; hops < MAX_HOPS && isObject(example); hops++) {
      if (typeof example.$ref !== 'string') break
      const target = getAtLocalRef(ctx.document, example.$ref)
      if (target === undefined) break
      example = target
    }
    setOwn(examples, name, example)
    any = true
  }
  return any ? Object.freeze(examples) : undefined
}
