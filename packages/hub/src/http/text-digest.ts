import { createHash } from 'node:crypto'
import { setImmediate as nextTurn } from 'node:timers/promises'

/** What {@link TextDigest} found: the SHA-256 of the bytes, and their text if valid UTF-8. */
export type Digested = { readonly sha256: string; readonly text: string | undefined }

/**
 * Bytes taken a chunk at a time, as a body arrives: their SHA-256 (hex) and their text, decoded
 * as strict UTF-8 (a leading BOM dropped), so that neither waits for the whole body nor blocks
 * the event loop for long once it is there.
 */
export class TextDigest {
  readonly #hash = createHash('sha256')
  readonly #decoder = new TextDecoder('utf-8', { fatal: true })
  #pieces: string[] | undefined = []

  update(chunk: Uint8Array): void {
    this.#hash.update(chunk)
    if (!this.#pieces) return
    try {
      this.#pieces.push(this.#decoder.decode(chunk, { stream: true }))
    } catch {
      this.#pieces = undefined
    }
  }

  /** The hash and the text (undefined when the bytes are not UTF-8); call once, at the end. */
  digest(): Digested {
    let text: string | undefined
    if (this.#pieces) {
      try {
        this.#pieces.push(this.#decoder.decode())
        text = this.#pieces.join('')
      } catch {
        text = undefined
      }
      this.#pieces = undefined
    }
    return { sha256: this.#hash.digest('hex'), text }
  }
}

/** A slice of bytes that takes a few milliseconds to hash and decode. */
const SLICE_BYTES = 1024 * 1024

/** {@link TextDigest} of bytes already in memory, a slice at a time, the event loop served between. */
export async function digestInSlices(bytes: Uint8Array): Promise<Digested> {
  const digest = new TextDigest()
  for (let at = 0; at < bytes.byteLength; at += SLICE_BYTES) {
    if (at > 0) await nextTurn()
    digest.update(bytes.subarray(at, at + SLICE_BYTES))
  }
  return digest.digest()
}

/**
 * `bytes` decoded as UTF-8 (invalid sequences replaced, as `new TextDecoder().decode` does), a
 * slice at a time with the event loop served between slices.
 */
export async function decodeInSlices(bytes: Uint8Array): Promise<string> {
  const decoder = new TextDecoder()
  const pieces: string[] = []
  for (let at = 0; at < bytes.byteLength; at += SLICE_BYTES) {
    if (at > 0) await nextTurn()
    pieces.push(decoder.decode(bytes.subarray(at, at + SLICE_BYTES), { stream: true }))
  }
  pieces.push(decoder.decode())
  return pieces.join('')
}
