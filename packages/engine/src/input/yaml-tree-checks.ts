import type { Document, Node as YamlNode } from 'yaml'
import { yamlModule } from './yaml-module.js'

/** A YAML document's tree, with every alias replaced by what it names, has over `max` nodes. */
export class ExpandedSizeExceeded extends Error {
  override readonly name = 'ExpandedSizeExceeded'
  constructor(readonly max: number) {
    super(`more than ${max} nodes once aliases are expanded`)
  }
}

/** A mapping has the same scalar key twice; `offset` is where the second one starts. */
export class DuplicateKey extends Error {
  override readonly name = 'DuplicateKey'
  constructor(readonly offset: number) {
    super('Map keys must be unique')
  }
}

/**
 * One walk of a YAML document parsed with `uniqueKeys: false`, in document order, that throws
 * {@link DuplicateKey} at the first key a mapping already has, and {@link ExpandedSizeExceeded}
 * as soon as the tree, aliases expanded, passes `maxExpandedNodes` nodes (a mapping, a sequence,
 * a key and a scalar count one each). Returns the expanded size.
 *
 * The parser's own key check compares each key with every earlier one: a mapping of 30,000 keys
 * (1.5 MB) took 10 s to parse. Here each mapping keeps its keys in a set.
 *
 * yaml's `toJS` gives every alias of an anchor the same object, so a few aliases of a large
 * anchor decode to a graph whose expanded tree is a thousand times the text, and everything after
 * decoding (the parser, the diff) walks it once per alias. The count is taken on the AST without
 * expanding anything: each anchored node's size is computed when it is walked and reused by its
 * aliases.
 *
 * @example
 * checkYamlTree(parseDocument(text, { uniqueKeys: false }), 10_000_000)
 */
export function checkYamlTree(doc: Document.Parsed, maxExpandedNodes: number): number {
  const { isAlias, isMap, isPair, isScalar, isSeq } = yamlModule()
  /** The node each anchor name names at this point of the walk (document order). */
  const anchors = new Map<string, YamlNode>()
  /** Sizes of anchored nodes, once walked; an anchored node being walked is absent. */
  const sizes = new Map<YamlNode, number>()
  const within = (count: number): number => {
    if (count > maxExpandedNodes) throw new ExpandedSizeExceeded(maxExpandedNodes)
    return count
  }

  const size = (node: unknown): number => {
    if (node === null || node === undefined) return 0
    if (isAlias(node)) {
      const target = anchors.get(node.source)
      // An alias inside its own anchor makes a cycle, which decodes to one shared object: a
      // reader that does not track cycles never ends on it anyway, one that does sees one node.
      return target ? (sizes.get(target) ?? 1) : 1
    }
    if (isPair(node)) return within(size(node.key) + size(node.value))
    if (!isScalar(node) && !isMap(node) && !isSeq(node)) return 0
    const { anchor } = node
    if (anchor) anchors.set(anchor, node)
    let count = 1
    if (isMap(node)) {
      const keys = new Set<unknown>()
      for (const pair of node.items) {
        const { key } = pair
        if (isScalar(key)) {
          if (keys.has(key.value)) throw new DuplicateKey(key.range?.[0] ?? 0)
          keys.add(key.value)
        }
        count = within(count + size(pair))
      }
    } else if (isSeq(node)) {
      for (const item of node.items) count = within(count + size(item))
    }
    if (anchor) sizes.set(node, count)
    return count
  }

  return within(size(doc.contents))
}
