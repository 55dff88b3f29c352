import {
  ENRICHMENT_WARNING_LEVELS,
  type EnrichmentWarning,
  type EnrichmentWarningType,
} from './enrichment-warning.js'
import { pathKey } from './path-tree.js'
import { childOf, isRecord } from './shape.js'

const TYPE_ORDER = Object.keys(ENRICHMENT_WARNING_LEVELS) as EnrichmentWarningType[]

/**
 * Orders warnings as their entries appear in `client.json`, then by type. Reads arrive in any
 * order (generators may run concurrently), so the order of recording is never used.
 */
export function sortInDocumentOrder(
  root: unknown,
  warnings: readonly EnrichmentWarning[],
): readonly EnrichmentWarning[] {
  const positions = new Map(warnings.map((warning) => [warning, positionOf(root, warning.path)]))
  return [...warnings].sort((a, b) => {
    const pa = positions.get(a)!
    const pb = positions.get(b)!
    for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
      if (pa[i] !== pb[i]) return pa[i]! - pb[i]!
    }
    if (pa.length !== pb.length) return pa.length - pb.length
    const byType = TYPE_ORDER.indexOf(a.type) - TYPE_ORDER.indexOf(b.type)
    if (byType !== 0) return byType
    const ka = pathKey(a.path)
    const kb = pathKey(b.path)
    return ka < kb ? -1 : ka > kb ? 1 : 0
  })
}

/** The index of each segment among its siblings' keys; a key that is not there sorts last. */
function positionOf(root: unknown, path: readonly string[]): number[] {
  const position: number[] = []
  let node = root
  for (const segment of path) {
    const index = isRecord(node) ? Object.keys(node).indexOf(segment) : -1
    position.push(index === -1 ? Number.MAX_SAFE_INTEGER : index)
    node = childOf(node, segment)
  }
  return position
}
