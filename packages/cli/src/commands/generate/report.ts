import type { Manifest } from '@svc/engine/generate'

/** One failed item or file, as `--json` lists it and the text report prints it. */
export type GenerateError = {
  readonly generator: string | null
  readonly item: string
  readonly cause: string
}

export function errorsOf(manifest: Manifest): GenerateError[] {
  const errors: GenerateError[] = []
  for (const [generator, items] of Object.entries(manifest.results))
    for (const [item, result] of Object.entries(items))
      if (result.status === 'error') errors.push({ generator, item, cause: result.cause ?? '' })
  for (const [path, result] of Object.entries(manifest.render))
    if (result.status === 'error')
      errors.push({ generator: null, item: path, cause: result.cause ?? '' })
  return errors
}

/** Generator id → status → how many items. */
export function counts(manifest: Manifest): Record<string, Record<string, number>> {
  return Object.fromEntries(
    Object.entries(manifest.results).map(([generator, items]) => {
      const tally: Record<string, number> = {}
      for (const { status } of Object.values(items)) tally[status] = (tally[status] ?? 0) + 1
      return [generator, tally]
    }),
  )
}
