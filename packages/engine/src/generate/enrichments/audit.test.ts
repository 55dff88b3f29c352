import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createEnrichments, type EnrichmentGenerator } from './enrichments.js'
import type { Subject } from './routing.js'

const generators = [
  { id: 'gen-zod', kind: 'operation', schema: z.object({ name: z.string().optional() }) },
  { id: 'gen-types', kind: 'model' },
  { id: 'gen-gql', kind: 'operation' },
] as const satisfies readonly EnrichmentGenerator[]

const op = (path: string, method: 'get' | 'post' | 'patch'): Subject => ({
  kind: 'operation',
  path,
  method,
})
const model = (refName: string): Subject => ({ kind: 'model', refName })

function setup(enrichments: unknown) {
  return createEnrichments({ enrichments, generators })
}

const unconsumed = (path: string[], suggestion?: string) => ({
  level: 'warning',
  type: 'UNCONSUMED_ENRICHMENT',
  path,
  message:
    `enrichment entry '${path.join(' → ')}' was never consumed — no matching generator or subject in this run` +
    (suggestion === undefined ? '' : ` (did you mean '${suggestion}'?)`),
  ...(suggestion !== undefined && { suggestion }),
})

describe('audit: warning types', () => {
  it('UNCONSUMED_ENRICHMENT (warning) for a configured subject no lookup read', () => {
    const e = setup({ 'gen-zod': { '/orders': { get: { main: {} } } } })
    e.read('gen-zod', op('/pets', 'get'), 'main')
    expect(e.audit()).toEqual([unconsumed(['gen-zod', '/orders', 'get'])])
    expect(e.audit()[0]?.message).toBe(
      "enrichment entry 'gen-zod → /orders → get' was never consumed — no matching generator or subject in this run",
    )
  })

  it('UNKNOWN_GENERATOR_ID (warning) for a top-level key that is no generator of the run', () => {
    const e = setup({ 'gen-zdo': { '/pets': { get: { main: {} } } }, 'gen-other': {} })
    expect(e.audit()).toEqual([
      {
        level: 'warning',
        type: 'UNKNOWN_GENERATOR_ID',
        path: ['gen-zdo'],
        message:
          "enrichments key 'gen-zdo' matches no generator in this run (did you mean 'gen-zod'?)",
        suggestion: 'gen-zod',
      },
      {
        level: 'warning',
        type: 'UNKNOWN_GENERATOR_ID',
        path: ['gen-other'],
        message: "enrichments key 'gen-other' matches no generator in this run",
      },
    ])
  })

  it('UNKNOWN_ENRICHMENT_KEY (warning) for a leaf key the schema does not declare', () => {
    const e = setup({ 'gen-zod': { '/pets': { get: { main: { nme: 'x' } } } } })
    expect(e.read('gen-zod', op('/pets', 'get'), 'main')).toEqual({})
    expect(e.audit()).toEqual([
      {
        level: 'warning',
        type: 'UNKNOWN_ENRICHMENT_KEY',
        path: ['gen-zod', '/pets', 'get', 'main', 'nme'],
        message:
          "enrichment key 'gen-zod → /pets → get → main → nme' is not declared by the enrichment schema of 'gen-zod' and was ignored (did you mean 'name'?)",
        suggestion: 'name',
      },
    ])
  })

  it('SKIPPED_SUBJECT_ENRICHMENT (info) for an entry whose subject is excluded', () => {
    const e = setup({ 'gen-zod': { '/pets': { get: { main: {} } } }, 'gen-types': { Pet: {} } })
    e.markSubjectSkipped('gen-zod', op('/pets', 'get'))
    e.markSubjectSkipped('gen-types', model('Pet'))
    expect(e.audit()).toEqual([
      {
        level: 'info',
        type: 'SKIPPED_SUBJECT_ENRICHMENT',
        path: ['gen-zod', '/pets', 'get'],
        message:
          "enrichment entry 'gen-zod → /pets → get' was not used — its subject is excluded by skip/include in this run",
      },
      {
        level: 'info',
        type: 'SKIPPED_SUBJECT_ENRICHMENT',
        path: ['gen-types', 'Pet'],
        message:
          "enrichment entry 'gen-types → Pet' was not used — its subject is excluded by skip/include in this run",
      },
    ])
  })

  it('SKIPPED_GENERATOR_ENRICHMENT (info), once, for a skipped generator with entries', () => {
    const e = setup({
      'gen-zod': { '/pets': { get: { main: {} }, post: { main: {} } } },
      'gen-types': { _generator: { casing: 'camel' } },
      'gen-legacy': { Pet: { main: {} } },
    })
    e.markGeneratorSkipped('gen-zod')
    e.markGeneratorSkipped('gen-types') // only its _generator bag: nothing to report
    e.markGeneratorSkipped('gen-legacy') // not among the generators, but known to the run
    expect(e.audit()).toEqual([
      {
        level: 'info',
        type: 'SKIPPED_GENERATOR_ENRICHMENT',
        path: ['gen-zod'],
        message: "enrichments for 'gen-zod' were not used — the generator is skipped in this run",
      },
      {
        level: 'info',
        type: 'SKIPPED_GENERATOR_ENRICHMENT',
        path: ['gen-legacy'],
        message:
          "enrichments for 'gen-legacy' were not used — the generator is skipped in this run",
      },
    ])
  })

  it('reports nothing when every entry was read', () => {
    const e = setup({
      'gen-zod': { '/pets': { get: { main: { name: 'x' } } } },
      'gen-types': { Pet: { main: {} } },
    })
    e.read('gen-zod', op('/pets', 'get'), 'main')
    e.variants('gen-types', model('Pet'))
    expect(e.audit()).toEqual([])
  })
})

describe('audit: suggestions', () => {
  function auditAfterReading(config: unknown, ...subjects: Subject[]) {
    const e = setup(config)
    for (const subject of subjects) {
      const id = subject.kind === 'model' ? 'gen-types' : 'gen-zod'
      for (const variant of e.variants(id, subject)) e.read(id, subject, variant)
    }
    return e.audit()
  }

  it('suggests the nearest consumed sibling at the first diverging segment', () => {
    const warnings = auditAfterReading(
      { 'gen-zod': { '/pest': { get: { main: {} } } } },
      op('/pets', 'get'),
      op('/users', 'get'),
    )
    expect(warnings).toEqual([unconsumed(['gen-zod', '/pest', 'get'], '/pets')])
  })

  it('diverging at the method suggests a consumed method', () => {
    const warnings = auditAfterReading(
      { 'gen-zod': { '/pets': { pst: { main: {} } } } },
      op('/pets', 'post'),
    )
    expect(warnings).toEqual([unconsumed(['gen-zod', '/pets', 'pst'], 'post')])
  })

  it('lets a case-only match win over a nearer key', () => {
    const warnings = auditAfterReading(
      { 'gen-types': { PETS: {} } },
      model('Pets'),
      model('PET'), // one edit away, but 'Pets' differs only in case
    )
    expect(warnings).toEqual([unconsumed(['gen-types', 'PETS'], 'Pets')])
  })

  it('gives no suggestion when the nearest key is too far', () => {
    const warnings = auditAfterReading(
      { 'gen-zod': { '/orders': { get: { main: {} } } } },
      op('/pets', 'get'),
    )
    expect(warnings).toEqual([unconsumed(['gen-zod', '/orders', 'get'])])
  })

  it('allows only one edit for keys of 4 characters or fewer', () => {
    const warnings = auditAfterReading(
      { 'gen-zod': { '/pets': { psot: {}, gte: {} } }, 'gen-types': { Pte: {} } },
      op('/pets', 'post'),
      op('/pets', 'get'),
      model('Pet'),
    )
    expect(warnings).toEqual([
      unconsumed(['gen-zod', '/pets', 'psot']),
      unconsumed(['gen-zod', '/pets', 'gte']),
      unconsumed(['gen-types', 'Pte']),
    ])
    const fiveLetters = auditAfterReading({ 'gen-types': { Ownre: {} } }, model('Owner'))
    expect(fiveLetters).toEqual([unconsumed(['gen-types', 'Ownre'], 'Owner')])
  })

  it('never suggests another generator for entries of a generator that read nothing', () => {
    const e = setup({ 'gen-gql': { query: { users: {} } } })
    e.read('gen-zod', op('/pets', 'get'), 'main')
    expect(e.audit()).toEqual([unconsumed(['gen-gql', 'query', 'users'])])
  })
})

describe('audit: consumption', () => {
  it('is prefix-closed: reading a variant consumes its block and everything above', () => {
    const e = setup({
      'gen-zod': { '/pets': { post: { main: {} }, get: { main: {} } } },
    })
    e.read('gen-zod', op('/pets', 'post'), 'main')
    // '/pets' itself is consumed, so only the sibling method is reported
    expect(e.audit().map((w) => w.path)).toEqual([['gen-zod', '/pets', 'get']])
  })

  it('checks operation, webhook and GraphQL entries two keys below the id', () => {
    const e = setup({
      'gen-zod': {
        '/pets': { get: { main: {}, form: { anything: 1 } }, patch: {} },
        newPet: { post: {}, put: {} },
      },
      'gen-gql': { query: { users: {}, user: {} }, mutation: { createUser: {} } },
    })
    e.read('gen-zod', op('/pets', 'get'), 'main') // 'form' and its contents are below the block
    e.variants('gen-zod', { kind: 'webhook', name: 'newPet', method: 'post' })
    e.variants('gen-gql', { kind: 'graphql', rootKind: 'query', fieldName: 'users' })
    expect(e.audit().map((w) => w.path)).toEqual([
      ['gen-zod', '/pets', 'patch'],
      ['gen-zod', 'newPet', 'put'],
      ['gen-gql', 'query', 'user'],
      ['gen-gql', 'mutation', 'createUser'],
    ])
  })

  it('checks model entries one key below the id', () => {
    const e = setup({ 'gen-types': { Pet: { main: {}, form: {} }, Owner: { main: {} } } })
    e.read('gen-types', model('Pet'), 'main')
    expect(e.audit().map((w) => w.path)).toEqual([['gen-types', 'Owner']])
  })

  it('never flags _stack or _generator, read or not', () => {
    const e = setup({
      _stack: { basePath: 'src', whatever: { deep: true } },
      'gen-zod': { _generator: { casing: 'camel' } },
      'gen-types': { _generator: 'not even an object' },
    })
    expect(e.audit()).toEqual([])
    e.stack()
    e.generatorScope('gen-zod')
    expect(e.audit()).toEqual([])
    expect(setup({ _stack: 42 }).audit()).toEqual([])
  })

  it('reports a consumed entry as nothing even when its subject was also marked skipped', () => {
    const e = setup({ 'gen-zod': { '/pets': { get: {} } } })
    e.markSubjectSkipped('gen-zod', op('/pets', 'get'))
    e.variants('gen-zod', op('/pets', 'get'))
    expect(e.audit()).toEqual([])
  })
})

describe('audit: shape, dedup, order', () => {
  it.each([
    ['a string', 'gen-zod'],
    ['an array', [{ 'gen-zod': {} }]],
    ['a number', 3],
  ])('reports an enrichments value that is %s without throwing', (got, value) => {
    const e = setup(value)
    expect(e.variants('gen-zod', op('/pets', 'get'))).toEqual(['main'])
    expect(e.read('gen-zod', op('/pets', 'get'), 'main')).toBeUndefined()
    expect(e.audit()).toEqual([
      {
        level: 'warning',
        type: 'UNCONSUMED_ENRICHMENT',
        path: [],
        message: `enrichment entry 'settings.enrichments' was never consumed — expected an object, got ${got}`,
      },
    ])
  })

  it('reports nothing for absent enrichments', () => {
    expect(setup(undefined).audit()).toEqual([])
    expect(setup(null).audit()).toEqual([])
    expect(setup({}).audit()).toEqual([])
  })

  it('reports non-objects above the variant block, even where a read passed through', () => {
    const e = setup({ 'gen-zod': { '/pets': 'get', '/users': null }, 'gen-types': [1] })
    e.read('gen-zod', op('/pets', 'get'), 'main')
    expect(e.audit()).toEqual([
      {
        level: 'warning',
        type: 'UNCONSUMED_ENRICHMENT',
        path: ['gen-zod', '/pets'],
        message:
          "enrichment entry 'gen-zod → /pets' was never consumed — expected an object, got a string",
      },
      {
        level: 'warning',
        type: 'UNCONSUMED_ENRICHMENT',
        path: ['gen-types'],
        message:
          "enrichment entry 'gen-types' was never consumed — expected an object, got an array",
      },
    ])
  })

  it('deduplicates on (type, path)', () => {
    const e = setup({
      'gen-zod': { '/pets': { get: { main: { nme: 1 } } } },
      'gen-types': { X: {} },
    })
    e.read('gen-zod', op('/pets', 'get'), 'main')
    e.read('gen-zod', op('/pets', 'get'), 'main')
    e.markSubjectSkipped('gen-types', model('X'))
    e.markSubjectSkipped('gen-types', model('X'))
    expect(e.audit().map((w) => `${w.type} ${w.path.join('/')}`)).toEqual([
      'UNKNOWN_ENRICHMENT_KEY gen-zod//pets/get/main/nme',
      'SKIPPED_SUBJECT_ENRICHMENT gen-types/X',
    ])
  })

  it('gives the same warnings in document order whatever order the reads came in', () => {
    const config = {
      'gen-types': { Pett: {}, Owner: { main: { a: 1 } } },
      'gen-zdo': {},
      'gen-zod': {
        '/users': { get: { main: { nme: 1 } } },
        '/pets': { get: { main: { nme: 2, tilte: 3 } }, pots: {} },
      },
    }
    const subjects: [string, Subject][] = [
      ['gen-zod', op('/pets', 'get')],
      ['gen-zod', op('/users', 'get')],
      ['gen-zod', op('/pets', 'post')],
      ['gen-types', model('Pet')],
    ]
    const run = (order: [string, Subject][]) => {
      const e = setup(config)
      for (const [id, subject] of order) e.read(id as 'gen-zod', subject, 'main')
      return e.audit()
    }
    const forward = run(subjects)
    const backward = run([...subjects].reverse())
    expect(backward).toEqual(forward)
    expect(forward.map((w) => `${w.type} ${w.path.join(' ')}`)).toEqual([
      'UNCONSUMED_ENRICHMENT gen-types Pett',
      'UNCONSUMED_ENRICHMENT gen-types Owner',
      'UNKNOWN_GENERATOR_ID gen-zdo',
      'UNKNOWN_ENRICHMENT_KEY gen-zod /users get main nme',
      'UNKNOWN_ENRICHMENT_KEY gen-zod /pets get main nme',
      'UNKNOWN_ENRICHMENT_KEY gen-zod /pets get main tilte',
      'UNCONSUMED_ENRICHMENT gen-zod /pets pots',
    ])
    expect(forward.find((w) => w.path.at(-1) === 'pots')?.suggestion).toBeUndefined() // 2 edits, 4 chars
    expect(forward.find((w) => w.path.at(-1) === 'Pett')?.suggestion).toBe('Pet')
  })
})
