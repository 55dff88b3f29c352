import { z } from './zod.js'

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

export type Api = z.infer<typeof ApiSchema>
export type ApiList = z.infer<typeof ApiListSchema>
