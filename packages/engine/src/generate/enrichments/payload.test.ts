import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { EnrichmentError } from './enrichment-error.js'
import { parsePayload, stripUndeclaredKeys } from './payload.js'

const schema = z.object({
  name: z.string(),
  paging: z.object({ pageSize: z.number(), cursor: z.string().optional() }).optional(),
  extra: z.looseObject({ known: z.string().optional() }).optional(),
  tags: z.object({}).catchall(z.string()).optional(),
  strict: z.strictObject({ on: z.boolean() }).optional(),
})

describe('stripUndeclaredKeys', () => {
  it('drops undeclared keys at every z.object level and lists them with suggestions', () => {
    const input = {
      name: 'x',
      nam: 'typo',
      paging: { pageSize: 2, pagSize: 3, totallyElse: true },
      strict: { on: true, of: false },
    }
    const { value, undeclared } = stripUndeclaredKeys(schema, input)
    expect(value).toEqual({ name: 'x', paging: { pageSize: 2 }, strict: { on: true } })
    expect(undeclared).toEqual([
      { path: ['nam'], suggestion: 'name' },
      { path: ['paging', 'pagSize'], suggestion: 'pageSize' },
      { path: ['paging', 'totallyElse'] },
      { path: ['strict', 'of'], suggestion: 'on' },
    ])
    expect(input.paging).toHaveProperty('pagSize', 3) // the input is left alone
  })

  it('keeps every key of objects that accept any key', () => {
    const input = { name: 'x', extra: { anything: 1 }, tags: { a: 'b' } }
    expect(stripUndeclaredKeys(schema, input)).toEqual({ value: input, undeclared: [] })
  })

  it('sees through transforms, defaults and lazy schemas', () => {
    const wrapped = z.lazy(() =>
      z
        .object({ size: z.number() })
        .default({ size: 1 })
        .transform((v) => v),
    )
    expect(stripUndeclaredKeys(wrapped, { size: 2, sise: 3 }).undeclared).toEqual([
      { path: ['sise'], suggestion: 'size' },
    ])
  })

  it('leaves values that are not objects to the schema', () => {
    expect(stripUndeclaredKeys(schema, 'text')).toEqual({ value: 'text', undeclared: [] })
  })
})

describe('parsePayload', () => {
  const path = ['gen-zod', '/pets', 'post', 'main']

  it('returns the parsed value', () => {
    expect(parsePayload(schema, { name: 'x' }, path)).toEqual({ name: 'x' })
  })

  it('throws one line naming the path and every issue', () => {
    let error: unknown
    try {
      parsePayload(schema, { name: 1, paging: { pageSize: 'big' } }, path)
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(EnrichmentError)
    expect((error as EnrichmentError).path).toEqual(path)
    expect((error as Error).message).toBe(
      "invalid enrichment 'gen-zod → /pets → post → main': " +
        'name: Invalid input: expected string, received number; ' +
        'paging → pageSize: Invalid input: expected number, received string',
    )
  })

  it('keeps a multi-line custom message on one line', () => {
    const custom = z.string().refine(() => false, { message: 'first\n  second' })
    expect(() => parsePayload(custom, 'x', ['g', 'M', 'main'])).toThrow(
      "invalid enrichment 'g → M → main': first second",
    )
  })
})
