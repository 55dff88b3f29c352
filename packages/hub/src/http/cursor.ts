import { z } from '@hono/zod-openapi'
import { invalidRequest } from '../errors/index.js'

/** The query of a paginated list: `limit` (1–100, default 20) and the `cursor` of the page before. */
export const PageQuery = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .optional()
    .openapi({ description: 'Items per page, 1 to 100; default 20', example: 20 }),
  cursor: z
    .string()
    .max(512)
    .optional()
    .openapi({ description: 'The `nextCursor` of the page before; omit for the first page' }),
})

export const DEFAULT_PAGE_SIZE = 20

/** An opaque cursor: where the next page starts, as base64url JSON. */
export function encodeCursor(position: readonly (string | number)[]): string {
  return Buffer.from(JSON.stringify(position), 'utf8').toString('base64url')
}

/**
 * The position a cursor holds, checked against `shape`; a cursor the hub did not make is
 * 422 `invalid_request` on `query.cursor`.
 */
export function decodeCursor<T>(cursor: string, shape: z.ZodType<T>): T {
  let value: unknown
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
  } catch {
    value = undefined
  }
  const parsed = shape.safeParse(value)
  if (!parsed.success) {
    throw invalidRequest([
      { path: 'query.cursor', message: 'is not a cursor of this list; use the nextCursor it gave' },
    ])
  }
  return parsed.data
}

/**
 * One page of `rows`, read with `limit + 1` (a row past the page tells that more follow), and the
 * cursor of the next page: the position of the page's last row, or null on the last page.
 */
export function pageOf<T>(
  rows: readonly T[],
  limit: number,
  position: (last: T) => readonly (string | number)[],
): { page: T[]; nextCursor: string | null } {
  const page = rows.slice(0, limit)
  const last = page.at(-1)
  return { page, nextCursor: rows.length > limit && last ? encodeCursor(position(last)) : null }
}
