import type { Discriminator } from '../../../model/index.js'
import { type Place, shown } from './place.js'

/** `Cat` and `#/components/schemas/Cat` name the same member. */
function target(ref: string): string {
  return ref.startsWith('#/components/schemas/') ? ref.slice('#/components/schemas/'.length) : ref
}

export function compareDiscriminators(
  place: Place,
  old: Discriminator | undefined,
  next: Discriminator | undefined,
): void {
  if (!old && !next) return
  if (!old)
    return place.fact(
      'discriminator-added',
      'discriminator-added',
      `a discriminator on ${shown(next!.propertyName)} was added`,
    )
  if (!next)
    return place.fact(
      'discriminator-removed',
      'discriminator-removed',
      `the discriminator on ${shown(old.propertyName)} was removed`,
    )
  if (old.propertyName !== next.propertyName)
    place.fact(
      'discriminator-property-changed',
      'discriminator-property-changed',
      `the discriminator property changed from ${shown(old.propertyName)} to ${shown(next.propertyName)}`,
    )
  const [a, b] = [old.mapping ?? {}, next.mapping ?? {}]
  for (const value of Object.keys(b)) {
    if (!Object.hasOwn(a, value))
      place.fact(
        'discriminator-mapping-added',
        'discriminator-mapping-added',
        `the discriminator value ${shown(value)} now maps to ${shown(target(b[value]!))}`,
      )
    else if (target(a[value]!) !== target(b[value]!))
      place.fact(
        'discriminator-mapping-changed',
        'discriminator-mapping-changed',
        `the discriminator value ${shown(value)} maps to ${shown(target(b[value]!))} instead of ${shown(target(a[value]!))}`,
      )
  }
  for (const value of Object.keys(a))
    if (!Object.hasOwn(b, value))
      place.fact(
        'discriminator-mapping-removed',
        'discriminator-mapping-removed',
        `the discriminator value ${shown(value)} no longer maps to ${shown(target(a[value]!))}`,
      )
}
