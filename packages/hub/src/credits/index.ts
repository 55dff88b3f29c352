/**
 * @module
 * Organisations' credits: the ledger (grants, charges, refunds; the balance is their sum), the
 * low-credit alert, and the charge info of answers (SPEC §2). docs/api/credits.md. The admin
 * commands import `./admin.js` directly, so that they do not load zod and the HTTP schemas.
 */
export {
  chargeCredits,
  credits,
  insufficientCredits,
  refundCredits,
  type ChargeOutcome,
  type RefundOutcome,
} from './ledger.js'
export {
  ChargeInfoSchema,
  creditsPageUrl,
  creditStanding,
  LowCreditAlertSchema,
  type ChargeInfo,
  type LowCreditAlert,
} from './charge-info.js'
