import type { Operation } from './operation-diff.js'
import { escapePointer } from './scope.js'

/** The operations by what matches them across two documents: method and path, or webhook. */
export function byKey<T extends Operation>(operations: readonly T[]): Map<string, T> {
  const normalised = new Map<string, T>()
  const exact = new Map<string, T>()
  let clash = false
  for (const operation of operations) {
    const key = operationKey(operation, true)
    if (normalised.has(key)) clash = true
    normalised.set(key, operation)
    exact.set(operationKey(operation, false), operation)
  }
  // Path parameter names are not part of an endpoint's identity (`/pets/{id}` = `/pets/{petId}`)
  // unless two paths differ only by them.
  return clash ? exact : normalised
}

function operationKey(operation: Operation, normalise: boolean): string {
  if (operation.kind === 'webhook') return `webhook ${operation.name} ${operation.method}`
  return `${operation.method} ${normalise ? operation.path.replace(/\{[^}]*\}/g, '{}') : operation.path}`
}

export function labelOf(operation: Operation): string {
  return operation.kind === 'webhook'
    ? `webhook ${operation.name} (${operation.method.toUpperCase()})`
    : `${operation.method.toUpperCase()} ${operation.path}`
}

export function pointerOf(operation: Operation): string {
  return operation.kind === 'webhook'
    ? `/webhooks/${escapePointer(operation.name)}/${operation.method}`
    : `/paths/${escapePointer(operation.path)}/${operation.method}`
}
