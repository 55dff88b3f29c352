/**
 * A Map that keeps at most `size` keys and drops the least recently used one to make room. A
 * Map iterates in insertion order, so moving a key to the end on each use keeps the least
 * recently used one first.
 */
export class Lru<K, V> {
  readonly #entries = new Map<K, V>()
  readonly #size: number

  constructor(size: number) {
    this.#size = size
  }

  /** The value of `key`, which is now the most recently used. */
  get(key: K): V | undefined {
    const value = this.#entries.get(key)
    if (value !== undefined) {
      this.#entries.delete(key)
      this.#entries.set(key, value)
    }
    return value
  }

  /** Sets `key` as the most recently used; answers the entry dropped to make room, if any. */
  set(key: K, value: V): [K, V] | undefined {
    this.#entries.delete(key)
    this.#entries.set(key, value)
    if (this.#entries.size <= this.#size) return undefined
    const [oldest] = this.#entries
    this.#entries.delete(oldest![0])
    return oldest
  }

  delete(key: K): void {
    this.#entries.delete(key)
  }

  clear(): void {
    this.#entries.clear()
  }
}
