import { accessSync, constants, readFileSync, statSync } from 'node:fs'
import { dirname, relative } from 'node:path'
import semver from 'semver'
import { enginePinFix } from '../../bundle/build-bundle.js'
import { outOfSyncMessage } from '../../bundle/bundle-header.js'
import { bundleState } from '../../bundle/freshness.js'
import { projectPaths, type ProjectPaths } from '../../project/app-root.js'
import {
  basePathOf,
  basePathProblem,
  readClientConfig,
  type ClientConfig,
} from '../../project/client-config.js'
import { parseJsrSpecifier, parseScopedName } from '@svc/project-format'
import { PLACEHOLDER_ACCOUNT } from '../publish/account-check.js'
import { installedPackage } from '../../project/official-generators.js'
import {
  compositionOf,
  ENGINE_IMPORT,
  readRootManifest,
  type Composition,
} from '../../project/root-manifest.js'

export type CheckStatus = 'ok' | 'warning' | 'error' | 'skipped'

export type Check = {
  readonly id: string
  readonly status: CheckStatus
  readonly message: string
  /** What to do about it, as a command or an edit. */
  readonly hint?: string
  readonly data?: Record<string, unknown>
}

const ORDER: readonly CheckStatus[] = ['ok', 'skipped', 'warning', 'error']

/** The worst status of the checks: the `summary` of `svc doctor --json`. */
export function worst(checks: readonly Check[]): CheckStatus {
  return checks.reduce<CheckStatus>(
    (found, check) => (ORDER.indexOf(check.status) > ORDER.indexOf(found) ? check.status : found),
    'ok',
  )
}

export function nodeCheck(version = process.versions.node): Check {
  return semver.satisfies(version, '>=20.19')
    ? { id: 'node-version', status: 'ok', message: `Node.js ${version}` }
    : {
        id: 'node-version',
        status: 'error',
        message: `Node.js ${version} is older than svc supports (20.19 or later)`,
        hint: 'install Node.js 20.19 or later (22 and 24 work too)',
      }
}

/**
 * Every check of one project, in the order a user fixes them. `handle`: the login's user, when
 * the hub took the token, for the name to write instead of a placeholder.
 */
export function projectChecks(appRoot: string, name: string, handle?: string): Check[] {
  const paths = projectPaths(appRoot, name)
  const shown = (path: string) => relative(appRoot, path)
  const checks: Check[] = []
  let composition: Composition | undefined
  let pin: string | undefined
  let stack: string | undefined
  try {
    const manifest = readRootManifest(paths.rootManifest)
    stack = manifest.name
    pin = manifest.imports[ENGINE_IMPORT]
    composition = compositionOf(manifest, paths.dir)
    checks.push(
      composition.problems.length === 0
        ? {
            id: `project-deno-json/${name}`,
            status: 'ok',
            message: `${manifest.name}@${manifest.version} with ${composition.generators.length} generator(s): ${composition.generators.map((g) => `${g.key} (${g.kind})`).join(', ') || 'none'}`,
          }
        : {
            id: `project-deno-json/${name}`,
            status: 'error',
            message: composition.problems.join('; '),
            hint: `edit ${shown(paths.rootManifest)}, or use svc install / svc remove --force`,
          },
    )
  } catch (error) {
    checks.push({
      id: `project-deno-json/${name}`,
      status: 'error',
      message: (error as Error).message,
      hint: `fix ${shown(paths.rootManifest)}: it needs name (@account/slug), version (semver) and imports`,
    })
  }
  checks.push(nameCheck(paths, stack, handle))
  checks.push(corePinCheck(paths, pin, composition !== undefined))
  let config: ClientConfig | undefined
  try {
    config = readClientConfig(paths.clientConfig)
    checks.push({
      id: `project-client-json/${name}`,
      status: 'ok',
      message: `${shown(paths.clientConfig)} is valid`,
    })
  } catch (error) {
    checks.push({
      id: `project-client-json/${name}`,
      status: 'error',
      message: (error as Error).message,
      hint: `fix ${shown(paths.clientConfig)}`,
    })
  }
  checks.push(basePathCheck(paths, config))
  checks.push(bundleCheck(paths, composition))
  checks.push(...manifestChecks(paths))
  return checks
}

/**
 * `svc init` without a login names the stack `@local/<project>`, and warns once; no hub has the
 * account `local`, so `svc publish` refuses it. The check keeps saying so until it is renamed.
 */
function nameCheck(paths: ProjectPaths, stack: string | undefined, handle?: string): Check {
  const id = `project-name/${paths.name}`
  if (stack === undefined) return { id, status: 'skipped', message: 'deno.json cannot be read' }
  const scoped = parseScopedName(stack)
  if (scoped?.account !== PLACEHOLDER_ACCOUNT)
    return { id, status: 'ok', message: `the stack is ${stack}` }
  const file = relative(paths.appRoot, paths.rootManifest)
  return {
    id,
    status: 'warning',
    message: `the stack is ${stack}, the placeholder svc init writes without a login: no hub has the account '${PLACEHOLDER_ACCOUNT}', so svc publish refuses it`,
    hint:
      handle === undefined
        ? `set "name": "@<your handle>/${scoped.slug}" in ${file} (svc login, then svc whoami tells your handle; or an organisation's: @<organisation>/${scoped.slug})`
        : `set "name": "@${handle}/${scoped.slug}" in ${file} (or an organisation's: @<organisation>/${scoped.slug})`,
    data: { name: stack, file },
  }
}

function corePinCheck(paths: ProjectPaths, pin: string | undefined, readable: boolean): Check {
  const id = `project-core-pin/${paths.name}`
  if (!readable) return { id, status: 'skipped', message: 'deno.json cannot be read' }
  const version = installedPackage(ENGINE_IMPORT).version
  const fix = `set in ${relative(paths.appRoot, paths.rootManifest)} imports: ${enginePinFix(version)}`
  if (pin === undefined)
    return {
      id,
      status: 'warning',
      message: `deno.json does not pin ${ENGINE_IMPORT}; the bundle uses the shipped ${version}`,
      hint: fix,
    }
  const range = parseJsrSpecifier(pin)?.range
  if (range === undefined || semver.validRange(range) === null)
    return {
      id,
      status: 'error',
      message: `${ENGINE_IMPORT} is pinned to '${pin}', which is not a jsr:${ENGINE_IMPORT}@<range> specifier`,
      hint: fix,
    }
  if (!semver.satisfies(version, range))
    return {
      id,
      status: 'error',
      message: `${ENGINE_IMPORT} is pinned to ${range}, but svc ships ${version}: bundling would fail`,
      hint: fix,
      data: { pinned: range, shipped: version },
    }
  return { id, status: 'ok', message: `${ENGINE_IMPORT} ${range} matches the shipped ${version}` }
}

function basePathCheck(paths: ProjectPaths, config: ClientConfig | undefined): Check {
  const id = `project-base-path/${paths.name}`
  if (config === undefined) return { id, status: 'skipped', message: 'client.json cannot be read' }
  const basePath = basePathOf(config, paths.appRoot, paths.name)
  const shown = relative(paths.appRoot, basePath) || '.'
  const hint = `set settings.basePath in ${relative(paths.appRoot, paths.clientConfig)} to a folder svc may write`
  const problem = basePathProblem(basePath, paths.appRoot)
  if (problem !== undefined) return { id, status: 'error', message: problem, hint }
  let existing = basePath
  for (;;) {
    try {
      const stat = statSync(existing)
      if (!stat.isDirectory())
        return {
          id,
          status: 'error',
          message: `${relative(paths.appRoot, existing)} is a file, so basePath '${shown}' cannot be a folder`,
          hint,
        }
      accessSync(existing, constants.W_OK)
      break
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if ((code === 'ENOENT' || code === 'ENOTDIR') && dirname(existing) !== existing)
        existing = dirname(existing)
      else
        return {
          id,
          status: 'error',
          message: `basePath '${shown}' is not writable (${code})`,
          hint,
        }
    }
  }
  const outside = relative(paths.appRoot, basePath).startsWith('..')
  return outside
    ? { id, status: 'warning', message: `basePath '${basePath}' is outside the app root`, hint }
    : { id, status: 'ok', message: `generated files go to ${shown}` }
}

function bundleCheck(paths: ProjectPaths, composition: Composition | undefined): Check {
  const id = `project-bundle/${paths.name}`
  const hint = `svc bundle ${paths.name}`
  if (composition === undefined || composition.problems.length > 0)
    return { id, status: 'skipped', message: 'the generators of deno.json are not consistent' }
  const state = bundleState(paths, composition.generators)
  if (state.state === 'missing')
    return {
      id,
      status: 'warning',
      message: 'no bundle.js yet: svc generate builds it, strict mode (--json, --no-input) refuses',
      hint,
    }
  if (state.state === 'stale')
    return { id, status: 'warning', message: outOfSyncMessage(state.stale), hint }
  return { id, status: 'ok', message: 'bundle.js matches deno.json and the cloned sources' }
}

type StoredManifest = {
  results?: Record<string, Record<string, { status?: string }>>
  render?: Record<string, { status?: string }>
  enrichmentWarnings?: { level?: string; message?: string; type?: string }[]
  endAt?: string
}

function manifestChecks(paths: ProjectPaths): Check[] {
  const manifestId = `project-manifest/${paths.name}`
  const enrichmentsId = `project-enrichments/${paths.name}`
  let manifest: StoredManifest
  try {
    manifest = JSON.parse(readFileSync(paths.manifest, 'utf8')) as StoredManifest
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      return [
        {
          id: manifestId,
          status: 'skipped',
          message: 'never generated',
          hint: `svc generate ${paths.name} <schema>`,
        },
        {
          id: enrichmentsId,
          status: 'skipped',
          message: 'never generated: the last run audits the enrichments',
        },
      ]
    return [
      {
        id: manifestId,
        status: 'error',
        message: `${relative(paths.appRoot, paths.manifest)} is not valid JSON`,
        hint: `svc generate ${paths.name} writes it again`,
      },
      { id: enrichmentsId, status: 'skipped', message: 'the manifest cannot be read' },
    ]
  }
  const failed = Object.values(manifest.results ?? {}).flatMap((items) =>
    Object.values(items).filter((result) => result.status === 'error'),
  ).length
  const failedFiles = Object.values(manifest.render ?? {}).filter(
    (r) => r.status === 'error',
  ).length
  const warnings = (manifest.enrichmentWarnings ?? []).filter((w) => w.level === 'warning')
  return [
    failed + failedFiles === 0
      ? {
          id: manifestId,
          status: 'ok',
          message: `the last run (${manifest.endAt ?? 'unknown time'}) had no failed item`,
        }
      : {
          id: manifestId,
          status: 'warning',
          message: `the last run had ${failed} failed item(s) and ${failedFiles} failed file(s)`,
          hint: `svc generate ${paths.name} --json lists them under errors`,
          data: { failedItems: failed, failedFiles },
        },
    warnings.length === 0
      ? {
          id: enrichmentsId,
          status: 'ok',
          message: 'every enrichment was consumed in the last run',
        }
      : {
          id: enrichmentsId,
          status: 'warning',
          message: `${warnings.length} enrichment warning(s) in the last run: ${warnings[0]!.message}`,
          hint: `fix settings.enrichments in ${relative(paths.appRoot, paths.clientConfig)}; the manifest's enrichmentWarnings list them all`,
          data: { warnings: warnings.length },
        },
  ]
}
