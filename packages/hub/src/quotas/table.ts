import type { QuotaId } from '@svc/hub-api'
import type { UsageKind } from '../store/schema.js'

/** What a quota counts: the things an account stores, each with a count and a size. */
export type QuotaKind = UsageKind

/** A quota bounds either how many (`count`) or how many bytes (`bytes`). */
export type QuotaMeasure = 'count' | 'bytes'

/** One storage quota of every account: its default, and the variable that changes it. */
export type QuotaRow = {
  readonly id: QuotaId
  readonly kind: QuotaKind
  readonly measure: QuotaMeasure
  /** The environment variable of the default (docs/hub/running.md). */
  readonly setting: string
  readonly defaultLimit: number
  /** What it bounds, after its limit in messages: `10,000 revisions`, `2.00 GiB of run artifacts`. */
  readonly label: string
}

const MiB = 1024 * 1024
const GiB = 1024 * MiB

/**
 * The default storage quotas of every account (user or organisation), counted over what the
 * account OWNS: the revision documents of its APIs, the versions of its stacks (bundle and source
 * bytes), the artifacts of its projects' runs and its projects' base files. docs/hub/running.md
 * shows this table; a test keeps the two equal. A limit of 0 means no limit.
 *
 * Sized so that real work never meets them: GitHub's REST description (13 MB) can be pushed about
 * 150 times, a stack at the publish limits (30 MiB) some 30 times, a typical one (2 MB) 500; 2 GiB
 * of run artifacts hold a thousand runs of GitHub's types and zod schemas (2 MB each), and with
 * the retention rule's 10 runs per deployment, 100 deployments of them.
 */
export const DEFAULT_QUOTAS: readonly QuotaRow[] = Object.freeze(
  (
    [
      ['revisions', 'revisions', 'count', 'SVC_HUB_QUOTA_REVISIONS', 10_000, 'revisions'],
      [
        'revisionBytes',
        'revisions',
        'bytes',
        'SVC_HUB_QUOTA_REVISION_BYTES',
        2 * GiB,
        'of revision documents',
      ],
      [
        'stackVersions',
        'stackVersions',
        'count',
        'SVC_HUB_QUOTA_STACK_VERSIONS',
        1_000,
        'stack versions',
      ],
      [
        'stackVersionBytes',
        'stackVersions',
        'bytes',
        'SVC_HUB_QUOTA_STACK_VERSION_BYTES',
        1 * GiB,
        'of stack versions (bundles and sources)',
      ],
      [
        'runArtifacts',
        'runArtifacts',
        'count',
        'SVC_HUB_QUOTA_RUN_ARTIFACTS',
        100_000,
        'run artifacts',
      ],
      [
        'runArtifactBytes',
        'runArtifacts',
        'bytes',
        'SVC_HUB_QUOTA_RUN_ARTIFACT_BYTES',
        2 * GiB,
        'of run artifacts',
      ],
      ['baseFiles', 'baseFiles', 'count', 'SVC_HUB_QUOTA_BASE_FILES', 20_000, 'base files'],
      [
        'baseFileBytes',
        'baseFiles',
        'bytes',
        'SVC_HUB_QUOTA_BASE_FILE_BYTES',
        256 * MiB,
        'of base files',
      ],
    ] as const
  ).map(([id, kind, measure, setting, defaultLimit, label]) =>
    Object.freeze({ id, kind, measure, setting, defaultLimit, label }),
  ),
)

const BY_ID = new Map(DEFAULT_QUOTAS.map((row) => [row.id, row]))

/** The table's row of a quota. */
export function quotaRow(id: QuotaId): QuotaRow {
  return BY_ID.get(id)!
}

/** The table's row of a quota named by a user (an admin command), if there is one. */
export function findQuota(id: string): QuotaRow | undefined {
  return BY_ID.get(id as QuotaId)
}

/** The two quotas of a kind: its count and its bytes. */
export function quotasOf(kind: QuotaKind): readonly [count: QuotaRow, bytes: QuotaRow] {
  const rows = DEFAULT_QUOTAS.filter((row) => row.kind === kind)
  return [rows.find((r) => r.measure === 'count')!, rows.find((r) => r.measure === 'bytes')!]
}
