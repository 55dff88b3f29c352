/** What {@link AccountAdmission} lets each account, and all of them, have under way. */
export type AccountAdmissionOptions = {
  /** What one account may have under way. */
  readonly perAccount: number
  /**
   * What all accounts together may have under way before each is held to its fair share: this
   * divided by the accounts with work under way, at least one each.
   */
  readonly total: number
}

/**
 * Counts what each account has under way: `enter` answers the function that gives the place
 * back, or the limit the account has reached. Past `total` across accounts, an account may hold
 * only its fair share, so that many accounts cannot fill the hub between them; an account with
 * nothing under way always gets its first place.
 *
 * @example
 * const place = admission.enter(`user:${userId}`)
 * if (typeof place === 'number') throw queueFull(place)
 * try { await work() } finally { place() }
 */
export class AccountAdmission {
  readonly #perAccount: number
  readonly #total: number
  readonly #counts = new Map<string, number>()
  #underWay = 0

  constructor(options: AccountAdmissionOptions) {
    if (options.perAccount < 1) throw new RangeError('perAccount must be at least 1')
    if (options.total < 1) throw new RangeError('total must be at least 1')
    this.#perAccount = options.perAccount
    this.#total = options.total
  }

  /** What `key` has under way now. */
  size(key: string): number {
    return this.#counts.get(key) ?? 0
  }

  /** What all accounts have under way now. */
  get underWay(): number {
    return this.#underWay
  }

  /** A place for `key`: the function that gives it back, or the limit `key` has reached. */
  enter(key: string): (() => void) | number {
    const count = this.size(key)
    const limit = this.#limitOf(key)
    if (count >= limit) return limit
    this.#counts.set(key, count + 1)
    this.#underWay++
    let released = false
    return () => {
      if (released) return
      released = true
      this.#underWay--
      const left = this.size(key) - 1
      if (left > 0) this.#counts.set(key, left)
      else this.#counts.delete(key)
    }
  }

  #limitOf(key: string): number {
    if (this.#underWay < this.#total) return this.#perAccount
    const accounts = this.#counts.size + (this.#counts.has(key) ? 0 : 1)
    return Math.min(this.#perAccount, Math.max(1, Math.floor(this.#total / accounts)))
  }
}
