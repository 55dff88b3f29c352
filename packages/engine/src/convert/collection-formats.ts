/** The operations of a Swagger 2.0 path item. */
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'] as const

/** Where OpenAPI 3 has a style for a collectionFormat; elsewhere it has none. */
const EXPRESSIBLE: Readonly<Record<string, readonly string[]>> = {
  csv: ['query', 'path', 'header', 'response-header'],
  multi: ['query'],
  ssv: ['query'],
  pipes: ['query'],
}

/**
 * Writes `x-collectionFormat` on each Swagger 2.0 array parameter and response header whose
 * `collectionFormat` OpenAPI 3 has no style for (`pipes` or `ssv` in a path or header, `tsv`
 * anywhere). swagger2openapi drops those with a warning (it keeps only `tsv`, as this same
 * extension), so a header's change from `csv` to `pipes` was no change at all. Form fields are
 * left alone: they become properties of a request body. Mutates `document`, a copy.
 */
export function markCollectionFormats(document: Record<string, unknown>): void {
  for (const parameter of Object.values(objectOr(document.parameters))) markParameter(parameter)
  for (const response of Object.values(objectOr(document.responses))) markHeaders(response)
  for (const item of Object.values(objectOr(document.paths))) {
    if (!isObject(item)) continue
    for (const parameter of arrayOr(item.parameters)) markParameter(parameter)
    for (const method of METHODS) {
      const operation = item[method]
      if (!isObject(operation)) continue
      for (const parameter of arrayOr(operation.parameters)) markParameter(parameter)
      for (const response of Object.values(objectOr(operation.responses))) markHeaders(response)
    }
  }
}

function markParameter(parameter: unknown): void {
  if (isObject(parameter) && typeof parameter.in === 'string' && parameter.in !== 'formData')
    mark(parameter, parameter.in)
}

function markHeaders(response: unknown): void {
  if (!isObject(response)) return
  for (const header of Object.values(objectOr(response.headers)))
    if (isObject(header)) mark(header, 'response-header')
}

function mark(described: Record<string, unknown>, place: string): void {
  const format = described.collectionFormat
  if (described.type !== 'array' || typeof format !== 'string') return
  if (described['x-collectionFormat'] !== undefined) return
  if (!(EXPRESSIBLE[format] ?? []).includes(place)) described['x-collectionFormat'] = format
}

function objectOr(value: unknown): Record<string, unknown> {
  return isObject(value) ? value : {}
}

function arrayOr(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : []
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
