import { z } from './zod.js'

/**
 * `GET /healthz` (outside `/v1`, no token): the process answers, and the hub's version, which is
 * the version of the CLI it serves at `/downloads/svc-cli.tgz`. A hub from before the version
 * was added answers without it.
 */
export const HealthSchema = z.object({
  status: z.literal('ok'),
  version: z.string().optional(),
})
export type Health = z.infer<typeof HealthSchema>
