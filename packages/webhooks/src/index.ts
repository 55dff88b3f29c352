export { CONTENT_TYPE, SIGNATURE_HEADER, USER_AGENT } from './headers.js'
export { computeSignature, signWebhook } from './signature.js'
export { DEFAULT_TOLERANCE_SECONDS, verifyWebhook, type VerifyOptions } from './verify.js'
export { WebhookVerificationError, type VerificationFailure } from './errors.js'
export {
  ACCEPTANCE_EVENT,
  REVISION_EVENT,
  TEST_EVENT,
  type Acceptance,
  type AcceptanceEvent,
  type AcceptanceEventData,
  type Api,
  type ChangeDelta,
  type ChangeSeverity,
  type ChangeSummary,
  type DiffProfile,
  type Revision,
  type RevisionEvent,
  type RevisionEventData,
  type TestEvent,
  type TestEventData,
  type WebhookEvent,
} from './events.js'
