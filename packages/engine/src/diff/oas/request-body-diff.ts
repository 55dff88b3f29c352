import type { RequestBody } from '../../model/index.js'
import { compareContent } from './content-diff.js'
import { compareRequestBodyDocs } from './documentation-diff.js'
import { isRef, resolveComponent, type Resolvable } from './resolve-component.js'
import type { Comparison } from './schema-diff.js'
import type { Scope } from './scope.js'

export function compareRequestBodies(
  cmp: Comparison,
  scope: Scope,
  oldRaw: Resolvable<RequestBody> | undefined,
  nextRaw: Resolvable<RequestBody> | undefined,
  pointer: string,
): void {
  const place = `${pointer}/requestBody`
  const [old, next] = resolveBodies(cmp, oldRaw, nextRaw)
  if (!old && !next) return
  if (!old) {
    const required = next!.required
    scope.fixed(
      required ? 'new-required-request-body' : 'new-optional-request-body',
      place,
      `A${required ? ' required' : 'n optional'} request body was added.`,
    )
    return
  }
  if (!next) return scope.fixed('request-body-removed', place, 'The request body was removed.')
  if (isRef(oldRaw) && isRef(nextRaw)) {
    const shared = cmp.shared('requestBodies', oldRaw.refName, nextRaw.refName, (component) =>
      compareRequestBody(cmp, component, old, next, component.pointer),
    )
    scope.link(shared, 'request-body')
  } else compareRequestBody(cmp, scope.region('request body', 'request-body'), old, next, place)
}

function resolveBodies(
  cmp: Comparison,
  old: Resolvable<RequestBody> | undefined,
  next: Resolvable<RequestBody> | undefined,
): [RequestBody | undefined, RequestBody | undefined] {
  return [
    old && resolveComponent<RequestBody>(cmp.old, 'requestBodies', old),
    next && resolveComponent<RequestBody>(cmp.next, 'requestBodies', next),
  ]
}

export function compareRequestBody(
  cmp: Comparison,
  scope: Scope,
  old: RequestBody,
  next: RequestBody,
  pointer: string,
): void {
  if (!old.required && next.required)
    scope.fixed('request-body-became-required', pointer, 'The request body became required.')
  if (old.required && !next.required)
    scope.fixed('request-body-became-optional', pointer, 'The request body became optional.')
  compareRequestBodyDocs(scope, old, next, pointer)
  compareContent(cmp, scope, old.content, next.content, pointer, {
    added: 'request-body-media-type-added',
    removed: 'request-body-media-type-removed',
    schemaAdded: 'request-body-media-type-schema-added',
    schemaRemoved: 'request-body-media-type-schema-removed',
    what: 'request',
  })
}

/** A webhook's request body is what the API sends: a receiver reads it like a response. */
export function comparePayloads(
  cmp: Comparison,
  scope: Scope,
  oldRaw: Resolvable<RequestBody> | undefined,
  nextRaw: Resolvable<RequestBody> | undefined,
  pointer: string,
): void {
  const place = `${pointer}/requestBody`
  const [old, next] = resolveBodies(cmp, oldRaw, nextRaw)
  if (!old && !next) return
  if (!old) return scope.fixed('webhook-payload-added', place, 'The webhook now carries a payload.')
  if (!next)
    return scope.fixed('webhook-payload-removed', place, 'The webhook no longer carries a payload.')
  compareContent(
    cmp,
    scope.region('webhook payload', 'webhook-payload'),
    old.content,
    next.content,
    place,
    {
      added: 'webhook-payload-media-type-added',
      removed: 'webhook-payload-media-type-removed',
      schemaAdded: 'webhook-payload-media-type-schema-added',
      schemaRemoved: 'webhook-payload-media-type-schema-removed',
      what: 'payload',
    },
  )
}
