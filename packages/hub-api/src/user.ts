import { z } from './zod.js'

/** PAT scopes (docs/api/authentication.md). */
export const SCOPES = [
  'read',
  'write:releases',
  'write:projects',
  'write:apis',
  'admin:webhooks',
  'write:libraries',
] as const

export const UserSchema = z
  .object({
    id: z.string(),
    handle: z.string(),
    kind: z.literal('user'),
    organizations: z.array(
      z.object({ handle: z.string(), role: z.enum(['owner', 'writer', 'reader']) }),
    ),
    token: z.object({
      id: z.string(),
      scopes: z.array(z.enum(SCOPES)),
      expiresAt: z.iso.datetime().nullable(),
    }),
  })
  .openapi('User')

export type User = z.infer<typeof UserSchema>
