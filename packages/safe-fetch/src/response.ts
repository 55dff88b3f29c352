import type { IncomingMessage } from 'node:http'
import type { Deadline } from './deadline.js'
import { OutboundFailed } from './errors.js'

export type SafeResponse = {
  readonly status: number
  /** The URL that answered (after redirects). */
  readonly url: string
  /** The Location URLs followed, in order. */
  readonly redirects: readonly string[]
  /** Case-insensitive; multiple values joined with `', '`. */
  header(name: string): string | undefined
  /**
   * The whole body; OutboundFailed `too_large` past maxBytes (the socket is destroyed at once,
   * nothing more is buffered); `timeout` at the deadline.
   */
  bytes(maxBytes: number): Promise<Uint8Array>
  text(maxBytes: number): Promise<string>
  /** At most maxBytes of the body as UTF-8 text (lossy at the cut), then the rest is discarded; never throws too_large. */
  excerpt(maxBytes: number): Promise<string>
  /** Drops the body without reading it (the connection may be reused when the body was already complete, else destroyed). */
  discard(): void
}

/** How a body read ends past its limit: fail, or keep the first bytes. */
type Overflow = 'fail' | 'cut'

/** @internal The response of the last hop; the body can be taken once. */
export class SafeResponseImpl implements SafeResponse {
  readonly status: number
  readonly #message: IncomingMessage
  readonly #deadline: Deadline
  #taken = false

  constructor(
    message: IncomingMessage,
    readonly url: string,
    readonly redirects: readonly string[],
    deadline: Deadline,
  ) {
    this.status = message.statusCode ?? 0
    this.#message = message
    this.#deadline = deadline
    deadline.onInterrupt(() => message.destroy())
  }

  header(name: string): string | undefined {
    const value = this.#message.headers[name.toLowerCase()]
    return Array.isArray(value) ? value.join(', ') : value
  }

  bytes(maxBytes: number): Promise<Uint8Array> {
    return this.#read(maxBytes, 'fail')
  }

  async text(maxBytes: number): Promise<string> {
    return new TextDecoder().decode(await this.#read(maxBytes, 'fail'))
  }

  async excerpt(maxBytes: number): Promise<string> {
    return new TextDecoder().decode(await this.#read(maxBytes, 'cut'))
  }

  discard(): void {
    if (this.#taken) return
    this.#taken = true
    this.#deadline.end()
    void discardBody(this.#message)
  }

  #read(maxBytes: number, overflow: Overflow): Promise<Uint8Array> {
    if (!Number.isSafeInteger(maxBytes) || maxBytes < 0) {
      return Promise.reject(
        new RangeError(`maxBytes must be a non-negative integer, not ${maxBytes}`),
      )
    }
    if (this.#taken) return Promise.reject(new TypeError('the body was already read or discarded'))
    this.#taken = true
    return readBody(this.#message, maxBytes, overflow, this.#deadline, this.url).finally(() =>
      this.#deadline.end(),
    )
  }
}

function readBody(
  message: IncomingMessage,
  maxBytes: number,
  overflow: Overflow,
  deadline: Deadline,
  url: string,
): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const early = deadline.failure(url)
    if (early) {
      message.destroy()
      return reject(early)
    }
    const tooLarge = () =>
      new OutboundFailed('too_large', url, `the body is larger than ${maxBytes} bytes`)
    const declared = Number(message.headers['content-length'])
    if (overflow === 'fail' && declared > maxBytes) {
      message.destroy()
      return reject(tooLarge())
    }
    const chunks: Buffer[] = []
    let size = 0
    const finish = (result: Error | Uint8Array) => {
      message.off('data', onData).off('end', onEnd).off('close', onClose)
      deadline.offInterrupt(onAbort)
      if (result instanceof Error) reject(result)
      else resolve(result)
    }
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size <= maxBytes) return void chunks.push(chunk)
      // Past the limit: stop reading and drop the connection rather than drain an unknown rest.
      message.destroy()
      if (overflow === 'fail') return finish(tooLarge())
      chunks.push(chunk.subarray(0, chunk.length - (size - maxBytes)))
      finish(Buffer.concat(chunks))
    }
    const onEnd = () => finish(Buffer.concat(chunks, size))
    const onClose = () => {
      if (!message.complete) finish(deadline.failure(url) ?? closedEarly(url, message.errored))
    }
    const onAbort = () => finish(deadline.failure(url) ?? closedEarly(url, undefined))
    deadline.onInterrupt(onAbort)
    message.on('data', onData).on('end', onEnd).on('close', onClose)
  })
}

function closedEarly(url: string, cause: Error | null | undefined): OutboundFailed {
  return new OutboundFailed('network', url, 'the connection closed before the body ended', {
    cause,
  })
}

/**
 * @internal Drops a body unread: a complete one is drained, handing its socket back to the pool
 * (which happens just after 'end', hence the promise), anything else is destroyed.
 */
export function discardBody(message: IncomingMessage): Promise<void> {
  if (!message.complete) {
    message.destroy()
    return Promise.resolve()
  }
  return new Promise((resolve) => {
    message.once('end', resolve).once('close', resolve).resume()
  })
}
