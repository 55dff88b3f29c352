import type { HttpOperation, WebhookOperation } from '../../model/index.js'
import { compareOperationDocs } from './documentation-diff.js'
import { compareParameters } from './parameter-diff.js'
import { compareLifecycle, type Policies } from './policy-diff.js'
import { comparePayloads, compareRequestBodies } from './request-body-diff.js'
import { compareResponses } from './response-diff.js'
import type { Comparison } from './schema-diff.js'
import { Scope } from './scope.js'
import { compareSecurity, effectiveSecurity, inheritsSecurity } from './security-diff.js'

export type Operation = HttpOperation | WebhookOperation

/** Compares two operations found under the same path and method (or webhook name and method). */
export function compareOperation(
  cmp: Comparison,
  old: Operation,
  next: Operation,
  pointer: string,
  policies: Policies,
): Scope {
  const scope = new Scope('operation')
  const webhook = next.kind === 'webhook'
  if (!old.deprecated && next.deprecated)
    scope.fixed(
      webhook ? 'webhook-deprecated' : 'endpoint-deprecated',
      pointer,
      'The operation was deprecated.',
    )
  if (old.deprecated && !next.deprecated)
    scope.fixed('endpoint-reactivated', pointer, 'The operation is no longer deprecated.')
  compareLifecycle(policies, scope, old, next, pointer)
  compareOperationId(scope, old.operationId, next.operationId, pointer)
  compareOperationDocs(scope, old, next, pointer)
  for (const tag of next.tags)
    if (!old.tags.includes(tag))
      scope.fixed('operation-tag-added', pointer, `The tag \`${tag}\` was added.`)
  for (const tag of old.tags)
    if (!next.tags.includes(tag))
      scope.fixed('operation-tag-removed', pointer, `The tag \`${tag}\` was removed.`)
  compareParameters(cmp, scope, old, next, pointer, policies)
  if (webhook) comparePayloads(cmp, scope, old.requestBody, next.requestBody, pointer)
  else {
    compareRequestBodies(cmp, scope, old.requestBody, next.requestBody, pointer)
    compareResponses(cmp, scope, old, next, pointer)
    if (!inheritsSecurity(old, next))
      compareSecurity(
        scope,
        effectiveSecurity(cmp.old, old),
        effectiveSecurity(cmp.next, next),
        pointer,
      )
  }
  return scope
}

function compareOperationId(
  scope: Scope,
  old: string | undefined,
  next: string | undefined,
  pointer: string,
): void {
  if (old === next) return
  if (old === undefined)
    scope.fixed('operation-id-added', pointer, `The operationId \`${next}\` was added.`)
  else if (next === undefined)
    scope.fixed('operation-id-removed', pointer, `The operationId \`${old}\` was removed.`)
  else
    scope.fixed(
      'operation-id-changed',
      pointer,
      `The operationId changed from \`${old}\` to \`${next}\`.`,
    )
}
