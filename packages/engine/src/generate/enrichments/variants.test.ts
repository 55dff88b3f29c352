import { describe, expect, it } from 'vitest'
import { EnrichmentError } from './enrichment-error.js'
import { variantNamesOf, variantSuffix } from './variants.js'

const at = ['gen-zod', '/pets', 'post']

describe('variantNamesOf', () => {
  it('is just main when nothing is configured', () => {
    expect(variantNamesOf(undefined, at)).toEqual(['main'])
    expect(variantNamesOf(null, at)).toEqual(['main'])
    expect(variantNamesOf({}, at)).toEqual(['main'])
  })

  it('lists main first, then the other variants in config order', () => {
    expect(variantNamesOf({ 'line-items': {}, main: {}, form: {} }, at)).toEqual([
      'main',
      'line-items',
      'form',
    ])
  })

  it('throws naming the block when the variants lack main', () => {
    const error = catchError(() => variantNamesOf({ form: {}, list: {} }, at))
    expect(error).toBeInstanceOf(EnrichmentError)
    expect(error.message).toBe(
      "enrichments block 'gen-zod → /pets → post' must include a 'main' variant (found 'form', 'list')",
    )
    expect(error.message).toContain("must include a 'main' variant")
    expect((error as EnrichmentError).path).toEqual(at)
  })

  it.each(['Form', 'line_items', '2nd', 'form-', 'a--b', 'formÄ'])(
    'throws naming the bad variant name %j',
    (name) => {
      const error = catchError(() => variantNamesOf({ main: {}, [name]: {} }, at))
      expect(error.message).toContain(`invalid variant name '${name}'`)
      expect(error.message).toContain("'gen-zod → /pets → post'")
    },
  )

  it('accepts lower-case words joined by single hyphens', () => {
    expect(variantNamesOf({ main: {}, v2: {}, 'line-items-x1': {} }, at)).toEqual([
      'main',
      'v2',
      'line-items-x1',
    ])
  })

  it('throws when the block is not an object', () => {
    expect(() => variantNamesOf(['main'], at)).toThrow(
      "enrichments block 'gen-zod → /pets → post' must be an object keyed by variant name, got an array",
    )
    expect(() => variantNamesOf('main', at)).toThrow(/got a string$/)
  })
})

describe('variantSuffix', () => {
  it('gives main no suffix and others a PascalCase one', () => {
    expect(variantSuffix('main')).toBe('')
    expect(variantSuffix('form')).toBe('Form')
    expect(`Form${variantSuffix('line-items')}`).toBe('FormLineItems')
    expect(variantSuffix('v2-beta')).toBe('V2Beta')
  })

  it('refuses names that are not variant names', () => {
    expect(() => variantSuffix('Line_Items')).toThrow("invalid variant name 'Line_Items'")
  })
})

function catchError(run: () => unknown): Error {
  try {
    run()
  } catch (error) {
    return error as Error
  }
  throw new Error('expected a throw')
}
