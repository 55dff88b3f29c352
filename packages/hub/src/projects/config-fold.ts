import { invalidRequest, type ApiError } from '../errors/index.js'

/** One leaf of `settings.enrichments`: `[generator, ...subject, variant] → value`. */
export type EnrichmentRow = {
  readonly generator: string
  readonly subject: string[]
  /** The variant key when the leaf sits in a variant block (an object with `main`), else null. */
  readonly variant: string | null
  readonly value: unknown
}

/** The hub's flat project config: client.json settings without enrichments, plus one row per leaf. */
export type ProjectConfig = {
  readonly settings: Record<string, unknown>
  readonly enrichments: readonly EnrichmentRow[]
}

export const EMPTY_CONFIG: ProjectConfig = { settings: {}, enrichments: [] }

const VARIANT = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/
export const MAX_ENRICHMENT_DEPTH = 32

type Json = Record<string, unknown>

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** A block of variants: has `main`, and every key is a variant name. */
function isVariantBlock(node: Json): boolean {
  const keys = Object.keys(node)
  return keys.includes('main') && keys.every((k) => VARIANT.test(k))
}

/**
 * Folds client.json `settings` into the flat config (SPEC §4.3). Lossless: `unfoldSettings`
 * gives back the same settings, including empty blocks.
 */
export function foldSettings(settings: Json): ProjectConfig {
  const { enrichments, ...rest } = settings
  if (enrichments !== undefined && !isObject(enrichments)) {
    throw invalidSettings('settings.enrichments', 'must be an object keyed by generator id')
  }
  const rows: EnrichmentRow[] = []
  const walk = (generator: string, subject: string[], node: unknown) => {
    if (subject.length > MAX_ENRICHMENT_DEPTH) {
      throw invalidSettings(
        `settings.enrichments.${generator}`,
        `nests deeper than ${MAX_ENRICHMENT_DEPTH} levels`,
      )
    }
    if (!isObject(node) || Object.keys(node).length === 0) {
      rows.push({ generator, subject, variant: null, value: node })
    } else if (isVariantBlock(node)) {
      for (const [variant, value] of Object.entries(node))
        rows.push({ generator, subject, variant, value })
    } else {
      for (const [key, child] of Object.entries(node)) walk(generator, [...subject, key], child)
    }
  }
  for (const [generator, node] of Object.entries(enrichments ?? {})) walk(generator, [], node)
  // An empty block has no leaf to keep it; it stays among the settings so a pull gives it back.
  if (isObject(enrichments) && rows.length === 0) return { settings: settings, enrichments: rows }
  return { settings: rest, enrichments: rows }
}

/** The nested client.json `settings` of a flat config (for `svc pull`). */
export function unfoldSettings(config: ProjectConfig): Json {
  const settings: Json = { ...config.settings }
  if (config.enrichments.length === 0) return settings
  const root: Json = {}
  for (const row of config.enrichments) {
    const path = [row.generator, ...row.subject, ...(row.variant === null ? [] : [row.variant])]
    let node = root
    for (const key of path.slice(0, -1)) {
      if (!Object.hasOwn(node, key) || !isObject(node[key])) setOwn(node, key, {})
      node = node[key] as Json
    }
    setOwn(node, path[path.length - 1] ?? row.generator, row.value)
  }
  setOwn(settings, 'enrichments', root)
  return settings
}

/** Plain assignment would let a `__proto__` key replace the prototype instead of adding a key. */
function setOwn(target: Json, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  })
}

function invalidSettings(path: string, message: string): ApiError {
  return invalidRequest([{ path: `json.${path}`, message }])
}
