import type { DocumentNode } from 'graphql'

/**
 * The last SDL trees the diff parsed with their offsets, held weakly: finding the places of a
 * changelog's changes right after the diff reads the same texts again, and a tree still alive
 * spares that read (a megabyte schema costs a tenth of the whole diff to scan). A tree the
 * garbage collector took is simply read again; nothing here keeps a tree or a text alive.
 */
const RECENT: WeakRef<DocumentNode>[] = []
const KEPT = 2

export function rememberTree(tree: DocumentNode): void {
  RECENT.unshift(new WeakRef(tree))
  RECENT.length = Math.min(RECENT.length, KEPT)
}

/** A remembered tree of exactly this text, if the garbage collector left it. */
export function recentTree(text: string): DocumentNode | undefined {
  for (const ref of RECENT) {
    const tree = ref.deref()
    if (tree?.loc?.source.body === text) return tree
  }
  return undefined
}
