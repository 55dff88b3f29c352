/**
 * The dispatcher's writes to its own rows, one at a time. A lease renewal and an outcome batch
 * may touch the same rows, and on PostgreSQL two statements that lock the same rows in
 * different orders can deadlock; in turn, they cannot.
 */
export class StoreWrites {
  #last: Promise<unknown> = Promise.resolve()

  /** Runs `write` once the writes before it have settled; answers (or throws) what it does. */
  run<T>(write: () => Promise<T>): Promise<T> {
    const next = this.#last.then(write, write)
    this.#last = next.catch(() => {})
    return next
  }
}
