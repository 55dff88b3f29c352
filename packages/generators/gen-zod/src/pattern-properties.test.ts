import { describe, expect, it } from 'vitest'
import { generators as typescript } from '@svc/gen-typescript'
import { generateFrom, typecheck } from '../../test-support/generated-code.js'
import { generators as zod } from './index.js'
import { loadSchemas } from './test-support.js'

/** 3.1 objects whose extra keys are typed by `patternProperties`. */
const document = JSON.stringify({
  openapi: '3.1.0',
  info: { title: 't', version: '1' },
  paths: {},
  components: {
    schemas: {
      // Closed to every key but `x-…` ones: the keys can be checked exactly.
      Extensions: {
        type: 'object',
        patternProperties: { '^x-': { type: 'string' } },
        additionalProperties: false,
      },
      // Named properties, patterns and typed other keys.
      Labels: {
        type: 'object',
        required: ['id'],
        properties: { id: { type: 'string' } },
        patternProperties: { '^n-': { type: 'integer' } },
        additionalProperties: { type: 'boolean' },
      },
      // Other keys open: the patterns narrow nothing a type can say.
      Open: { type: 'object', patternProperties: { '^n-': { type: 'integer' } } },
    },
  },
})

describe('patternProperties', () => {
  it('types the keys they describe in types.ts and zod.ts', async () => {
    const { files, manifest } = await generateFrom(document, [...typescript, ...zod])
    for (const results of Object.values(manifest.results))
      for (const result of Object.values(results)) expect(result.status).toBe('success')
    const types = files.get('types.ts')!
    expect(types).toMatch(/export type Extensions = \{ \[key: string\]: string \}/)
    expect(types).toMatch(/\[key: string\]: boolean \| number \| string/)
    expect(types).toMatch(/export type Open = Record<string, unknown>/)
    const schemas = files.get('zod.ts')!
    expect(schemas).toContain('z.record(z.string().regex(new RegExp("^x-", "u")), z.string())')
    expect(schemas).toMatch(/\.catchall\(z\.union\(\[z\.boolean\(\), z\.number\(\)\.int\(\)\]\)\)/)
    const usage = `import type { Extensions, Labels } from './types.ts'
export const extensions: Extensions = { 'x-a': 'b' }
// @ts-expect-error: the x- keys hold strings
export const wrong: Extensions = { 'x-a': 1 }
export const labels: Labels = { id: 'a', 'n-count': 2, other: true }
`
    expect(typecheck(new Map([...files, ['usage.ts', usage]]))).toEqual([])
  })

  it('parses what they allow and rejects what they do not', async () => {
    const { files } = await generateFrom(document, [...typescript, ...zod])
    const { extensionsSchema, labelsSchema, openSchema } = await loadSchemas(files)
    expect(extensionsSchema!.safeParse({ 'x-a': 'b' }).success).toBe(true)
    // A key no pattern matches, and a value of the wrong type.
    expect(extensionsSchema!.safeParse({ other: 'b' }).success).toBe(false)
    expect(extensionsSchema!.safeParse({ 'x-a': 1 }).success).toBe(false)
    expect(labelsSchema!.parse({ id: 'a', 'n-count': 2, other: true })).toEqual({
      id: 'a',
      'n-count': 2,
      other: true,
    })
    expect(labelsSchema!.safeParse({ id: 'a', other: 'text' }).success).toBe(false)
    expect(openSchema!.parse({ anything: 'goes' })).toEqual({ anything: 'goes' })
  })
})
