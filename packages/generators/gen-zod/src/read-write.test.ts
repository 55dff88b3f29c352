import { describe, expect, it } from 'vitest'
import { generateFrom, typecheck } from '../../test-support/generated-code.js'
import { generators } from './index.js'
import { loadSchemas, oneLine } from './test-support.js'

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })

/** A closed account whose id the server gives and whose password it never returns. */
const text = JSON.stringify({
  openapi: '3.0.3',
  info: { title: 'Accounts', version: '1' },
  paths: {},
  components: {
    schemas: {
      Account: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'password', 'name'],
        properties: {
          id: { type: 'string', readOnly: true },
          password: { type: 'string', writeOnly: true },
          name: { type: 'string' },
        },
      },
      Team: { type: 'object', properties: { members: { type: 'array', items: ref('Account') } } },
      Node: {
        type: 'object',
        required: ['id', 'children'],
        properties: {
          id: { type: 'integer', readOnly: true },
          children: { type: 'array', items: ref('Node') },
        },
      },
      Tag: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
    },
  },
})

describe('readOnly and writeOnly', () => {
  it('gives a model with them a read schema and a write schema, recursion included', async () => {
    const { files } = await generateFrom(text, generators)
    const zod = oneLine(files.get('zod.ts')!)
    expect(zod).toContain(
      'export const accountSchema = /* @__PURE__ */ (() => z.strictObject({ id: z.string(), password: z.string().exactOptional(), name: z.string() }))()',
    )
    expect(zod).toContain(
      'export const accountWritableSchema = /* @__PURE__ */ (() => z.strictObject({ password: z.string(), name: z.string() }))()',
    )
    expect(zod).toContain(
      'export const teamWritableSchema = /* @__PURE__ */ (() => z.looseObject({ members: z.array(accountWritableSchema).exactOptional() }))()',
    )
    expect(zod).toContain(
      'export const nodeWritableSchema: z.ZodType<NodeWritable> = /* @__PURE__ */ (() => z.looseObject({ children: z.array(z.lazy(() => nodeWritableSchema)) }))()',
    )
    expect(zod).not.toContain('tagWritableSchema')
    expect(typecheck(files)).toEqual([])

    const schemas = await loadSchemas(files)
    const ok = (name: string, value: unknown) => schemas[name]!.safeParse(value).success
    // A response: the id is there, the password may be, even in a closed object.
    expect(ok('accountSchema', { id: 'a1', name: 'Ada' })).toBe(true)
    expect(ok('accountSchema', { id: 'a1', name: 'Ada', password: 'secret' })).toBe(true)
    expect(ok('accountSchema', { name: 'Ada' })).toBe(false)
    // A request: the password is required, the id has no place.
    expect(ok('accountWritableSchema', { name: 'Ada', password: 'secret' })).toBe(true)
    expect(ok('accountWritableSchema', { name: 'Ada' })).toBe(false)
    expect(ok('accountWritableSchema', { id: 'a1', name: 'Ada', password: 'secret' })).toBe(false)
    expect(ok('teamWritableSchema', { members: [{ name: 'Ada', password: 'secret' }] })).toBe(true)
    expect(ok('teamSchema', { members: [{ id: 'a1', name: 'Ada' }] })).toBe(true)
    expect(ok('nodeWritableSchema', { children: [{ children: [] }] })).toBe(true)
    expect(ok('nodeSchema', { id: 1, children: [{ id: 2, children: [] }] })).toBe(true)
    expect(ok('nodeSchema', { id: 1, children: [{ children: [] }] })).toBe(false)
  })
})
