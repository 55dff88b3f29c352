import type { ApiModel, HttpOperation } from '@svc/engine'
import {
  claimNames,
  modelOperationNames,
  successStatus,
  toIdentifierName,
  variantSuffix,
} from '@svc/engine/generate'

/**
 * The names of an operation's per-operation types: `CreatePetBody` for the request body,
 * `CreatePetResponse` for the data of its success response, `CreatePetResponse404`,
 * `CreatePetResponse4XX`, `CreatePetResponseDefault` for the others. Their zod schemas are the
 * same names in camelCase with `Schema`: `createPetBodySchema`.
 */
export type OperationNames = {
  readonly body: string
  response(status: string): string
}

// Keyed by method and path: an operation generator's subject is a copy of the model's operation
// (with its distinct `name`), not the model's object itself.
const cache = new WeakMap<ApiModel, Map<string, Map<string, OperationNames>>>()

/**
 * The names of one operation's types in one variant. Every name of every operation is claimed
 * at once, in document order, so that none is a model's or another operation's (the engine's
 * `claimNames` counts past them) and each depends only on the document.
 */
export function operationNames(
  model: ApiModel,
  operation: HttpOperation,
  variant: string,
): OperationNames {
  let byVariant = cache.get(model)
  if (byVariant === undefined) cache.set(model, (byVariant = new Map()))
  let names = byVariant.get(variant)
  if (names === undefined) byVariant.set(variant, (names = claimAll(model, variant)))
  const found = names.get(routeOf(operation))
  if (found === undefined)
    throw new Error(`${operation.method} ${operation.path} is not in the model`)
  return found
}

function claimAll(model: ApiModel, variant: string): Map<string, OperationNames> {
  const operations = model.protocol === 'oas' ? model.operations : []
  // Named after the operation's distinct name, as its function is: getPet2's are GetPet2Body….
  const distinct = modelOperationNames(model)
  const wanted = operations.map((operation) => {
    const text = distinct.get(operation) ?? `${operation.method} ${operation.path}`
    const base = toIdentifierName(text, 'pascal') + variantSuffix(variant)
    const success = successStatus(Object.keys(operation.responses))
    const statuses = Object.keys(operation.responses).filter((status) => status !== success)
    return {
      base,
      success,
      statuses,
      requests: [
        `${base}Body`,
        `${base}Response`,
        ...statuses.map((status) => `${base}Response${statusSuffix(status)}`),
      ],
    }
  })
  const claimed = claimNames(
    model,
    wanted.flatMap((each) => each.requests),
  ).map((name) => toIdentifierName(name, 'pascal'))
  const result = new Map<string, OperationNames>()
  let next = 0
  for (const [index, each] of wanted.entries()) {
    const [body, response, ...others] = claimed.slice(next, (next += each.requests.length))
    const byStatus = new Map(each.statuses.map((status, at) => [status, others[at]!]))
    result.set(routeOf(operations[index]!), {
      body: body!,
      response: (status) => (status === each.success ? response! : byStatus.get(status)!),
    })
  }
  return result
}

/** `404`, `2XX`, `Default`. */
function statusSuffix(status: string): string {
  return status === 'default' ? 'Default' : status.toUpperCase()
}

function routeOf(operation: HttpOperation): string {
  return `${operation.method} ${operation.path}`
}
