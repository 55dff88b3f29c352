/** Resource limits that keep hostile input bounded in time and memory. */
export type InputLimits = {
  /** Largest document accepted, in bytes of UTF-8 text. */
  readonly maxBytes: number
  /** Most YAML aliases expanded in one document (alias bombs). */
  readonly maxAliasCount: number
  /**
   * Most nodes (mappings, sequences, keys, scalars) a YAML document may have once every alias is
   * replaced by what it names: a few aliases of a large anchor stay under `maxAliasCount` yet
   * make a tree that takes minutes to read. JSON has no aliases; `maxBytes` bounds its nodes.
   */
  readonly maxExpandedNodes: number
}

/**
 * 128 MiB: the largest real descriptions (GitHub's dereferenced one) are about 78 MB.
 * 10 million expanded nodes: the largest tree we know, Microsoft Graph beta, has 2.65 million, and
 * GitHub's dereferenced description 2.19 million (docs/benchmarks.md, "Expanded size").
 */
export const DEFAULT_LIMITS: InputLimits = Object.freeze({
  maxBytes: 128 * 1024 * 1024,
  maxAliasCount: 1_000,
  maxExpandedNodes: 10_000_000,
})

/** Deepest schema nesting the parser descends into before it reports the schema as invalid. */
export const MAX_SCHEMA_DEPTH = 256
