import { ApiError } from '../errors/index.js'
import type { ChargeOutcome, RefundOutcome } from '../store/credits-repo.js'
import type { Repos } from '../store/store.js'
import { creditsPageUrl } from './charge-info.js'

export type { ChargeOutcome, RefundOutcome } from '../store/credits-repo.js'

/**
 * Charges `amount` credits to the organisation for the request `requestId`, or answers
 * `insufficient` and writes nothing. Safe under concurrency: two charges that together exceed
 * the balance never both land. Call it with the transaction of the work being paid for, so
 * that the charge rolls back with that work (or refund it with `refundCredits` afterwards).
 *
 * @example
 * ```ts
 * const outcome = await store.transaction(async (tx) => {
 *   const charge = await chargeCredits(tx, org.id, 5, requestId, 'create library')
 *   if (charge.status === 'charged') await tx.libraries.insert(library)
 *   return charge
 * })
 * if (outcome.status === 'insufficient') throw insufficientCredits(outcome, org.handle, publicUrl)
 * ```
 */
export function chargeCredits(
  repos: Repos,
  orgId: string,
  amount: number,
  requestId: string | null,
  reason: string | null = null,
): Promise<ChargeOutcome> {
  return repos.credits.charge(orgId, amount, { requestId, reason })
}

/** Gives back the credits of the charge `chargeId` (its entry id); a second refund is a no-op. */
export function refundCredits(
  repos: Repos,
  chargeId: string,
  requestId: string | null,
  reason: string | null = null,
): Promise<RefundOutcome> {
  return repos.credits.refund(chargeId, { requestId, reason })
}

/** 402 `insufficient_credits` for a refused charge, with what it would take to succeed. */
export function insufficientCredits(
  outcome: Extract<ChargeOutcome, { status: 'insufficient' }>,
  orgHandle: string,
  publicUrl: string,
): ApiError {
  return new ApiError(
    'insufficient_credits',
    `This call costs ${credits(outcome.needed)} and '${orgHandle}' has ${credits(outcome.balance)}.`,
    {
      availableCredits: outcome.balance,
      creditsNeeded: outcome.needed,
      getMoreCreditsUrl: creditsPageUrl(publicUrl, orgHandle),
    },
  )
}

/** `1 credit`, `5 credits`. */
export function credits(amount: number): string {
  return `${amount} ${amount === 1 ? 'credit' : 'credits'}`
}
