import { describe, expect, it } from 'vitest'
import { orderDefinitions } from './order-definitions.js'

/** Orders indices by an adjacency list: `edges[i]` are the indices that `i` must follow. */
const order = (edges: number[][]) => orderDefinitions(edges.length, (i) => edges[i] ?? [])

describe('orderDefinitions', () => {
  it('keeps registration order when nothing depends on anything', () => {
    expect(order([[], [], [], []])).toEqual([0, 1, 2, 3])
  })

  it('moves a definition after the ones it uses', () => {
    expect(order([[1], []])).toEqual([1, 0])
    expect(order([[1, 2], [2], []])).toEqual([2, 1, 0])
  })

  it('breaks ties by registration order: the earliest free definition goes next', () => {
    // 0 needs 2; 1 is free first, then 2, which frees 0.
    expect(order([[2], [], []])).toEqual([1, 2, 0])
    // 3 needs 0 and 1; 2 needs 0: the free ones go in registration order.
    expect(order([[], [], [0], [0, 1]])).toEqual([0, 1, 2, 3])
    expect(order([[3], [3], [], []])).toEqual([2, 3, 0, 1])
  })

  it('keeps the members of a cycle in registration order, as one block', () => {
    expect(order([[1], [0]])).toEqual([0, 1])
    // 1 ⇄ 2 form a cycle that needs 3; 0 is free.
    expect(order([[], [2], [1, 3], []])).toEqual([0, 3, 1, 2])
    // 4 needs the cycle 0 → 1 → 2 → 0, which comes first, in its own order.
    expect(order([[1], [2], [0], [], [2]])).toEqual([0, 1, 2, 3, 4])
    expect(order([[0]])).toEqual([0])
  })

  it('orders long chains without running out of stack', () => {
    const count = 50_000
    const chain = Array.from({ length: count }, (_, i) => (i + 1 < count ? [i + 1] : []))
    const result = order(chain)
    expect(result[0]).toBe(count - 1)
    expect(result.at(-1)).toBe(0)
    const ring = Array.from({ length: count }, (_, i) => [(i + 1) % count])
    expect(order(ring)).toEqual(Array.from({ length: count }, (_, i) => i))
  })
})
