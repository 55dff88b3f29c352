import { AdminError } from '../accounts/admin.js'
import { MAX_CREDIT_AMOUNT } from '../store/credits-repo.js'
import type { AccountRow } from '../store/schema.js'
import type { Store } from '../store/store.js'

export type CreditStanding = {
  org: string
  balance: number
  lowCreditThreshold: number
}

/** `svc-hub admin grant-credits`: adds a grant entry to the organisation's ledger. */
export async function grantCredits(
  store: Store,
  orgHandle: string,
  amountText: string,
  reason: string | undefined,
): Promise<CreditStanding & { entryId: string; granted: number }> {
  const amount = wholeNumber(amountText, 1, 'the amount')
  checkReason(reason)
  const org = await orgOf(store, orgHandle)
  const entry = await store.credits.grant(org.id, amount, { reason: reason ?? 'operator grant' })
  return { entryId: entry.id, granted: amount, ...(await standing(store, org)) }
}

/**
 * `svc-hub admin charge-credits`: takes credits from the organisation (to correct a grant, or
 * for work done outside the API), refused when the balance does not cover them.
 */
export async function chargeCreditsAsOperator(
  store: Store,
  orgHandle: string,
  amountText: string,
  reason: string | undefined,
): Promise<CreditStanding & { entryId: string; charged: number }> {
  const amount = wholeNumber(amountText, 1, 'the amount')
  checkReason(reason)
  const org = await orgOf(store, orgHandle)
  const outcome = await store.credits.charge(org.id, amount, {
    reason: reason ?? 'operator charge',
  })
  if (outcome.status === 'insufficient') {
    throw new AdminError(
      `${org.handle} has ${outcome.balance} credits, fewer than ${amount}; nothing was charged`,
    )
  }
  return { entryId: outcome.entry.id, charged: amount, ...(await standing(store, org)) }
}

/** `svc-hub admin set-credit-threshold`: below this balance, answers carry a low-credit alert. */
export async function setCreditThreshold(
  store: Store,
  orgHandle: string,
  amountText: string,
): Promise<CreditStanding> {
  const threshold = wholeNumber(amountText, 0, 'the threshold')
  const org = await orgOf(store, orgHandle)
  await store.credits.setLowCreditThreshold(org.id, threshold)
  return standing(store, org)
}

async function standing(store: Store, org: AccountRow): Promise<CreditStanding> {
  return {
    org: org.handle,
    balance: await store.credits.balance(org.id),
    lowCreditThreshold: await store.credits.lowCreditThreshold(org.id),
  }
}

function checkReason(reason: string | undefined): void {
  if (reason !== undefined && (reason.length === 0 || reason.length > 200)) {
    throw new AdminError('--reason must be 1 to 200 characters')
  }
}

function wholeNumber(text: string, min: number, what: string): number {
  const value = /^\d+$/.test(text) ? Number(text) : NaN
  if (!Number.isSafeInteger(value) || value < min || value > MAX_CREDIT_AMOUNT) {
    throw new AdminError(
      `${what} must be a whole number from ${min} to ${MAX_CREDIT_AMOUNT.toLocaleString('en')}, got '${text}'`,
    )
  }
  return value
}

async function orgOf(store: Store, handle: string): Promise<AccountRow> {
  const account = await store.accounts.find(handle)
  if (!account) throw new AdminError(`there is no organisation '${handle}'`)
  if (account.kind !== 'org') throw new AdminError(`'${handle}' is a user, not an organisation`)
  return account
}
