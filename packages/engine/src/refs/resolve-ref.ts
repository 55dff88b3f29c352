import type { ApiModel, Components } from '../model/api-model.js'
import type { ComponentBucket } from '../model/operation.js'
import { RefError } from './ref-error.js'
import { parseLocalRef } from './pointer.js'

/** Most ref-to-ref hops followed before giving up (SPEC §8). */
export const MAX_REF_LOOKUPS = 10

/** The singular word used in `Ref type mismatch` messages for each bucket. */
export const BUCKET_TYPE: Readonly<Record<string, string>> = Object.freeze({
  schemas: 'schema',
  parameters: 'parameter',
  responses: 'response',
  requestBodies: 'requestBody',
  headers: 'header',
  securitySchemes: 'securityScheme',
  examples: 'example',
  links: 'link',
  callbacks: 'callback',
  pathItems: 'pathItem',
})

type Resolved<B extends ComponentBucket> = Exclude<Components[B][string], { kind: 'ref' }>

/** Splits `#/components/<bucket>/<name>`; undefined when the ref does not name a component. */
export function splitComponentRef(ref: string): { bucket: string; name: string } | undefined {
  const cached = splitCache.get(ref)
  if (cached !== undefined || splitCache.has(ref)) return cached
  const segments = parseLocalRef(ref)
  const split =
    !segments || segments.length !== 3 || segments[0] !== 'components'
      ? undefined
      : { bucket: segments[1]!, name: segments[2]! }
  if (splitCache.size > 100_000) splitCache.clear()
  splitCache.set(ref, split)
  return split
}

/** Refs repeat thousands of times in a large document; splitting each once is enough. */
const splitCache = new Map<string, { bucket: string; name: string } | undefined>()

/**
 * Follows a `$ref` to the component it names, through refs to refs, as generators do.
 * Throws {@link RefError}: `Max lookups reached` past {@link MAX_REF_LOOKUPS} hops,
 * `Ref "<ref>" not found`, or `Ref type mismatch …` when it points into another bucket.
 *
 * @example
 * const user = resolveRef(model, '#/components/schemas/User', 'schemas')
 */
export function resolveRef<B extends ComponentBucket>(
  model: Pick<ApiModel, 'components'>,
  ref: string,
  bucket: B,
): Resolved<B> {
  let current = ref
  for (let lookups = 1; ; lookups++) {
    if (lookups > MAX_REF_LOOKUPS) throw RefError.maxLookups(ref)
    const target = splitComponentRef(current)
    if (!target) throw RefError.notFound(current)
    if (target.bucket !== bucket) {
      throw RefError.typeMismatch(
        current,
        BUCKET_TYPE[bucket]!,
        BUCKET_TYPE[target.bucket] ?? target.bucket,
      )
    }
    const components = model.components[bucket] as Readonly<Record<string, unknown>>
    if (!Object.hasOwn(components, target.name)) throw RefError.notFound(current)
    const found = components[target.name] as { kind?: string; $ref?: string }
    if (found.kind === 'ref' && typeof found.$ref === 'string') {
      current = found.$ref
      continue
    }
    return found as Resolved<B>
  }
}
