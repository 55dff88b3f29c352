import { describe, expect, expectTypeOf, it } from 'vitest'
import { z } from 'zod'
import { EnrichmentError } from './enrichment-error.js'
import { createEnrichments, type EnrichmentGenerator } from './enrichments.js'
import type { Subject } from './routing.js'

const generators = [
  {
    id: 'gen-zod',
    kind: 'operation',
    schema: z.object({
      name: z.string().optional(),
      paging: z.object({ pageSize: z.number() }).optional(),
    }),
  },
  { id: 'gen-types', kind: 'model', schema: z.object({ exportName: z.string() }) },
  { id: 'gen-fetch', kind: 'operation' },
] as const satisfies readonly EnrichmentGenerator[]

const postPets = { kind: 'operation', path: '/pets', method: 'post' } as const satisfies Subject
const getPets = { kind: 'operation', path: '/pets', method: 'get' } as const satisfies Subject
const pet = { kind: 'model', refName: 'Pet' } as const satisfies Subject

function setup(enrichments: unknown) {
  return createEnrichments({ enrichments, generators })
}

describe('variants', () => {
  it('lists the configured variants with main first', () => {
    const e = setup({ 'gen-zod': { '/pets': { post: { form: {}, main: {}, 'line-items': {} } } } })
    expect(e.variants('gen-zod', postPets)).toEqual(['main', 'form', 'line-items'])
  })

  it('is just main for a subject without a block', () => {
    expect(setup({}).variants('gen-zod', postPets)).toEqual(['main'])
    expect(setup(undefined).variants('gen-types', pet)).toEqual(['main'])
  })

  it('throws when variant keys lack main, naming the block', () => {
    const e = setup({ 'gen-types': { Pet: { form: { exportName: 'PetForm' } } } })
    expect(() => e.variants('gen-types', pet)).toThrow(
      "enrichments block 'gen-types → Pet' must include a 'main' variant",
    )
    expect(() => e.read('gen-types', pet, 'main')).toThrow(EnrichmentError)
  })

  it('throws naming a badly named variant', () => {
    const e = setup({ 'gen-zod': { '/pets': { post: { main: {}, Form_1: {} } } } })
    expect(() => e.variants('gen-zod', postPets)).toThrow("invalid variant name 'Form_1'")
  })
})

describe('read', () => {
  const config = {
    'gen-zod': { '/pets': { post: { main: { name: 'CreatePet' }, form: { name: 'Form' } } } },
    'gen-types': { Pet: { main: { exportName: 'PetModel' } } },
    'gen-fetch': { '/pets': { get: { main: { anything: [1, 2] } } } },
  }

  it('returns each variant payload parsed by the generator schema', () => {
    const e = setup(config)
    expect(e.read('gen-zod', postPets, 'main')).toEqual({ name: 'CreatePet' })
    expect(e.read('gen-zod', postPets, 'form')).toEqual({ name: 'Form' })
    expect(e.read('gen-types', pet, 'main')).toEqual({ exportName: 'PetModel' })
  })

  it('returns undefined when the subject is not configured', () => {
    const e = setup(config)
    expect(e.read('gen-zod', getPets, 'main')).toBeUndefined()
    expect(e.read('gen-types', { kind: 'model', refName: 'Owner' }, 'main')).toBeUndefined()
  })

  it('returns the payload as configured for a generator without a schema', () => {
    expect(setup(config).read('gen-fetch', getPets, 'main')).toEqual({ anything: [1, 2] })
  })

  it('types the payload by the generator schema', () => {
    const e = setup(config)
    expectTypeOf(e.read('gen-types', pet, 'main')).toEqualTypeOf<
      { exportName: string } | undefined
    >()
    expectTypeOf(e.read('gen-fetch', getPets, 'main')).toEqualTypeOf<unknown>()
  })

  it('throws for a variant the block does not declare', () => {
    expect(() => setup(config).read('gen-zod', postPets, 'list')).toThrow(
      "enrichments block 'gen-zod → /pets → post' has no variant 'list' (declared: 'main', 'form')",
    )
  })

  it('throws one line naming the path and the issue when the schema rejects the payload', () => {
    const e = setup({ 'gen-zod': { '/pets': { post: { main: { paging: { pageSize: '10' } } } } } })
    expect(() => e.read('gen-zod', postPets, 'main')).toThrow(
      "invalid enrichment 'gen-zod → /pets → post → main': paging → pageSize: Invalid input: expected number, received string",
    )
  })

  it('strips undeclared keys and warns about each, with a suggestion when one is close', () => {
    const e = setup({
      'gen-zod': {
        '/pets': { post: { main: { name: 'A', nam: 'B', paging: { pageSize: 1, pageSise: 2 } } } },
      },
    })
    expect(e.read('gen-zod', postPets, 'main')).toEqual({ name: 'A', paging: { pageSize: 1 } })
    expect(e.audit()).toEqual([
      {
        level: 'warning',
        type: 'UNKNOWN_ENRICHMENT_KEY',
        path: ['gen-zod', '/pets', 'post', 'main', 'nam'],
        message:
          "enrichment key 'gen-zod → /pets → post → main → nam' is not declared by the enrichment schema of 'gen-zod' and was ignored (did you mean 'name'?)",
        suggestion: 'name',
      },
      {
        level: 'warning',
        type: 'UNKNOWN_ENRICHMENT_KEY',
        path: ['gen-zod', '/pets', 'post', 'main', 'paging', 'pageSise'],
        message:
          "enrichment key 'gen-zod → /pets → post → main → paging → pageSise' is not declared by the enrichment schema of 'gen-zod' and was ignored (did you mean 'pageSize'?)",
        suggestion: 'pageSize',
      },
    ])
  })

  it('refuses generators that are not in the run and subjects of the wrong kind', () => {
    const e = setup(config)
    expect(() => e.read('gen-nope' as 'gen-zod', postPets, 'main')).toThrow(
      "generator 'gen-nope' is not part of this run",
    )
    expect(() => e.read('gen-types', postPets, 'main')).toThrow(
      "generator 'gen-types' takes model subjects, not operation",
    )
  })

  it('returns the same payload before and after the audit', () => {
    const e = setup({ 'gen-zod': { '/pets': { post: { main: { name: 'A', nmae: 'B' } } } } })
    const before = e.read('gen-zod', postPets, 'main')
    expect(e.audit()).toHaveLength(1)
    expect(e.read('gen-zod', postPets, 'main')).toEqual(before)
  })
})

describe('scopes', () => {
  it('hands out the _stack and _generator bags as frozen copies', () => {
    const config = {
      _stack: { basePath: 'src' },
      'gen-zod': { _generator: { casing: 'camel' } },
    }
    const e = setup(config)
    expect(e.stack()).toEqual({ basePath: 'src' })
    expect(e.generatorScope('gen-zod')).toEqual({ casing: 'camel' })
    expect(e.generatorScope('gen-types')).toEqual({})
    expect(Object.isFrozen(e.stack())).toBe(true)
    expect(e.stack()).not.toBe(config._stack)
  })

  it('gives empty bags when the scopes are missing or not objects', () => {
    const e = setup({ _stack: 'src', 'gen-zod': { _generator: [1] } })
    expect(e.stack()).toEqual({})
    expect(e.generatorScope('gen-zod')).toEqual({})
    expect(setup('not an object').stack()).toEqual({})
  })
})
