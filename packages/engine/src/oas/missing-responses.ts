import { OAS_ISSUES } from '../issues/index.js'
import type { IssueLog } from '../issues/issue-log.js'
import { HTTP_METHODS } from '../model/operation.js'

/**
 * OpenAPI 2.0 and 3.0 require `responses` on every operation (3.1 made it optional). The
 * operation is kept as it is: nothing else depends on it having responses.
 */
export function reportMissingResponses(issues: IssueLog, operation: readonly string[]): void {
  issues.add(
    OAS_ISSUES.missingResponses,
    operation,
    `The operation ${operation[2]?.toUpperCase()} ${operation[1]} has no "responses"; OpenAPI 2.0 and 3.0 require them.`,
  )
}

/**
 * The operations of a Swagger 2.0 document that have no `responses`, as `['paths', path,
 * method]`. Read before the conversion, which gives each of them an invented `default` response.
 */
export function swaggerOperationsWithoutResponses(
  document: Record<string, unknown>,
): readonly (readonly string[])[] {
  const found: string[][] = []
  const paths = document.paths
  if (!isObject(paths)) return found
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) continue
    for (const method of HTTP_METHODS) {
      const operation = item[method]
      if (isObject(operation) && operation.responses === undefined)
        found.push(['paths', path, method])
    }
  }
  return found
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
