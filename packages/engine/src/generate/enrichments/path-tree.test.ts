import { describe, expect, it } from 'vitest'
import { PathTree } from './path-tree.js'

describe('PathTree', () => {
  it('holds every prefix of an added path', () => {
    const tree = new PathTree()
    tree.add(['gen', '/pets', 'post', 'main'])
    expect(tree.has(['gen', '/pets', 'post', 'main'])).toBe(true)
    expect(tree.has(['gen', '/pets', 'post'])).toBe(true)
    expect(tree.has(['gen', '/pets'])).toBe(true)
    expect(tree.has(['gen'])).toBe(true)
    expect(tree.has(['gen', '/pets', 'get'])).toBe(false)
    expect(tree.has(['gen', '/pets', 'post', 'main', 'deeper'])).toBe(false)
  })

  it('tells where a path leaves the tree and what is stored there', () => {
    const tree = new PathTree()
    tree.add(['gen', '/pets', 'get'])
    tree.add(['gen', '/pets', 'post'])
    expect(tree.divergence(['gen', '/pets', 'pots'])).toEqual({
      index: 2,
      siblings: ['get', 'post'],
    })
    expect(tree.divergence(['other'])).toEqual({ index: 0, siblings: ['gen'] })
    expect(tree.divergence(['gen', '/pets'])).toBeUndefined()
  })
})
