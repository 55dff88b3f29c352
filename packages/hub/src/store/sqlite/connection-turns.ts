/**
 * Turns on the one SQLite connection of a process, first come first served: a query, a stream or
 * a whole transaction holds it, and whoever comes next waits for `give()`. Kysely's SqliteDriver
 * keeps such a lock too, but private; the hub's driver must also give the connection up while it
 * waits for another process's write lock (`pause`), so that other requests run meanwhile.
 */
export class ConnectionTurns {
  #held = false
  readonly #waiting: (() => void)[] = []

  /** Answers once the connection is this caller's. */
  take(): Promise<void> {
    if (!this.#held) {
      this.#held = true
      return Promise.resolve()
    }
    return new Promise((resolve) => this.#waiting.push(resolve))
  }

  /** Hands the connection to the next in line, or frees it. */
  give(): void {
    const next = this.#waiting.shift()
    if (next) next()
    else this.#held = false
  }

  /** Gives the connection up for `ms`, then waits for it again behind whoever came meanwhile. */
  async pause(ms: number): Promise<void> {
    this.give()
    await new Promise((resolve) => setTimeout(resolve, ms))
    await this.take()
  }
}
