import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import {
  PETSTORE,
  generateFrom as generateWith,
  typecheck,
} from '../../test-support/generated-code.js'
import { generators } from './index.js'

const generateFrom = (text: string) => generateWith(text, generators)

describe('@svc/gen-zod', () => {
  it('writes a schema per model of the Petstore, models it uses first', async () => {
    const text = readFileSync(PETSTORE, 'utf8')
    const { files } = await generateFrom(text)
    expect([...files.keys()]).toEqual(['zod.ts'])
    const zod = files.get('zod.ts')!
    expect(zod).toContain("import { z } from 'zod'")
    expect(zod).toContain(
      'export const petSchema = z.object({ id: z.number().int().optional(), category: categorySchema.optional(), name: z.string(), photoUrls: z.array(z.string()), tags: z.array(tagSchema).optional(), status: z.enum(["available", "pending", "sold"]).optional() })',
    )
    expect(zod.indexOf('export const categorySchema')).toBeLessThan(
      zod.indexOf('export const petSchema'),
    )
    expect(typecheck(files)).toEqual([])
  })

  it('reaches recursive models through z.lazy, typed by their TypeScript type', async () => {
    const text = JSON.stringify({
      openapi: '3.0.3',
      info: { title: 't', version: '1' },
      paths: {},
      components: {
        schemas: {
          Node: {
            type: 'object',
            required: ['kind'],
            properties: {
              kind: { type: 'string', enum: ['leaf', 'branch', null], nullable: true },
              children: { type: 'array', items: { $ref: '#/components/schemas/Node' } },
              owner: { $ref: '#/components/schemas/Owner' },
              meta: { type: 'object', additionalProperties: { type: 'boolean' } },
            },
          },
          Owner: { type: 'object', properties: { name: { type: 'string' } } },
        },
      },
    })
    const { files } = await generateFrom(text)
    expect(files.get('zod.ts')).toContain(
      'export const nodeSchema: z.ZodType<Node> = z.object({ kind: z.enum(["leaf", "branch"]).nullable(), children: z.array(z.lazy(() => nodeSchema)).optional(), owner: ownerSchema.optional(), meta: z.record(z.string(), z.boolean()).optional() })',
    )
    expect(files.get('zod.ts')).toContain("import type { Node } from './types.ts'")
    expect(typecheck(files)).toEqual([])
  })

  it('gives schemas whose parsed values a wrong use is rejected on', async () => {
    const { files } = await generateFrom(readFileSync(PETSTORE, 'utf8'))
    const usage = `import { petSchema } from './zod.ts'
export const name: number = petSchema.parse({}).name
`
    expect(typecheck(new Map([...files, ['usage.ts', usage]]))).toEqual([
      "usage.ts(2,14): error TS2322: Type 'string' is not assignable to type 'number'.",
    ])
  })
})
