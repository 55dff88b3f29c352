import { describe, expect, it } from 'vitest'
import { blockDepth, blockRouteOf, generatorKindOf, routeOf, type Subject } from './routing.js'

const cases: { subject: Subject; route: string[]; depth: 1 | 2 }[] = [
  {
    subject: { kind: 'operation', path: '/pets/{id}', method: 'post' },
    route: ['gen', '/pets/{id}', 'post', 'main'],
    depth: 2,
  },
  {
    subject: { kind: 'webhook', name: 'newPet', method: 'post' },
    route: ['gen', 'newPet', 'post', 'main'],
    depth: 2,
  },
  {
    subject: { kind: 'graphql', rootKind: 'mutation', fieldName: 'createUser' },
    route: ['gen', 'mutation', 'createUser', 'main'],
    depth: 2,
  },
  { subject: { kind: 'model', refName: 'Pet' }, route: ['gen', 'Pet', 'main'], depth: 1 },
]

describe('routeOf', () => {
  it.each(cases)('routes a $subject.kind as [id, …keys, variant]', ({ subject, route }) => {
    expect(routeOf('gen', subject, 'main')).toEqual(route)
    expect(blockRouteOf('gen', subject)).toEqual(route.slice(0, -1))
  })

  it.each(cases)(
    'puts the $subject.kind block $depth key(s) below the id',
    ({ subject, depth }) => {
      expect(blockDepth(generatorKindOf(subject.kind))).toBe(depth)
      expect(blockRouteOf('gen', subject)).toHaveLength(depth + 1)
    },
  )

  it('lets operation generators take operations, webhooks and GraphQL root fields', () => {
    expect(
      ['operation', 'webhook', 'graphql', 'model'].map((k) =>
        generatorKindOf(k as Subject['kind']),
      ),
    ).toEqual(['operation', 'operation', 'operation', 'model'])
  })
})
