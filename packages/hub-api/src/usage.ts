import { z } from './zod.js'

/**
 * The storage quotas of an account, in the order the hub's table lists them: a count and a size
 * for each kind of stored thing (docs/hub/running.md#quotas).
 */
export const QUOTA_IDS = [
  'revisions',
  'revisionBytes',
  'stackVersions',
  'stackVersionBytes',
  'runArtifacts',
  'runArtifactBytes',
  'baseFiles',
  'baseFileBytes',
] as const

export type QuotaId = (typeof QUOTA_IDS)[number]

export const QuotaIdSchema = z.enum(QUOTA_IDS).openapi({ example: 'runArtifactBytes' })

export const QuotaUsageSchema = z
  .object({
    quota: QuotaIdSchema,
    unit: z.enum(['items', 'bytes']),
    used: z.int().nonnegative(),
    limit: z
      .int()
      .positive()
      .nullable()
      .openapi({ description: 'The most the account may store; null: no limit' }),
    custom: z.boolean().openapi({
      description: "Whether the limit is this account's own (set by the hub's operator)",
    }),
    setting: z.string().openapi({
      description: 'The variable that sets the default limit',
      example: 'SVC_HUB_QUOTA_RUN_ARTIFACT_BYTES',
    }),
  })
  .openapi('QuotaUsage')

/** `GET /v1/accounts/{account}/usage`: what the account stores against each of its quotas. */
export const AccountUsageSchema = z
  .object({
    account: z.string(),
    kind: z.enum(['user', 'org']),
    quotas: z.array(QuotaUsageSchema),
  })
  .openapi('AccountUsage')

export type QuotaUsage = z.infer<typeof QuotaUsageSchema>
export type AccountUsage = z.infer<typeof AccountUsageSchema>
