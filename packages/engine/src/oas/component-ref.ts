import type { ComponentBucket, ComponentRef } from '../model/operation.js'
import { getAtLocalRef, parseLocalRef } from '../refs/pointer.js'
import { splitComponentRef } from '../refs/resolve-ref.js'
import { isObject, type OasContext, type RawObject } from './context.js'

/**
 * Parses a value that may be a `$ref` to a non-schema component (`#/components/parameters/X`).
 * A component ref stays lazy and is checked once every unit is parsed; another local pointer is
 * parsed in place; anything else is parsed by `parse`. In 3.0 siblings of `$ref` are reported and
 * ignored; in 3.1 `summary` and `description` may override the target's.
 */
export function parseMaybeRef<B extends ComponentBucket, T>(
  ctx: OasContext,
  value: unknown,
  bucket: B,
  parse: (raw: unknown) => T,
): T | ComponentRef<B> {
  if (!isObject(value) || typeof value.$ref !== 'string') return parse(value)
  const ref = value.$ref
  const description = checkRefSiblings(ctx, value)
  const component = splitComponentRef(ref)
  if (component) {
    ctx.useRef(ref, bucket)
    if (description === undefined) {
      return ctx.shared(`${bucket}:${ref}`, (): ComponentRef<B> => ({
        kind: 'ref',
        bucket,
        $ref: ref,
        refName: component.name,
      }))
    }
    return Object.freeze({ kind: 'ref', bucket, $ref: ref, refName: component.name, description })
  }
  const target = getAtLocalRef(ctx.document, ref)
  if (target === undefined) {
    ctx.useRef(ref, bucket)
    return Object.freeze({
      kind: 'ref',
      bucket,
      $ref: ref,
      refName: parseLocalRef(ref)?.at(-1) ?? ref,
    })
  }
  if (ctx.inlining.has(ref)) ctx.fail(`Recursive $ref "${ref}"`)
  ctx.inlining.add(ref)
  try {
    return parse(target)
  } finally {
    ctx.inlining.delete(ref)
  }
}

/** Reports `$ref` siblings the dialect does not allow; returns a 3.1 description override. */
function checkRefSiblings(ctx: OasContext, value: RawObject): string | undefined {
  let description: string | undefined
  for (const key in value) {
    if (key === '$ref') continue
    if (ctx.dialect === '3.1' && (key === 'summary' || key === 'description')) {
      if (key === 'description' && typeof value[key] === 'string') description = value[key]
      continue
    }
    ctx.unexpected(key)
  }
  return description
}
