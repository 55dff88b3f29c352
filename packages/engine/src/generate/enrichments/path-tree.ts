type PathNode = { readonly children: Map<string, PathNode> }

/**
 * A set of key paths closed under prefixes: adding `[a, b, c]` also adds `[a, b]` and `[a]`. The
 * audit asks it whether a configured path was consumed and, when not, which consumed keys sit
 * beside the first segment that diverges.
 */
export class PathTree {
  readonly #root: PathNode = { children: new Map() }

  add(path: readonly string[]): void {
    let node = this.#root
    for (const segment of path) {
      let child = node.children.get(segment)
      if (!child) {
        child = { children: new Map() }
        node.children.set(segment, child)
      }
      node = child
    }
  }

  has(path: readonly string[]): boolean {
    return this.divergence(path) === undefined
  }

  /**
   * Where `path` leaves the tree: the index of its first segment not stored below the segments
   * before it, and the keys stored there instead. `undefined` when the whole path is stored.
   */
  divergence(path: readonly string[]): { index: number; siblings: readonly string[] } | undefined {
    let node = this.#root
    for (let index = 0; index < path.length; index++) {
      const child = node.children.get(path[index]!)
      if (!child) return { index, siblings: [...node.children.keys()] }
      node = child
    }
    return undefined
  }
}

/** A string key for a path, for sets and maps; NUL cannot appear in a JSON key typed by hand. */
export function pathKey(path: readonly string[]): string {
  return path.join('\u0000')
}
