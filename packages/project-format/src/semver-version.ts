import semver from 'semver'

/**
 * A version exactly as semver writes it: `1.2.0` and `2.0.0-rc.1`, not `v1.2.0`, `1.2` or
 * `1.2.0+build` (build metadata would make two spellings of one version).
 */
export function isSemverVersion(value: string): boolean {
  return value.length <= 256 && semver.valid(value) === value
}
