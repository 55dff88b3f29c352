import type { ComponentBucket, ComponentRef, OasModel } from '../../model/index.js'

export type Resolvable<T> = T | ComponentRef<ComponentBucket>

/**
 * Follows a component ref chain; undefined when it leads nowhere. A 3.1 `description` beside the
 * first `$ref` overrides the target's, as it does for a reader.
 */
export function resolveComponent<T>(
  model: OasModel,
  bucket: 'parameters' | 'requestBodies' | 'responses' | 'headers',
  value: Resolvable<T>,
): T | undefined {
  const override = isRef(value) ? value.description : undefined
  let current: unknown = value
  for (let hops = 0; hops < 10; hops++) {
    const node = current as { kind?: string; refName?: string }
    if (node.kind !== 'ref') {
      return override === undefined ? (current as T) : ({ ...node, description: override } as T)
    }
    const components = model.components[bucket] as Record<string, unknown>
    if (!Object.hasOwn(components, node.refName!)) return undefined
    current = components[node.refName!]
  }
  return undefined
}

export function isRef(value: unknown): value is ComponentRef<ComponentBucket> {
  return (value as { kind?: string }).kind === 'ref'
}
