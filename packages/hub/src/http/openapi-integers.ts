import { z } from '@hono/zod-openapi'

const INT32_MIN = -(2 ** 31)
const INT32_MAX = 2 ** 31 - 1
const FORMAT_RANGES = { int32: [INT32_MIN, INT32_MAX], int64: [-(2 ** 63), 2 ** 63] } as const

/**
 * Gives every integer schema reachable from `roots` (the registry's definitions: components,
 * routes, webhooks) the OpenAPI `format` its range fits: `int32` when its bounds (`z.int32()`,
 * `.min()`/`.max()` …) keep it within 32 bits, `int64` otherwise (`z.int()` is a safe
 * integer). zod-to-openapi writes no integer format, so without this a generated client cannot
 * tell a count from a 64-bit id, and it writes `z.int32()` as a `number`: see
 * {@link integerTypes}. The format goes into zod's own metadata, which zod-to-openapi reads
 * beside `.openapi()`'s (and over it): a schema that names a format with `.meta({ format })`
 * keeps it.
 */
export function describeIntegers(roots: readonly unknown[]): void {
  const seen = new Set<object>()
  const visit = (value: unknown): void => {
    if (typeof value !== 'object' || value === null || seen.has(value)) return
    seen.add(value)
    if (value instanceof z.ZodType) {
      if (value instanceof z.ZodNumber) describeInteger(value)
      const def = value.def as unknown as Record<string, unknown>
      for (const [key, child] of Object.entries(def)) {
        // A check of `z.number().int()` is not a schema of its own.
        if (key === 'checks') continue
        if (key === 'getter' && typeof child === 'function') visit((child as () => unknown)())
        else visit(child)
      }
      return
    }
    for (const child of Array.isArray(value) ? value : Object.values(value)) visit(child)
  }
  for (const root of roots) visit(root)
}

function describeInteger(schema: z.ZodNumber): void {
  if (!schema.isInt) return
  const meta = schema.meta() ?? {}
  if ('format' in meta) return
  const min = schema.minValue ?? -Infinity
  const max = schema.maxValue ?? Infinity
  const format = min >= INT32_MIN && max <= INT32_MAX ? 'int32' : 'int64'
  // Bounds a check states are written already; the ones a zod format implies (`z.uint32()`'s
  // 0) are written here when narrower than the OpenAPI format's own. A safe integer's are not:
  // every JSON number a JavaScript receiver reads has them.
  const implied = schema.format !== 'safeint'
  const stated = new Set(
    (schema.def.checks ?? []).map((check) => (check._zod.def as { check: string }).check),
  )
  const [formatMin, formatMax] = FORMAT_RANGES[format]
  // The registry refuses an id it holds already, this schema's own included.
  z.globalRegistry.remove(schema)
  z.globalRegistry.add(schema, {
    ...meta,
    format,
    ...(implied && min > formatMin && !stated.has('greater_than') ? { minimum: min } : {}),
    ...(implied && max < formatMax && !stated.has('less_than') ? { maximum: max } : {}),
  })
}

/**
 * Makes every schema of `document` with an integer format an `integer`: zod-to-openapi types
 * only `z.int()` so, and `z.int32()`, `z.uint32()` as `number`.
 */
export function integerTypes<T>(document: T): T {
  const visit = (value: unknown): void => {
    if (typeof value !== 'object' || value === null) return
    if (Array.isArray(value)) return value.forEach(visit)
    const node = value as Record<string, unknown>
    if (node.format === 'int32' || node.format === 'int64') {
      if (node.type === 'number') node.type = 'integer'
      if (Array.isArray(node.type))
        node.type = node.type.map((t) => (t === 'number' ? 'integer' : t))
    }
    Object.values(node).forEach(visit)
  }
  visit(document)
  return document
}
