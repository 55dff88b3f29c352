/** What a {@link FairQueue} may hold and run. */
export type FairQueueOptions = {
  /** Items running at once, across all keys (at least 1). */
  readonly concurrency: number
  /** Items one key may have waiting and running together; one more is refused with {@link QueueFull}. */
  readonly maxPerKey: number
  /** Items one key may run at once; defaults to `concurrency`. */
  readonly maxRunningPerKey?: number
}

/** Thrown by {@link FairQueue.run} when the key already has `limit` items waiting or running. */
export class QueueFull extends Error {
  override readonly name = 'QueueFull'
  constructor(
    readonly key: string,
    readonly limit: number,
  ) {
    super(`${key} already has ${limit} items waiting or running`)
  }
}

type Waiting = {
  readonly start: () => void
  readonly cancel: (reason: unknown) => void
}

type KeyState = {
  readonly waiting: Waiting[]
  running: number
  /** When this key last had an item started (a sequence number; 0: never). */
  served: number
}

/**
 * Per-key FIFO queues served fairly: when a slot frees, the key with the fewest items running
 * goes next, and among those the one served least recently (a key never served first). So a key
 * that floods the queue takes turns with the others, and another key's first item waits for at
 * most one running item to end, whatever the flood's length.
 *
 * An item's task gets an AbortSignal that aborts when the caller's signal does: a waiting item is
 * then dropped without running; a running one must end on its own (its slot frees when its
 * promise settles).
 *
 * @example
 * const analyses = new FairQueue({ concurrency: 1, maxPerKey: 4 })
 * const result = await analyses.run(`user:${userId}`, (signal) => analyse(task, signal), {
 *   signal: request.signal,
 * })
 */
export class FairQueue {
  readonly #options: Required<FairQueueOptions>
  readonly #keys = new Map<string, KeyState>()
  #running = 0
  #sequence = 0

  constructor(options: FairQueueOptions) {
    if (options.concurrency < 1) throw new RangeError('concurrency must be at least 1')
    if (options.maxPerKey < 1) throw new RangeError('maxPerKey must be at least 1')
    this.#options = {
      ...options,
      maxRunningPerKey: Math.max(1, options.maxRunningPerKey ?? options.concurrency),
    }
  }

  /** Items running now, across all keys. */
  get running(): number {
    return this.#running
  }

  /** Items waiting now, across all keys. */
  get waiting(): number {
    let count = 0
    for (const state of this.#keys.values()) count += state.waiting.length
    return count
  }

  /** Items `key` has waiting and running. */
  size(key: string): number {
    const state = this.#keys.get(key)
    return state ? state.waiting.length + state.running : 0
  }

  /**
   * Runs `task` in `key`'s turn. Rejects with {@link QueueFull} at once when `key` is at
   * `maxPerKey`, and with the signal's reason when `options.signal` aborts before the task starts.
   */
  run<T>(
    key: string,
    task: (signal: AbortSignal) => Promise<T>,
    options: { readonly signal?: AbortSignal } = {},
  ): Promise<T> {
    const { signal } = options
    if (signal?.aborted) return Promise.reject(signal.reason)
    let state = this.#keys.get(key)
    if (state && state.waiting.length + state.running >= this.#options.maxPerKey) {
      return Promise.reject(new QueueFull(key, this.#options.maxPerKey))
    }
    if (!state) {
      state = { waiting: [], running: 0, served: 0 }
      this.#keys.set(key, state)
    }
    const own = state
    return new Promise<T>((resolve, reject) => {
      const controller = new AbortController()
      const onAbort = () => {
        controller.abort(signal?.reason)
        const at = own.waiting.indexOf(entry)
        if (at < 0) return
        own.waiting.splice(at, 1)
        this.#forget(key, own)
        reject(signal?.reason)
      }
      const entry: Waiting = {
        start: () => {
          own.running++
          this.#running++
          own.served = ++this.#sequence
          let work: Promise<T>
          try {
            work = task(controller.signal)
          } catch (error) {
            work = Promise.reject(error)
          }
          work.then(resolve, reject).finally(() => {
            signal?.removeEventListener('abort', onAbort)
            own.running--
            this.#running--
            this.#forget(key, own)
            this.#dispatch()
          })
        },
        cancel: (reason) => {
          signal?.removeEventListener('abort', onAbort)
          reject(reason)
        },
      }
      signal?.addEventListener('abort', onAbort, { once: true })
      own.waiting.push(entry)
      this.#dispatch()
    })
  }

  /** Drops every waiting item, rejecting it with `reason`; running items go on. */
  clear(reason: unknown): void {
    for (const [key, state] of this.#keys) {
      for (const entry of state.waiting.splice(0)) entry.cancel(reason)
      this.#forget(key, state)
    }
  }

  #dispatch(): void {
    while (this.#running < this.#options.concurrency) {
      const next = this.#next()
      if (!next) return
      next.waiting.shift()!.start()
    }
  }

  /** The key to serve next: fewest running, then least recently served. */
  #next(): KeyState | undefined {
    let best: KeyState | undefined
    for (const state of this.#keys.values()) {
      if (state.waiting.length === 0 || state.running >= this.#options.maxRunningPerKey) continue
      if (
        !best ||
        state.running < best.running ||
        (state.running === best.running && state.served < best.served)
      ) {
        best = state
      }
    }
    return best
  }

  #forget(key: string, state: KeyState): void {
    if (state.waiting.length === 0 && state.running === 0 && this.#keys.get(key) === state) {
      this.#keys.delete(key)
    }
  }
}
