import { OAS_ISSUES } from '../issues/index.js'
import type { Schema } from '../model/schema.js'
import { describeValue, isObject, type OasContext, type RawObject } from './context.js'
import { checkExample } from './schema/values.js'

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
