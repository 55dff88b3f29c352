import { z } from './zod.js'

/** The answer of a `204 No Content` (a `DELETE`): no body at all. */
export const NoContentSchema = z.undefined()
