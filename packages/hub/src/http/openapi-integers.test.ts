import { OpenAPIHono, z } from '@hono/zod-openapi'
import { describe, expect, it } from 'vitest'
import { describeIntegers, integerTypes } from './openapi-integers.js'

/** The document an app with one component `Numbers` of `shape` describes. */
function describe31(shape: Record<string, z.ZodType>) {
  const app = new OpenAPIHono()
  app.openAPIRegistry.register('Numbers', z.object(shape))
  describeIntegers(app.openAPIRegistry.definitions)
  const doc = integerTypes(
    app.getOpenAPI31Document({ openapi: '3.1.0', info: { title: 't', version: '1' } }),
  )
  return (doc.components!.schemas!.Numbers as { properties: Record<string, unknown> }).properties
}

describe('integer formats in the OpenAPI document', () => {
  it('maps each kind of zod integer to the format its bounds fit, bounds kept', () => {
    expect(
      describe31({
        safe: z.int(),
        count: z.int32().nonnegative(),
        bounded: z.number().int().min(1).max(100),
        wide: z
          .number()
          .int()
          .max(2 ** 40),
        unsigned: z.uint32(),
        nullable: z.int32().nullable(),
        optional: z.int().min(0).optional(),
        list: z.array(z.int32()),
        float: z.number(),
      }),
    ).toEqual({
      safe: { type: 'integer', format: 'int64' },
      count: { type: 'integer', format: 'int32', minimum: 0 },
      bounded: { type: 'integer', format: 'int32', minimum: 1, maximum: 100 },
      wide: { type: 'integer', format: 'int64', maximum: 2 ** 40 },
      unsigned: { type: 'integer', format: 'int64', minimum: 0, maximum: 2 ** 32 - 1 },
      nullable: { type: ['integer', 'null'], format: 'int32' },
      optional: { type: 'integer', format: 'int64', minimum: 0 },
      list: { type: 'array', items: { type: 'integer', format: 'int32' } },
      float: { type: 'number' },
    })
  })

  it('keeps a format the schema names itself', () => {
    expect(describe31({ id: z.int().meta({ format: 'int32' }) })).toEqual({
      id: { type: 'integer', format: 'int32' },
    })
  })
})
