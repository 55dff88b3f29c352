import { parseScopedName, scopedNameProblem, type ScopedName } from './scoped-name.js'
import { isSemverVersion } from './semver-version.js'

/** The root manifest's path in a project, and in an uploaded project tree. */
export const ROOT_MANIFEST = 'deno.json'

/**
 * `required`: the manifest's `version` is what gets published or built. `optional`: a version is
 * given beside it (`svc publish --version`, the hub's `version` part), so it may be missing; when
 * present it is still a semver version.
 */
export type VersionRule = 'required' | 'optional'

export type RootManifest<Version extends string | undefined = string> = {
  readonly name: ScopedName
  readonly version: Version
  /** Import key → specifier; `{}` when the manifest has no `imports`. */
  readonly imports: Readonly<Record<string, string>>
}

export type ManifestReading<Version extends string | undefined> =
  | {
      readonly ok: true
      readonly manifest: RootManifest<Version>
      /** The whole object as written, other keys included, for tools that write it back. */
      readonly document: Readonly<Record<string, unknown>>
    }
  | { readonly ok: false; readonly problems: readonly string[] }

type VersionOf<Rule extends VersionRule> = Rule extends 'required' ? string : string | undefined

/**
 * Reads a root manifest from its bytes (UTF-8) or text. Every problem is a clause for "the root
 * manifest is not valid: …", naming the key and the rule it breaks.
 *
 * @example
 * readRootManifestText('{"name":"@acme/billing","version":"1.0.0"}', { version: 'required' })
 * // { ok: true, manifest: { name: { account: 'acme', slug: 'billing' }, version: '1.0.0', imports: {} }, … }
 */
export function readRootManifestText<Rule extends VersionRule>(
  source: string | Uint8Array,
  options: { readonly version: Rule },
): ManifestReading<VersionOf<Rule>> {
  let value: unknown
  try {
    const text =
      typeof source === 'string' ? source : new TextDecoder('utf-8', { fatal: true }).decode(source)
    value = JSON.parse(text)
  } catch (error) {
    return { ok: false, problems: [`it is not JSON (${(error as Error).message})`] }
  }
  return parseRootManifest(value, options)
}

/** Checks a parsed root manifest: `name` `@account/slug`, `version` semver, `imports` strings. */
export function parseRootManifest<Rule extends VersionRule>(
  value: unknown,
  options: { readonly version: Rule },
): ManifestReading<VersionOf<Rule>> {
  if (!isRecord(value)) return { ok: false, problems: ['it is not an object'] }
  const problems: string[] = []
  const name = nameOf(value.name, problems)
  const version = versionOf(value.version, options.version, problems)
  const imports = importsOf(value.imports, problems)
  if (problems.length > 0 || name === undefined) return { ok: false, problems }
  return {
    ok: true,
    manifest: { name, version: version as VersionOf<Rule>, imports },
    document: value,
  }
}

function nameOf(name: unknown, problems: string[]): ScopedName | undefined {
  if (name === undefined) problems.push("it has no 'name'")
  else if (typeof name !== 'string') problems.push("its 'name' is not a string")
  else {
    const problem = scopedNameProblem(name)
    if (problem !== undefined) problems.push(`its name ${problem}`)
    return parseScopedName(name)
  }
  return undefined
}

function versionOf(version: unknown, rule: VersionRule, problems: string[]): string | undefined {
  if (version === undefined) {
    if (rule === 'required') problems.push("it has no 'version'")
  } else if (typeof version !== 'string') problems.push("its 'version' is not a string")
  else if (!isSemverVersion(version))
    problems.push(`its version '${version}' is not a semver version such as 1.2.0`)
  else return version
  return undefined
}

function importsOf(imports: unknown, problems: string[]): Record<string, string> {
  if (imports === undefined) return {}
  if (!isRecord(imports)) {
    problems.push("its 'imports' is not an object")
    return {}
  }
  const checked: [string, string][] = []
  for (const [key, specifier] of Object.entries(imports)) {
    if (typeof specifier !== 'string') problems.push(`its import '${key}' is not a string`)
    else if (specifier === '') problems.push(`its import '${key}' is empty`)
    else checked.push([key, specifier])
  }
  // fromEntries defines every key as its own, `__proto__` included.
  return Object.fromEntries(checked)
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
