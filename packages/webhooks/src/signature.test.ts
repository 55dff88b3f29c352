import { createHmac } from 'node:crypto'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { SECRET } from '../test/fixtures.js'
import { computeSignature, signWebhook } from './index.js'

const T = 1767225600
const BODY = '{"specversion":"1.0","id":"evt_1","type":"dev.svc.api.test.v1"}'

describe('computeSignature', () => {
  it('is the hex HMAC-SHA256 of "<t>.<body>" keyed by the whole secret', () => {
    const independent = createHmac('sha256', Buffer.from(SECRET, 'utf8'))
      .update(`${T}.${BODY}`, 'utf8')
      .digest('hex')
    expect(computeSignature(SECRET, T, BODY)).toBe(independent)
    // Computed once with `openssl dgst -sha256 -hmac`.
    expect(computeSignature(SECRET, T, BODY)).toBe(
      '44886febe2970e825be21e7d8c85566bc35975550c6b3af6388a12e58edcb3b7',
    )
  })

  it('keys with the whsec_ prefix included', () => {
    const withoutPrefix = createHmac('sha256', SECRET.slice('whsec_'.length))
      .update(`${T}.${BODY}`)
      .digest('hex')
    expect(computeSignature(SECRET, T, BODY)).not.toBe(withoutPrefix)
  })

  it('signs a string and its UTF-8 bytes alike', () => {
    const body = '{"message":"déjà vu 🦜"}'
    const expected = computeSignature(SECRET, T, body)
    expect(computeSignature(SECRET, T, new TextEncoder().encode(body))).toBe(expected)
    expect(computeSignature(SECRET, T, Buffer.from(body))).toBe(expected)
  })

  it('refuses an empty secret and a timestamp that is not whole seconds', () => {
    expect(() => computeSignature('', T, BODY)).toThrow(TypeError)
    expect(() => computeSignature(SECRET, T + 0.5, BODY)).toThrow(TypeError)
    expect(() => computeSignature(SECRET, -1, BODY)).toThrow(TypeError)
  })
})

describe('signWebhook', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('makes t=<seconds>,v1=<64 lowercase hex>', () => {
    const header = signWebhook(SECRET, BODY, T)
    expect(header).toBe(`t=${T},v1=${computeSignature(SECRET, T, BODY)}`)
    expect(header).toMatch(/^t=[0-9]+,v1=[0-9a-f]{64}$/)
  })

  it('takes the timestamp from the clock, in seconds, by default', () => {
    vi.useFakeTimers({ now: T * 1000 + 999 })
    expect(signWebhook(SECRET, BODY)).toBe(signWebhook(SECRET, BODY, T))
  })
})
