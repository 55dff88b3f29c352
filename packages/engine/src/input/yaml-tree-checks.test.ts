import { beforeAll, describe, expect, it } from 'vitest'
import { DuplicateKey, ExpandedSizeExceeded, checkYamlTree } from './yaml-tree-checks.js'
import { loadYaml, yamlModule } from './yaml-module.js'

beforeAll(loadYaml)

const parsed = (text: string) => yamlModule().parseDocument(text, { uniqueKeys: false })

/** Nodes of a decoded value as the check counts them: every value and every key. */
function decodedNodes(value: unknown): number {
  if (value === null || typeof value !== 'object') return 1
  if (Array.isArray(value)) return 1 + value.reduce((sum: number, v) => sum + decodedNodes(v), 0)
  return Object.values(value).reduce((sum: number, v) => sum + 1 + decodedNodes(v), 1)
}

describe('checkYamlTree', () => {
  it('counts what the decoded value holds once every alias is expanded', () => {
    const text = [
      'base: &base { type: object, properties: { id: { type: string }, tags: [a, b] } }',
      'one: *base',
      'list: [*base, *base, { nested: *base }]',
      'scalar: &s hello',
      'again: *s',
    ].join('\n')
    const doc = parsed(text)
    expect(checkYamlTree(doc, Infinity)).toBe(decodedNodes(doc.toJS()))
  })

  it('counts aliases of aliases without expanding them', () => {
    // Ten levels of ten aliases each: 10^10 nodes, counted from 120 lines.
    const lines = ['l0: &l0 [x, x, x, x, x, x, x, x, x, x]']
    for (let i = 1; i <= 10; i++) lines.push(`l${i}: &l${i} [${Array(10).fill(`*l${i - 1}`)}]`)
    expect(() => checkYamlTree(parsed(lines.join('\n')), 1e9)).toThrow(ExpandedSizeExceeded)
    const three = parsed(lines.slice(0, 4).join('\n'))
    expect(checkYamlTree(three, Infinity)).toBe(decodedNodes(three.toJS({ maxAliasCount: -1 })))
  })

  it('stops at the first node over the limit, naming it', () => {
    const error = (() => {
      try {
        checkYamlTree(parsed('a: &a [1, 2, 3]\nb: [*a, *a, *a]\n'), 10)
      } catch (caught) {
        return caught
      }
    })()
    expect(error).toBeInstanceOf(ExpandedSizeExceeded)
    expect(error).toMatchObject({ max: 10 })
  })

  it('uses the anchor defined last before the alias', () => {
    const doc = parsed('a: &x [1, 2, 3, 4, 5]\nb: &x 1\nc: *x\n')
    expect(doc.toJS()).toEqual({ a: [1, 2, 3, 4, 5], b: 1, c: 1 })
    expect(checkYamlTree(doc, Infinity)).toBe(decodedNodes(doc.toJS()))
  })

  it('counts an alias inside its own anchor as one node', () => {
    expect(checkYamlTree(parsed('a: &a [1, *a]\n'), Infinity)).toBe(5)
  })

  it('finds a duplicate key where the parser would, in linear time', () => {
    const keys = Array.from({ length: 50_000 }, (_, i) => `k${i}: ${i}`)
    expect(checkYamlTree(parsed(keys.join('\n')), Infinity)).toBe(100_001)
    const text = `a:\n  x: 1\n  y: 2\n  x: 3\n`
    const error = (() => {
      try {
        checkYamlTree(parsed(text), Infinity)
      } catch (caught) {
        return caught as DuplicateKey
      }
    })()
    expect(error).toBeInstanceOf(DuplicateKey)
    expect(text.slice(error!.offset)).toBe('x: 3\n')
  })

  it('tells apart keys that only look alike', () => {
    expect(() =>
      checkYamlTree(parsed('1: a\n"1": b\ntrue: c\n"true": d\n'), Infinity),
    ).not.toThrow()
  })
})
