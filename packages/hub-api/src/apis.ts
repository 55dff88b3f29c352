import { z } from './zod.js'

/**
 * Whose breakage a diff judges (`DIFF_PROFILES` of `@svc/engine`, which the hub checks these
 * against): `wire`, what requests and responses carry; `sdk`, also the code svc's generators emit
 * from the description (names, signatures, result unions).
 */
export const DIFF_PROFILES = ['wire', 'sdk'] as const

export const DiffProfileSchema = z
  .enum(DIFF_PROFILES, { error: 'must be `wire` or `sdk`' })
  .openapi('DiffProfile', {
    description:
      'Whose breakage a diff judges: `wire` what requests and responses carry; `sdk` also the ' +
      'code generated from the description (its `sdk-…` rules: operation and type names, ' +
      'parameter order, result unions)',
    example: 'sdk',
  })

export const ApiSchema = z
  .object({
    id: z.string(),
    owner: z.string(),
    slug: z.string(),
    name: z.string(),
    visibility: z.enum(['public', 'private']),
    sourceUrl: z.string().nullable(),
    url: z.url().openapi({ description: "The API's page on the hub" }),
    createdAt: z.iso.datetime(),
    diffProfile: DiffProfileSchema.openapi({
      description:
        "The profile its revisions' changelogs are computed with, and the default of `…/diff`, of a push's gate and of its webhooks",
    }),
  })
  .openapi('Api')

export const ApiListSchema = z
  .object({
    apis: z.array(ApiSchema),
    nextCursor: z
      .string()
      .nullable()
      .openapi({ description: 'Pass as `cursor` for the next page; null on the last page' }),
  })
  .openapi('ApiList')

export type DiffProfile = z.infer<typeof DiffProfileSchema>
export type Api = z.infer<typeof ApiSchema>
export type ApiList = z.infer<typeof ApiListSchema>
