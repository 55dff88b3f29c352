import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { decodeInSlices, digestInSlices, TextDigest } from './text-digest.js'

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

/** `bytes` cut into chunks of `size` bytes, which split multi-byte characters. */
function chunked(bytes: Uint8Array, size: number): Uint8Array[] {
  const chunks: Uint8Array[] = []
  for (let at = 0; at < bytes.byteLength; at += size) chunks.push(bytes.subarray(at, at + size))
  return chunks
}

function digestOf(chunks: readonly Uint8Array[]) {
  const digest = new TextDigest()
  for (const chunk of chunks) digest.update(chunk)
  return digest.digest()
}

// A document with characters of 1 to 4 bytes in UTF-8, and a BOM at the start.
const TEXT = '\ufeffopenapi: 3.1.0\ninfo: { title: "Café ☕ 𝄞 日本" }\n'.repeat(50)
const BYTES = new TextEncoder().encode(TEXT)

describe('TextDigest', () => {
  it('gives the hash and text of the whole, however the bytes were cut', () => {
    const whole = { sha256: sha256(BYTES), text: new TextDecoder().decode(BYTES) }
    for (const size of [1, 2, 3, 7, 64, BYTES.byteLength]) {
      expect(digestOf(chunked(BYTES, size))).toEqual(whole)
    }
  })

  it('gives no text for bytes that are not UTF-8, invalid or cut short, and still the hash', () => {
    const invalid = Uint8Array.from([...BYTES.subarray(0, 40), 0xff, ...BYTES.subarray(40)])
    expect(digestOf(chunked(invalid, 5))).toEqual({ sha256: sha256(invalid), text: undefined })
    // The last character cut in half: its first bytes wait for the rest, which never comes.
    const cut = new TextEncoder().encode('title: 𝄞').subarray(0, -1)
    expect(digestOf(chunked(cut, 3))).toEqual({ sha256: sha256(cut), text: undefined })
  })

  it('digests nothing as the empty text', () => {
    expect(digestOf([])).toEqual({ sha256: sha256(new Uint8Array(0)), text: '' })
  })
})

describe('in slices', () => {
  // Over 2 MiB, so that slices of 1 MiB end inside characters.
  const large = new TextEncoder().encode('𝄞 Café ☕\n'.repeat(200_000))

  it('digestInSlices gives what one pass does', async () => {
    expect(await digestInSlices(large)).toEqual({
      sha256: sha256(large),
      text: new TextDecoder('utf-8', { fatal: true }).decode(large),
    })
  })

  it('decodeInSlices gives what one pass does, invalid sequences replaced alike', async () => {
    const invalid = Uint8Array.from(large)
    invalid[1024 * 1024 - 1] = 0xf0
    invalid[1024 * 1024 + 5] = 0xff
    expect(await decodeInSlices(invalid)).toBe(new TextDecoder().decode(invalid))
    expect(await decodeInSlices(large)).toBe(new TextDecoder().decode(large))
  })

  it('serve the event loop between slices', async () => {
    let turns = 0
    let counting = true
    const count = () => {
      if (!counting) return
      turns++
      setImmediate(count)
    }
    setImmediate(count)
    await digestInSlices(large)
    await decodeInSlices(large)
    counting = false
    expect(turns).toBeGreaterThanOrEqual(4)
  })
})
