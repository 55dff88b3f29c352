/**
 * Counts what each account has under way, up to `limit` each: `enter` answers the function
 * that gives the place back, or `undefined` when the account has no place left.
 *
 * @example
 * const release = admission.enter(`user:${userId}`)
 * if (!release) throw queueFull()
 * try { await work() } finally { release() }
 */
export class AccountAdmission {
  readonly #limit: number
  readonly #counts = new Map<string, number>()

  constructor(limit: number) {
    if (limit < 1) throw new RangeError('limit must be at least 1')
    this.#limit = limit
  }

  /** What `key` has under way now. */
  size(key: string): number {
    return this.#counts.get(key) ?? 0
  }

  enter(key: string): (() => void) | undefined {
    const count = this.size(key)
    if (count >= this.#limit) return undefined
    this.#counts.set(key, count + 1)
    let released = false
    return () => {
      if (released) return
      released = true
      const left = this.size(key) - 1
      if (left > 0) this.#counts.set(key, left)
      else this.#counts.delete(key)
    }
  }
}
