import { OutboundFailed } from './errors.js'

type Interruption =
  | { readonly kind: 'timeout'; readonly timeoutMs: number }
  | { readonly kind: 'aborted'; readonly reason: unknown }

/**
 * The one deadline of an exchange (every hop and the body included) merged with the caller's
 * signal. `signal` aborts when either fires; whoever holds a socket destroys it then.
 */
export class Deadline {
  readonly #controller = new AbortController()
  readonly #timer: NodeJS.Timeout
  readonly #callerSignal: AbortSignal | undefined
  readonly #onCallerAbort = () =>
    this.#interrupt({ kind: 'aborted', reason: this.#callerSignal?.reason })

  constructor(timeoutMs: number, callerSignal: AbortSignal | undefined) {
    this.#timer = setTimeout(() => this.#interrupt({ kind: 'timeout', timeoutMs }), timeoutMs)
    // The sockets keep the process alive while there is work; the timer alone should not.
    this.#timer.unref()
    this.#callerSignal = callerSignal
    if (callerSignal?.aborted) this.#onCallerAbort()
    else callerSignal?.addEventListener('abort', this.#onCallerAbort, { once: true })
  }

  get signal(): AbortSignal {
    return this.#controller.signal
  }

  /** The failure to report for `url` once interrupted, else undefined. */
  failure(url: string): OutboundFailed | undefined {
    if (!this.#controller.signal.aborted) return undefined
    const interruption = this.#controller.signal.reason as Interruption
    if (interruption.kind === 'timeout') {
      return new OutboundFailed(
        'timeout',
        url,
        `no complete answer within ${interruption.timeoutMs} ms`,
      )
    }
    const { reason } = interruption
    // AbortSignal.timeout() from the caller is a deadline too.
    const code = reason instanceof Error && reason.name === 'TimeoutError' ? 'timeout' : 'network'
    return new OutboundFailed(code, url, 'the request was aborted by its caller', { cause: reason })
  }

  /** `promise`, unless the deadline or the caller's signal comes first. */
  race<T>(promise: Promise<T>, url: string): Promise<T> {
    const early = this.failure(url)
    if (early) return Promise.reject(early)
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => reject(this.failure(url))
      this.signal.addEventListener('abort', onAbort, { once: true })
      promise.then(resolve, reject).finally(() => this.signal.removeEventListener('abort', onAbort))
    })
  }

  /** The exchange is over: stop the clock and stop listening to the caller. */
  end(): void {
    clearTimeout(this.#timer)
    this.#callerSignal?.removeEventListener('abort', this.#onCallerAbort)
  }

  #interrupt(interruption: Interruption): void {
    if (this.#controller.signal.aborted) return
    this.end()
    this.#controller.abort(interruption)
  }
}
