import { z } from 'zod'

/** One operation variant's settings under `settings.enrichments['@svc/gen-fetch-client']`. */
export const enrichmentSchema = z.object({
  /** Parse JSON responses, and check JSON bodies before sending them, with their zod schemas. */
  validate: z.boolean().optional(),
})

export type FetchClientEnrichment = z.output<typeof enrichmentSchema>

/** `_generator.validate`: the default of every operation that does not set its own. */
export function validateByDefault(generatorSettings: Readonly<Record<string, unknown>>): boolean {
  const value = generatorSettings.validate
  if (value === undefined) return false
  if (typeof value !== 'boolean')
    throw new Error(
      `@svc/gen-fetch-client → _generator → validate must be true or false, got ${JSON.stringify(value)}`,
    )
  return value
}
