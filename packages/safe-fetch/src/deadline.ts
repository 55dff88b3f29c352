import { OutboundFailed } from './errors.js'

type Interruption =
  | { readonly kind: 'timeout'; readonly timeoutMs: number }
  | { readonly kind: 'aborted'; readonly reason: unknown }

/**
 * The one deadline of an exchange (every hop and the body included) merged with the caller's
 * signal. Listeners added with `onInterrupt` run once when either fires; whoever holds a socket
 * destroys it then. A plain list rather than an AbortController: an EventTarget and its
 * listeners per request were a measurable share of a webhook delivery's CPU time.
 */
export class Deadline {
  readonly #timer: NodeJS.Timeout
  readonly #callerSignal: AbortSignal | undefined
  readonly #onCallerAbort = () =>
    this.#interrupt({ kind: 'aborted', reason: this.#callerSignal?.reason })
  #interruption: Interruption | undefined
  #listeners: Array<() => void> = []

  constructor(timeoutMs: number, callerSignal: AbortSignal | undefined) {
    this.#timer = setTimeout(() => this.#interrupt({ kind: 'timeout', timeoutMs }), timeoutMs)
    // The sockets keep the process alive while there is work; the timer alone should not.
    this.#timer.unref()
    this.#callerSignal = callerSignal
    if (callerSignal?.aborted) this.#onCallerAbort()
    else callerSignal?.addEventListener('abort', this.#onCallerAbort, { once: true })
  }

  /** Runs `listener` once when interrupted (never if already interrupted: check `failure` first). */
  onInterrupt(listener: () => void): void {
    if (this.#interruption === undefined) this.#listeners.push(listener)
  }

  /** Forgets a listener added with `onInterrupt`. */
  offInterrupt(listener: () => void): void {
    const index = this.#listeners.indexOf(listener)
    if (index !== -1) this.#listeners.splice(index, 1)
  }

  /** The failure to report for `url` once interrupted, else undefined. */
  failure(url: string): OutboundFailed | undefined {
    const interruption = this.#interruption
    if (interruption === undefined) return undefined
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
      const onInterrupt = () => reject(this.failure(url))
      this.onInterrupt(onInterrupt)
      promise.then(resolve, reject).finally(() => this.offInterrupt(onInterrupt))
    })
  }

  /** The exchange is over: stop the clock and stop listening to the caller. */
  end(): void {
    clearTimeout(this.#timer)
    this.#callerSignal?.removeEventListener('abort', this.#onCallerAbort)
  }

  #interrupt(interruption: Interruption): void {
    if (this.#interruption !== undefined) return
    this.end()
    this.#interruption = interruption
    const listeners = this.#listeners
    this.#listeners = []
    for (const listener of listeners) listener()
  }
}
