import { distance } from 'fastest-levenshtein'

/** Keys this short allow one edit only: two edits turn `get` into almost any 3-letter key. */
const SHORT_KEY_LENGTH = 4

/**
 * The candidate a near-miss `key` most likely meant: a case-only match wins; otherwise the
 * nearest within edit distance 1 (keys of ≤ 4 characters) or 2. Ties go to the first candidate
 * in code-unit order, so the answer never depends on the order candidates were seen in.
 */
export function suggestKey(key: string, candidates: Iterable<string>): string | undefined {
  const sorted = [...new Set(candidates)].filter((candidate) => candidate !== key).sort()
  const lower = key.toLowerCase()
  const caseOnly = sorted.find((candidate) => candidate.toLowerCase() === lower)
  if (caseOnly !== undefined) return caseOnly
  const limit = key.length <= SHORT_KEY_LENGTH ? 1 : 2
  let best: string | undefined
  let bestDistance = limit + 1
  for (const candidate of sorted) {
    const d = distance(key, candidate)
    if (d < bestDistance) {
      best = candidate
      bestDistance = d
    }
  }
  return best
}
