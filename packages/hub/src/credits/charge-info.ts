import { z } from '@hono/zod-openapi'
import type { Repos } from '../store/store.js'

export const LowCreditAlertSchema = z
  .object({
    getMoreCreditsUrl: z.url().openapi({ description: "The organisation's credits page" }),
    message: z.string(),
    availableCredits: z.number().openapi({ description: "The organisation's balance" }),
  })
  .openapi('LowCreditAlert', {
    description: "Present while the organisation's balance is below its low-credit threshold",
  })

const alert = LowCreditAlertSchema.nullable()

/** SPEC §2 Charge info: what a call cost, discriminated by `method`. */
export const ChargeInfoSchema = z
  .discriminatedUnion('method', [
    z.object({
      method: z.literal('charged-now'),
      creditsCharged: z.number(),
      lowCreditAlert: alert,
    }),
    z.object({ method: z.literal('charging-later'), message: z.string(), lowCreditAlert: alert }),
    z.object({
      method: z.literal('charged-for-async-process'),
      creditsCharged: z.number(),
      message: z.string(),
      lowCreditAlert: alert,
    }),
    z.object({ method: z.literal('free'), message: z.string(), lowCreditAlert: alert }),
    z.object({
      method: z.literal('credits-refunded'),
      creditsRefunded: z.number(),
      message: z.string(),
      lowCreditAlert: alert,
    }),
  ])
  .openapi('ChargeInfo')

export type LowCreditAlert = z.infer<typeof LowCreditAlertSchema>
export type ChargeInfo = z.infer<typeof ChargeInfoSchema>

/** The web app's page where an organisation gets more credits. */
export function creditsPageUrl(publicUrl: string, orgHandle: string): string {
  return `${publicUrl}/${orgHandle}/settings/credits`
}

/** The organisation's balance and, when it is below the organisation's threshold, the alert. */
export async function creditStanding(
  repos: Repos,
  org: { readonly id: string; readonly handle: string },
  publicUrl: string,
): Promise<{ balance: number; threshold: number; lowCreditAlert: LowCreditAlert | null }> {
  const [balance, threshold] = await Promise.all([
    repos.credits.balance(org.id),
    repos.credits.lowCreditThreshold(org.id),
  ])
  if (balance >= threshold) return { balance, threshold, lowCreditAlert: null }
  return {
    balance,
    threshold,
    lowCreditAlert: {
      getMoreCreditsUrl: creditsPageUrl(publicUrl, org.handle),
      message: `'${org.handle}' has ${balance} ${balance === 1 ? 'credit' : 'credits'} left, below its low-credit threshold of ${threshold}: calls that cost more than the balance are refused with 402.`,
      availableCredits: balance,
    },
  }
}
