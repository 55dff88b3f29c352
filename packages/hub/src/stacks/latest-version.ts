import semver from 'semver'

/** As npm's `latest`: the highest release; a prerelease only while there is no release at all. */
export function latestOf(versions: readonly string[]): string | null {
  const sorted = [...versions].sort(semver.rcompare)
  return sorted.find((v) => semver.prerelease(v) === null) ?? sorted[0] ?? null
}
