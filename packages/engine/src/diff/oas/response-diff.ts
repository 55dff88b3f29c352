import type { Header, Response } from '../../model/index.js'
import { compareContent } from './content-diff.js'
import { compareHeaderDocs, compareResponseDocs } from './documentation-diff.js'
import type { Operation } from './operation-diff.js'
import { collectionFormat } from './parameter-diff.js'
import { isRef, resolveComponent } from './resolve-component.js'
import { compareSchemas, type Comparison } from './schema-diff.js'
import { capitalise, escapePointer, type Scope } from './scope.js'
import { mayBe } from './value-shape.js'

function isSuccess(status: string): boolean {
  return /^[123]/.test(status)
}

export function compareResponses(
  cmp: Comparison,
  scope: Scope,
  old: Operation,
  next: Operation,
  pointer: string,
): void {
  const before = new Map(Object.keys(old.responses).map((status) => [status.toUpperCase(), status]))
  for (const status of Object.keys(next.responses)) {
    const place = `${pointer}/responses/${escapePointer(status)}`
    const match = before.get(status.toUpperCase())
    if (match === undefined) {
      scope.fixed('response-status-added', place, `The response ${status} was added.`)
      continue
    }
    before.delete(status.toUpperCase())
    const oldRaw = old.responses[match]!
    const nextRaw = next.responses[status]!
    const a = resolveComponent<Response>(cmp.old, 'responses', oldRaw)
    const b = resolveComponent<Response>(cmp.next, 'responses', nextRaw)
    if (!a || !b) continue
    if (isRef(oldRaw) && isRef(nextRaw)) {
      const shared = cmp.shared('responses', oldRaw.refName, nextRaw.refName, (component) =>
        compareResponse(cmp, component, a, b, component.pointer, `response \`${nextRaw.refName}\``),
      )
      scope.link(shared, 'response-body')
    } else
      compareResponse(
        cmp,
        scope.region(`response ${status}`, 'response-body'),
        a,
        b,
        place,
        `response ${status}`,
      )
  }
  for (const status of before.values())
    scope.fixed(
      isSuccess(status) ? 'response-success-status-removed' : 'response-non-success-status-removed',
      `${pointer}/responses/${escapePointer(status)}`,
      `The response ${status} was removed.`,
    )
}

export function compareResponse(
  cmp: Comparison,
  scope: Scope,
  old: Response,
  next: Response,
  pointer: string,
  label: string,
): void {
  compareResponseDocs(scope, old, next, pointer, label)
  compareContent(cmp, scope, old.content, next.content, pointer, {
    added: 'response-media-type-added',
    removed: 'response-media-type-removed',
    schemaAdded: 'response-media-type-schema-added',
    schemaRemoved: 'response-media-type-schema-removed',
    what: 'response',
    received: true,
    renamed: {
      narrowed: 'response-media-type-narrowed',
      widened: 'response-media-type-widened',
      'parameter-changed': 'response-media-type-parameter-changed',
      changed: 'response-media-type-changed',
    },
  })
  const before = new Map(Object.keys(old.headers).map((name) => [name.toLowerCase(), name]))
  for (const name of Object.keys(next.headers)) {
    const place = `${pointer}/headers/${escapePointer(name)}`
    const match = before.get(name.toLowerCase())
    const nextRaw = next.headers[name]!
    const b = resolveComponent<Header>(cmp.next, 'headers', nextRaw)
    if (!b) continue
    if (match === undefined) {
      scope.fixed('response-header-added', place, `The ${label} header \`${name}\` was added.`)
      continue
    }
    before.delete(name.toLowerCase())
    const oldRaw = old.headers[match]!
    const a = resolveComponent<Header>(cmp.old, 'headers', oldRaw)
    if (!a) continue
    const headerLabel = `${label} header \`${name}\``
    if (isRef(oldRaw) && isRef(nextRaw)) {
      const shared = cmp.shared('headers', oldRaw.refName, nextRaw.refName, (component) =>
        compareHeader(cmp, component, a, b, component.pointer, `header \`${nextRaw.refName}\``),
      )
      scope.link(shared, 'response-header')
    } else
      compareHeader(cmp, scope.region(headerLabel, 'response-header'), a, b, place, headerLabel)
  }
  for (const name of before.values()) {
    const a = resolveComponent<Header>(cmp.old, 'headers', old.headers[name]!)
    const required = a?.required ?? false
    scope.fixed(
      required ? 'response-required-header-removed' : 'response-optional-header-removed',
      `${pointer}/headers/${escapePointer(name)}`,
      `The ${required ? 'required' : 'optional'} ${label} header \`${name}\` was removed.`,
    )
  }
}

export function compareHeader(
  cmp: Comparison,
  scope: Scope,
  old: Header,
  next: Header,
  pointer: string,
  label: string,
): void {
  if (old.required && !next.required)
    scope.fixed('response-header-became-optional', pointer, `${capitalise(label)} became optional.`)
  if (!old.required && next.required)
    scope.fixed('response-header-became-required', pointer, `${capitalise(label)} became required.`)
  if (!old.deprecated && next.deprecated)
    scope.fixed('response-header-deprecated', pointer, `${capitalise(label)} was deprecated.`)
  if (old.deprecated && !next.deprecated)
    scope.fixed(
      'response-header-reactivated',
      pointer,
      `${capitalise(label)} is no longer deprecated.`,
    )
  const [before, after] = [headerSerialisation(old), headerSerialisation(next)]
  if (before !== after) {
    // `simple` writes a scalar or an array alike with or without explode; only an object differs.
    const onTheWire =
      collectionFormat(old) !== collectionFormat(next) ||
      (old.style ?? 'simple') !== (next.style ?? 'simple') ||
      mayBe(cmp.old, old.schema, ['object']) ||
      mayBe(cmp.next, next.schema, ['object'])
    scope.fixed(
      onTheWire ? 'response-header-style-changed' : 'response-header-explode-changed',
      pointer,
      `${capitalise(label)} changed serialisation from ${before} to ${after}.`,
    )
  }
  compareHeaderDocs(scope, old, next, pointer, label)
  compareSchemas(cmp, scope, old.schema, next.schema, `${pointer}/schema`)
}

function headerSerialisation(header: Header): string {
  return (
    collectionFormat(header) ??
    `style ${header.style ?? 'simple'}, explode ${header.explode ?? false}`
  )
}
