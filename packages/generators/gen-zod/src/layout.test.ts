import { describe, expect, it } from 'vitest'
import { generators as typescript } from '@svc/gen-typescript'
import { STRICTEST, generateFrom, typecheck } from '../../test-support/generated-code.js'
import { generators } from './index.js'

const statuses = ['available', 'pending', 'sold', 'reserved', 'quarantined', 'adopted', 'lost']

/** A model with everything that makes a line long, and a cycle that needs an annotation. */
const document = JSON.stringify({
  openapi: '3.1.0',
  info: { title: 't', version: '1' },
  paths: {},
  components: {
    schemas: {
      Pet: {
        type: 'object',
        description: 'A pet in the store.',
        deprecated: true,
        required: ['name'],
        properties: {
          name: { type: 'string', minLength: 1, maxLength: 64, pattern: '^[A-Za-z][A-Za-z0-9 ]*$' },
          status: { type: 'string', enum: statuses },
          owner: {
            type: 'object',
            properties: { name: { type: 'string' }, email: { type: 'string', format: 'email' } },
          },
          tags: { type: 'array', items: { type: 'string' }, uniqueItems: true, maxItems: 10 },
          parent: { $ref: '#/components/schemas/Pet' },
          labels: {
            type: 'object',
            properties: { colour: { type: 'string' } },
            additionalProperties: { type: 'string' },
          },
        },
      },
    },
  },
})

describe('zod.ts layout', () => {
  it('prints one property a line, breaks long unions and chains, and documents the schema', async () => {
    const { files } = await generateFrom(document, [...typescript, ...generators])
    const zod = files.get('zod.ts')!
    expect(zod).toContain(`/**
 * A pet in the store.
 * @deprecated
 */
export const petSchema: z.ZodType<Pet> = /* @__PURE__ */ (() =>
  z.looseObject({
    name: z.string().min(1).max(64).regex(new RegExp("^[A-Za-z][A-Za-z0-9 ]*$", "u")),
    status: z
      .enum(["available", "pending", "sold", "reserved", "quarantined", "adopted", "lost"])
      .exactOptional(),
    owner: z
      .looseObject({
        name: z.string().exactOptional(),
        email: z.email().exactOptional(),
      })
      .exactOptional(),
    tags: z
      .array(z.string())
      .max(10)
      .refine((items) => new Set(items.map((item) => JSON.stringify(item))).size === items.length, {
        message: "Items must be unique",
      })
      .exactOptional(),
    parent: z.lazy(() => petSchema).exactOptional(),
    labels: z
      .object({
        colour: z.string().exactOptional(),
      })
      .catchall(z.string())
      .exactOptional(),
  }))()
`)
    expect(zod.split('\n').filter((line) => line.length > 100)).toEqual([])
  })

  it('compiles under exactOptionalPropertyTypes and noUncheckedIndexedAccess, typed as the model', async () => {
    const { files } = await generateFrom(document, [...typescript, ...generators])
    // The schema's output is the model's type exactly: an absent key, never an undefined value.
    const usage = `import type { z } from 'zod'
import type { Pet } from './types.js'
import { petSchema } from './zod.js'
export const parsed: Pet = petSchema.parse({ name: 'Rex' })
export const pet: z.infer<typeof petSchema> = { name: 'Rex', status: 'sold' }
// @ts-expect-error an optional property is absent, not undefined
export const absent: z.infer<typeof petSchema> = { name: 'Rex', status: undefined }
export const colour: string | undefined = parsed.labels?.['colour']
`
    const all = new Map([...files, ['usage.ts', usage]])
    expect(typecheck(all, STRICTEST)).toEqual([])
  })
})
