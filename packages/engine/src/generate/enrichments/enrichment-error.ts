/** Joins a routing key sequence the way messages show it: `gen-zod → /pets → post → main`. */
export function formatEnrichmentPath(path: readonly string[]): string {
  return path.length === 0 ? 'settings.enrichments' : path.join(' → ')
}

/**
 * An enrichments block that generation cannot use: a variant block without `main`, a bad variant
 * name, or a payload the generator's schema rejects. The runner records it as the item's error
 * with `message` as the cause (SPEC §7.6).
 */
export class EnrichmentError extends Error {
  override readonly name = 'EnrichmentError'
  /** The routing key sequence of the offending block or payload. */
  readonly path: readonly string[]

  constructor(path: readonly string[], message: string) {
    super(message)
    this.path = Object.freeze([...path])
  }
}
