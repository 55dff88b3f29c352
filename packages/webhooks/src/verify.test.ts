import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { revisionEvent, SECRET, testEvent } from '../test/fixtures.js'
import {
  computeSignature,
  REVISION_EVENT,
  signWebhook,
  verifyWebhook,
  WebhookVerificationError,
  type VerificationFailure,
  type VerifyOptions,
} from './index.js'

const T = 1767225600
const AT_T: VerifyOptions = { now: () => T * 1000 }
const BODY = JSON.stringify(revisionEvent)
const HEADER = signWebhook(SECRET, BODY, T)
const HEX = computeSignature(SECRET, T, BODY)

function failure(verify: () => unknown): VerificationFailure {
  try {
    verify()
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error.code
    throw error
  }
  throw new Error('verifyWebhook accepted the request')
}

describe('verifyWebhook accepts', () => {
  it('a signed revision event and returns it typed', () => {
    const event = verifyWebhook(BODY, HEADER, SECRET, AT_T)
    expect(event).toEqual(revisionEvent)
    if (event.type !== REVISION_EVENT) throw new Error('expected a revision event')
    expect(event.data.counts.breaking).toBe(1)
  })

  it('a signed test event', () => {
    const body = JSON.stringify(testEvent)
    expect(verifyWebhook(body, signWebhook(SECRET, body, T), SECRET, AT_T)).toEqual(testEvent)
  })

  it('a byte body and a string body alike, whichever was signed', () => {
    const bytes = new TextEncoder().encode(BODY)
    expect(verifyWebhook(bytes, HEADER, SECRET, AT_T)).toEqual(revisionEvent)
    expect(verifyWebhook(Buffer.from(BODY), HEADER, SECRET, AT_T)).toEqual(revisionEvent)
    const signedBytes = signWebhook(SECRET, bytes, T)
    expect(signedBytes).toBe(HEADER)
    expect(verifyWebhook(BODY, signedBytes, SECRET, AT_T)).toEqual(revisionEvent)
  })

  it('several v1 entries when any one matches, ignoring other schemes', () => {
    const other = computeSignature(`${SECRET}old`, T, BODY)
    expect(verifyWebhook(BODY, `t=${T},v1=${other},v1=${HEX}`, SECRET, AT_T)).toEqual(revisionEvent)
    expect(verifyWebhook(BODY, `t=${T},v0=not-ours,v1=${HEX},x=1`, SECRET, AT_T)).toEqual(
      revisionEvent,
    )
    expect(verifyWebhook(BODY, `v1=${HEX}, t=${T}`, SECRET, AT_T)).toEqual(revisionEvent)
  })

  it('a header sent twice (as node:http joins it, or as an array)', () => {
    const other = computeSignature(`${SECRET}old`, T, BODY)
    expect(verifyWebhook(BODY, `t=${T},v1=${other}, t=${T},v1=${HEX}`, SECRET, AT_T)).toEqual(
      revisionEvent,
    )
    expect(verifyWebhook(BODY, [`t=${T},v1=${other}`, HEADER], SECRET, AT_T)).toEqual(revisionEvent)
  })

  it('a match with any of several secrets, as during a rotation', () => {
    const old = 'whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'
    expect(verifyWebhook(BODY, HEADER, [old, SECRET], AT_T)).toEqual(revisionEvent)
    expect(verifyWebhook(BODY, HEADER, [SECRET, old], AT_T)).toEqual(revisionEvent)
    expect(failure(() => verifyWebhook(BODY, HEADER, [old, `${SECRET}x`], AT_T))).toBe(
      'signature_mismatch',
    )
  })

  it('t up to the tolerance away, either way', () => {
    for (const offset of [-300, -299, 0, 299, 300]) {
      const header = signWebhook(SECRET, BODY, T + offset)
      expect(verifyWebhook(BODY, header, SECRET, AT_T)).toEqual(revisionEvent)
    }
  })
})

describe('verifyWebhook refuses', () => {
  it('a missing header', () => {
    for (const header of [undefined, null, '', '  ']) {
      expect(failure(() => verifyWebhook(BODY, header, SECRET, AT_T))).toBe('missing_signature')
    }
  })

  it('a malformed header', () => {
    const headers = [
      `v1=${HEX}`, // no t
      `t=${T}`, // no v1
      `t=${T},v0=${HEX}`, // no v1, only another scheme
      `t=${T},v1=${'z'.repeat(64)}`, // not hex
      `t=${T},v1=${HEX.slice(1)}`, // 63 digits
      `t=${T},v1=${HEX}00`, // 66 digits
      `t=${T},v1=${HEX.toUpperCase()}`, // not lowercase
      `t=${T},v1=`, // empty
      `t=,v1=${HEX}`,
      `t=${T}.5,v1=${HEX}`,
      `t=-${T},v1=${HEX}`,
      `t=${T},t=${T + 1},v1=${HEX}`, // two different t
      `t=${T};v1=${HEX}`,
      `t=${T},${HEX}`,
      'garbage',
      '=,=',
    ]
    for (const header of headers) {
      expect(
        failure(() => verifyWebhook(BODY, header, SECRET, AT_T)),
        header,
      ).toBe('malformed_signature')
    }
  })

  it('a body changed by one byte', () => {
    const bytes = Buffer.from(BODY)
    for (const index of [0, bytes.length >> 1, bytes.length - 1]) {
      const tampered = Buffer.from(bytes)
      tampered[index] = tampered[index]! ^ 0x01
      expect(failure(() => verifyWebhook(tampered, HEADER, SECRET, AT_T))).toBe(
        'signature_mismatch',
      )
    }
    expect(failure(() => verifyWebhook(`${BODY} `, HEADER, SECRET, AT_T))).toBe(
      'signature_mismatch',
    )
  })

  it('another secret', () => {
    const other = 'whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'
    expect(failure(() => verifyWebhook(BODY, HEADER, other, AT_T))).toBe('signature_mismatch')
  })

  it('a signature keyed by the secret without its whsec_ prefix, and the reverse', () => {
    const bare = SECRET.slice('whsec_'.length)
    const keyedByBare = createHmac('sha256', bare).update(`${T}.${BODY}`).digest('hex')
    expect(failure(() => verifyWebhook(BODY, `t=${T},v1=${keyedByBare}`, SECRET, AT_T))).toBe(
      'signature_mismatch',
    )
    expect(failure(() => verifyWebhook(BODY, HEADER, bare, AT_T))).toBe('signature_mismatch')
  })

  it('t more than the tolerance away, either way', () => {
    for (const offset of [-301, 301, -86_400, 86_400]) {
      const header = signWebhook(SECRET, BODY, T + offset)
      expect(
        failure(() => verifyWebhook(BODY, header, SECRET, AT_T)),
        `${offset}`,
      ).toBe('timestamp_out_of_tolerance')
    }
  })

  it('t beyond a custom tolerance', () => {
    const header = signWebhook(SECRET, BODY, T - 11)
    const options = { ...AT_T, toleranceSeconds: 10 }
    expect(failure(() => verifyWebhook(BODY, header, SECRET, options))).toBe(
      'timestamp_out_of_tolerance',
    )
    expect(verifyWebhook(BODY, header, SECRET, { ...options, toleranceSeconds: 11 })).toEqual(
      revisionEvent,
    )
  })

  it('a late request with a bad signature as a mismatch, not as late', () => {
    const header = `t=${T - 3600},v1=${HEX}`
    expect(failure(() => verifyWebhook(BODY, header, SECRET, AT_T))).toBe('signature_mismatch')
  })

  it('by default against the real clock', () => {
    const stale = signWebhook(SECRET, BODY, Math.floor(Date.now() / 1000) - 3600)
    expect(failure(() => verifyWebhook(BODY, stale, SECRET))).toBe('timestamp_out_of_tolerance')
    expect(verifyWebhook(BODY, signWebhook(SECRET, BODY), SECRET)).toEqual(revisionEvent)
  })
})

describe('verifyWebhook refuses a genuine body that is not an svc event', () => {
  const bodies: Record<string, string | Uint8Array> = {
    'not JSON': 'hello',
    'not UTF-8': Uint8Array.of(0x7b, 0xff, 0x7d),
    'a JSON array': '[]',
    'JSON null': 'null',
    'no specversion': JSON.stringify({ ...revisionEvent, specversion: undefined }),
    'specversion 0.3': JSON.stringify({ ...revisionEvent, specversion: '0.3' }),
    'no id': JSON.stringify({ ...revisionEvent, id: undefined }),
    'an empty id': JSON.stringify({ ...revisionEvent, id: '' }),
    'a numeric source': JSON.stringify({ ...revisionEvent, source: 1 }),
    'no subject': JSON.stringify({ ...revisionEvent, subject: undefined }),
    'a time that is no date': JSON.stringify({ ...revisionEvent, time: 'yesterday' }),
    'another datacontenttype': JSON.stringify({ ...revisionEvent, datacontenttype: 'text/plain' }),
    'no type': JSON.stringify({ ...revisionEvent, type: undefined }),
    'no data': JSON.stringify({ ...revisionEvent, data: undefined }),
    'data that is a string': JSON.stringify({ ...revisionEvent, data: 'x' }),
    'a Stripe event': JSON.stringify({ id: 'evt_1', object: 'event', type: 'charge.succeeded' }),
  }
  for (const [name, body] of Object.entries(bodies)) {
    it(name, () => {
      const header = signWebhook(SECRET, body, T)
      expect(failure(() => verifyWebhook(body, header, SECRET, AT_T))).toBe('malformed_event')
    })
  }

  it('an unknown (future) type, saying so', () => {
    const body = JSON.stringify({ ...revisionEvent, type: 'dev.svc.api.deleted.v1' })
    const verify = () => verifyWebhook(body, signWebhook(SECRET, body, T), SECRET, AT_T)
    expect(failure(verify)).toBe('malformed_event')
    expect(verify).toThrow(
      /unknown event type "dev\.svc\.api\.deleted\.v1".*upgrade @svc\/webhooks/,
    )
  })

  it('extra envelope fields (CloudEvents extensions) are fine', () => {
    const body = JSON.stringify({ ...testEvent, traceparent: '00-abc-def-01' })
    expect(verifyWebhook(body, signWebhook(SECRET, body, T), SECRET, AT_T)).toMatchObject(testEvent)
  })
})

describe('verifyWebhook errors', () => {
  it('are WebhookVerificationError with a code and a message', () => {
    let caught: unknown
    try {
      verifyWebhook(BODY, undefined, SECRET)
    } catch (error) {
      caught = error
    }
    expect(caught).toBeInstanceOf(Error)
    expect(caught).toBeInstanceOf(WebhookVerificationError)
    expect(caught).toMatchObject({ name: 'WebhookVerificationError', code: 'missing_signature' })
  })

  it('are TypeError for mistakes: an empty secret, a parsed body, a bad tolerance', () => {
    expect(() => verifyWebhook(BODY, HEADER, '', AT_T)).toThrow(TypeError)
    expect(() => verifyWebhook(BODY, HEADER, [], AT_T)).toThrow(TypeError)
    expect(() => verifyWebhook(BODY, HEADER, [SECRET, ''], AT_T)).toThrow(TypeError)
    const parsed = JSON.parse(BODY) as unknown as string
    expect(() => verifyWebhook(parsed, HEADER, SECRET, AT_T)).toThrow(TypeError)
    expect(() => verifyWebhook(BODY, HEADER, SECRET, { toleranceSeconds: -1 })).toThrow(TypeError)
  })
})
