/** Resource limits that keep hostile input bounded in time and memory. */
export type InputLimits = {
  /** Largest document accepted, in bytes of UTF-8 text. */
  readonly maxBytes: number
  /** Most YAML aliases expanded in one document (alias bombs). */
  readonly maxAliasCount: number
}

/** 128 MiB: the largest real descriptions (GitHub's dereferenced one) are about 78 MB. */
export const DEFAULT_LIMITS: InputLimits = Object.freeze({
  maxBytes: 128 * 1024 * 1024,
  maxAliasCount: 1_000,
})

/** Deepest schema nesting the parser descends into before it reports the schema as invalid. */
export const MAX_SCHEMA_DEPTH = 256
