import Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { revisionEvent, SECRET, testEvent } from '../test/fixtures.js'
import { signWebhook, verifyWebhook, WebhookVerificationError } from './index.js'

// stripe-node is an independent implementation of the same scheme (REFERENCE §6): agreeing with it
// both ways shows the scheme is Stripe's, so receivers may use any Stripe webhook library.
const T = 1767225600
const AT_T = () => T * 1000

describe('conformance with stripe-node', () => {
  it("Stripe's constructEvent accepts what signWebhook makes", () => {
    const body = JSON.stringify(revisionEvent)
    const header = signWebhook(SECRET, body, T)
    const event = Stripe.webhooks.constructEvent(body, header, SECRET, 300, undefined, AT_T())
    expect(event).toEqual(revisionEvent)
  })

  it("Stripe's constructEvent accepts a signed byte body, signed now", () => {
    const body = Buffer.from(JSON.stringify(testEvent))
    expect(Stripe.webhooks.constructEvent(body, signWebhook(SECRET, body), SECRET)).toEqual(
      testEvent,
    )
  })

  it("Stripe's constructEvent refuses it under another secret", () => {
    const body = JSON.stringify(testEvent)
    const header = signWebhook(SECRET, body, T)
    expect(() =>
      Stripe.webhooks.constructEvent(body, header, `${SECRET}x`, 300, undefined, AT_T()),
    ).toThrow(Stripe.errors.StripeSignatureVerificationError)
  })

  it("verifyWebhook accepts Stripe's generateTestHeaderString", () => {
    const payload = JSON.stringify(revisionEvent)
    const header = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: SECRET,
      timestamp: T,
    })
    expect(header).toBe(signWebhook(SECRET, payload, T))
    expect(verifyWebhook(payload, header, SECRET, { now: AT_T })).toEqual(revisionEvent)
  })

  it("verifyWebhook refuses Stripe's header under another secret", () => {
    const payload = JSON.stringify(testEvent)
    const header = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: SECRET,
      timestamp: T,
    })
    expect(() => verifyWebhook(payload, header, `${SECRET}x`, { now: AT_T })).toThrow(
      WebhookVerificationError,
    )
  })
})
