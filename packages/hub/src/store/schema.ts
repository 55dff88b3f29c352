import type { ColumnType, Generated, Insertable, Selectable } from 'kysely'

/**
 * The hub's tables. Times are ISO 8601 UTC strings (they sort as text on both engines);
 * JSON columns are text; blobs are content-addressed by their SHA-256.
 */
export type Database = {
  accounts: AccountsTable
  memberships: MembershipsTable
  tokens: TokensTable
  api_keys: ApiKeysTable
  blobs: BlobsTable
  stacks: StacksTable
  stack_versions: StackVersionsTable
  stack_version_files: StackVersionFilesTable
  apis: ApisTable
  revisions: RevisionsTable
  revision_acceptances: RevisionAcceptancesTable
  revision_changelogs: RevisionChangelogsTable
  projects: ProjectsTable
  project_base_files: ProjectBaseFilesTable
  webhooks: WebhooksTable
  webhook_events: WebhookEventsTable
  webhook_deliveries: WebhookDeliveriesTable
  webhook_attempts: WebhookAttemptsTable
  rate_limit_overrides: RateLimitOverridesTable
  credit_entries: CreditEntriesTable
  credit_settings: CreditSettingsTable
  libraries: LibrariesTable
  idempotency_keys: IdempotencyKeysTable
  passwords: PasswordsTable
  sessions: SessionsTable
  deployments: DeploymentsTable
  runs: RunsTable
  run_artifacts: RunArtifactsTable
  project_aliases: ProjectAliasesTable
  account_usage: AccountUsageTable
  quota_overrides: QuotaOverridesTable
}

/**
 * A 64-bit integer column: PostgreSQL's driver answers `bigint` as a string (it may not fit a
 * double), SQLite as a number. Read it through `Number()`; sizes stay far below 2^53.
 */
export type BigIntColumn = ColumnType<number | string, number, number>

export type AccountKind = 'user' | 'org'
export type Role = 'owner' | 'writer' | 'reader'

export type AccountsTable = {
  id: string
  handle: string
  kind: AccountKind
  created_at: string
}

export type MembershipsTable = {
  org_id: string
  user_id: string
  role: Role
  created_at: string
}

export type TokensTable = {
  id: string
  user_id: string
  /** SHA-256 hex of the whole PAT; the PAT itself is never stored. */
  token_hash: string
  /** Space-separated scopes. */
  scopes: string
  note: string | null
  created_at: string
  expires_at: string | null
  revoked_at: string | null
  last_used_at: string | null
}

export type ApiKeysTable = {
  id: string
  org_id: string
  key_hash: string
  /** The user who made the key; null when made by `svc-hub admin`. */
  created_by: string | null
  created_at: string
  revoked_at: string | null
}

export type BlobsTable = {
  sha256: string
  size: number
  data: Uint8Array
  created_at: string
}

export type StacksTable = {
  id: string
  account_id: string
  slug: string
  created_at: string
}

export type StackVersionsTable = {
  id: string
  stack_id: string
  version: string
  bundle_sha256: string
  bundle_bytes: number
  source_file_count: number
  source_total_bytes: number
  /** JSON: the generator composition, `[{ name, kind: 'imported' | 'cloned', ... }]`. */
  composition: string
  manifest_path: string
  published_by: string
  published_at: string
}

export type StackVersionFilesTable = {
  stack_version_id: string
  path: string
  size: number
  sha256: string
}

export type ApisTable = {
  id: string
  account_id: string
  slug: string
  name: string
  visibility: 'public' | 'private'
  source_url: string | null
  created_at: string
  /** The profile its revisions' changelogs are computed with. */
  diff_profile: Generated<DiffProfileName>
}

/** Whose breakage a diff judges (`DIFF_PROFILES` of `@svc/engine`). */
export type DiffProfileName = 'wire' | 'sdk'

export type RevisionOrigin = 'push' | 'refetch'

/**
 * One revision of an API: its document (a blob), where it sits in the API's series (`seq`,
 * the latest is the highest) and its changelog against the revision that was latest before.
 */
export type RevisionsTable = {
  id: string
  api_id: string
  /** 1, 2, 3 … per API; the order of the series (the `version` label is not an ordering). */
  seq: number
  /** SHA-256 hex of the document bytes: the key of the blob that holds them. */
  content_hash: string
  /** Bytes of the document. */
  size: number
  /** How the document is served back: `application/json`, `application/yaml`, `application/graphql`. */
  media_type: string
  protocol: 'oas' | 'gql'
  format: 'json' | 'yaml' | 'graphql'
  /** What the document says it is: `3.1.0`, `2.0` … for OpenAPI, `sdl` for GraphQL. */
  spec_version: string
  /** The publisher's version label. */
  version: string | null
  /** The publisher's timestamp. */
  published_at: string | null
  retrieved_at: string
  created_by: string
  origin: RevisionOrigin
  previous_revision_id: string | null
  /** Parse issues of the document, per level. */
  issue_errors: number
  issue_warnings: number
  issue_debug: number
  /** JSON: the changelog's ChangeSummary. */
  summary: string
  /** The changelog's ChangeSeverity. */
  breaking: number
  warning: number
  info: number
  /** JSON: the changelog's entries, as the engine's diff returned them. */
  changes: string
  /** JSON: the changelog's `issues` (both documents' error-level parse issues); null when none. */
  changelog_issues: string | null
  /** JSON: the document's parse issues, every level, as the engine reported them; null when not kept. */
  parse_issues: string | null
  /** The profile `summary`, the counts, `changes` and `changelog_issues` were computed with. */
  profile: Generated<DiffProfileName>
}

/**
 * A revision's changelog under another profile than the revision's own, computed with it (for a
 * push's `?profile=` or a webhook's profile) or when first asked for; the columns are the
 * revision's changelog columns.
 */
export type RevisionChangelogsTable = {
  revision_id: string
  profile: DiffProfileName
} & Pick<
  RevisionsTable,
  'summary' | 'breaking' | 'warning' | 'info' | 'changes' | 'changelog_issues'
>

/**
 * A revision's breaking changes and warnings accepted as deliberate (`svc api accept`): who, when
 * and why. At most one per revision; the revision itself stays as it was pushed.
 */
export type RevisionAcceptancesTable = {
  revision_id: string
  /** The user who accepted it. */
  accepted_by: string
  accepted_at: string
  reason: string
}

export type ProjectsTable = {
  id: string
  account_id: string
  slug: string
  stack_id: string
  /** A semver version of the stack or `latest`. */
  stack_version: string
  api_id: string
  /** JSON: the flat ProjectConfig. */
  config: string
  config_updated_at: string | null
  created_by: string
  created_at: string
}

export type ProjectBaseFilesTable = {
  project_id: string
  path: string
  size: number
  sha256: string
}

export type WebhooksTable = {
  id: string
  api_id: string
  url: string
  description: string | null
  /** 1 or 0: only active webhooks get revision events. */
  active: number
  /** The least change level a revision must have for its event to be sent here (`info`: any). */
  min_level: Generated<WebhookMinLevel>
  /** The profile its revision events are judged with; null: the API's `diff_profile`. */
  profile: DiffProfileName | null
  /** `whsec_…`, kept as is because every attempt is signed with it. */
  secret: string
  secret_rotated_at: string | null
  created_by: string
  created_at: string
  updated_at: string
}

export type WebhookMinLevel = 'breaking' | 'warning' | 'info'

export type WebhookEventType =
  'dev.svc.api.revision.v1' | 'dev.svc.api.revision.accepted.v1' | 'dev.svc.api.test.v1'

/** One CloudEvent, sent as these exact bytes on every attempt of each of its deliveries. */
export type WebhookEventsTable = {
  /** The CloudEvent `id`. */
  id: string
  api_id: string
  type: WebhookEventType
  /** The revision that became latest (revision events), or that was accepted (acceptance events). */
  revision_id: string | null
  /** The serialised CloudEvent. */
  body: string
  created_at: string
}

/**
 * `pending`: due at `next_attempt_at` (new, retry pending, or claimed: a claim moves
 * `next_attempt_at` to the end of its lease and sets `claim_token`). `succeeded` and `failed`
 * are final until a manual retry makes the row pending again.
 */
export type DeliveryState = 'pending' | 'succeeded' | 'failed'
export type AttemptTrigger = 'scheduled' | 'manual'

export type WebhookDeliveriesTable = {
  id: string
  event_id: string
  webhook_id: string
  state: DeliveryState
  created_at: string
  next_attempt_at: string | null
  /** What made the next attempt due: the schedule, or the owner's retry. */
  next_trigger: AttemptTrigger
  /** Set while a worker holds the row; its completion must present it. */
  claim_token: string | null
  /** The first attempt of the current run of retries (24 h window); reset by a manual retry. */
  window_started_at: string | null
  window_attempts: number
  attempt_count: number
  last_attempt_at: string | null
  last_status: number | null
  last_error: string | null
  completed_at: string | null
}

export type AttemptOutcome = 'succeeded' | 'retry' | 'failed'

export type WebhookAttemptsTable = {
  delivery_id: string
  /** 1, 2, 3 … over the delivery's whole life (manual retries included). */
  number: number
  trigger: AttemptTrigger
  url: string
  /** JSON array of the redirect locations followed. */
  redirects: string
  started_at: string
  duration_ms: number
  outcome: AttemptOutcome
  /** The final HTTP status, when an answer came. */
  status: number | null
  error: string | null
  /** At most 4 KiB of a non-2xx answer. */
  response_excerpt: string | null
  next_attempt_at: string | null
}

/** A library of an organisation (SPEC §2 Library), made by a user's PAT or by an org API key. */
export type LibrariesTable = {
  id: string
  org_id: string
  name: string
  /** JSON: the IngestionProfile as the request gave it. */
  ingestion_profile: string
  /** The user whose PAT made it; null when an API key did. */
  created_by: string | null
  /** The API key that made it; null when a PAT did. */
  api_key_id: string | null
  created_at: string
  updated_at: string
}

/**
 * `in_flight`: claimed by a request that is still working (or died: the claim can be taken over
 * once `claimed_at` is older than the lease). `done`: holds the response to replay.
 */
export type IdempotencyState = 'in_flight' | 'done'

/** One `Idempotency-Key` of one caller (`scope`); the primary key (scope, key) is the claim. */
export type IdempotencyKeysTable = {
  scope: string
  key: string
  /** SHA-256 hex of the canonical JSON of what the request asked for. */
  request_hash: string
  state: IdempotencyState
  /** Set by each claim; only its holder can complete or release the row. */
  claim_token: string
  claimed_at: string
  response_status: number | null
  /** The exact bytes of the first response, as text. */
  response_body: string | null
  created_at: string
  /** created_at + 24 h: from then on the key may be used again. */
  expires_at: string
}

export type CreditEntryKind = 'grant' | 'charge' | 'refund'

/** One line of an organisation's credits ledger; the balance is the sum of its lines. */
export type CreditEntriesTable = {
  id: string
  org_id: string
  /** 1, 2, 3 … per organisation: the order of its ledger. */
  seq: number
  kind: CreditEntryKind
  /** Whole credits, always positive: the kind says which way they go. */
  amount: number
  reason: string | null
  /** The request that caused it (charges and refunds); null for an operator's grant. */
  request_id: string | null
  /** The charge a refund gives back (refunds only; each charge at most once). */
  refund_of: string | null
  created_at: string
}

/** An organisation's credit settings; an organisation without a row has the defaults. */
export type CreditSettingsTable = {
  org_id: string
  /** Below this balance, answers carry a `lowCreditAlert`. */
  low_credit_threshold: number
  updated_at: string
}

/**
 * An organisation's own limit for one route (`method` and `path` as the default table names
 * them, e.g. `GET` and `/v1/apis/{owner}/{slug}`): `max` requests per `window_seconds`.
 */
export type RateLimitOverridesTable = {
  org_id: string
  method: string
  path: string
  max: number
  window_seconds: number
  updated_at: string
}

/** A user's password for the web app: `scrypt$N$r$p$salt$key` (auth/passwords.ts). */
export type PasswordsTable = {
  user_id: string
  hash: string
  updated_at: string
}

/** A signed-in browser. The cookie holds the session token; the store keeps its SHA-256. */
export type SessionsTable = {
  id: string
  token_hash: string
  user_id: string
  /** The token every form of this session sends back (web/session/csrf.ts). */
  csrf_token: string
  /** JSON: the one-time notice the next page shows (a new secret is shown here once). */
  flash: string | null
  created_at: string
  last_seen_at: string
  expires_at: string
}

/** A stack version pinned for a project. */
export type DeploymentsTable = {
  id: string
  project_id: string
  stack_version_id: string
  created_by: string
  created_at: string
}

export type RunStatus = 'running' | 'succeeded' | 'failed'

/** One execution of a deployment's `server.js` against the API's latest revision. */
export type RunsTable = {
  id: string
  project_id: string
  deployment_id: string
  /** The revision the run generated from; null when the API had none. */
  revision_id: string | null
  status: RunStatus
  /** Why a failed run failed, in one paragraph. */
  error: string | null
  /** JSON: the manifest the bundle answered (parse issues, enrichment warnings …). */
  manifest: string | null
  /** The end of what the child process printed (stdout and stderr). */
  log: string | null
  created_by: string
  started_at: string
  finished_at: string | null
  duration_ms: number | null
  /** How many artifacts the run stored, and their bytes (what it counts against its quotas). */
  artifact_count: Generated<number>
  artifact_bytes: ColumnType<number | string, number | undefined, number>
  /** When the retention rule removed the run's artifacts; null while they are kept. */
  artifacts_pruned_at: string | null
}

/** A file a run generated; its bytes are a blob. */
export type RunArtifactsTable = {
  run_id: string
  path: string
  size: number
  sha256: string
}

/** A named pointer of a project at one of its deployments; the web app uses `production`. */
export type ProjectAliasesTable = {
  project_id: string
  name: string
  deployment_id: string
  updated_by: string
  updated_at: string
}

export type UsageKind = 'revisions' | 'stackVersions' | 'runArtifacts' | 'baseFiles'

/**
 * What one account owns of one kind: how many items and bytes. Every write of that kind changes
 * it in the write's transaction, and checks the account's quotas there (store/usage-repo.ts).
 */
export type AccountUsageTable = {
  account_id: string
  kind: UsageKind
  items: BigIntColumn
  bytes: BigIntColumn
}

/** An account's own limit for one quota (`svc-hub admin set-quota`); 0 is no limit. */
export type QuotaOverridesTable = {
  account_id: string
  /** A quota id of the table (`quotas/table.ts`): `runArtifactBytes` … */
  quota: string
  quota_limit: BigIntColumn
  updated_at: string
}

export type AccountRow = Selectable<AccountsTable>
export type TokenRow = Selectable<TokensTable>
export type ApiKeyRow = Selectable<ApiKeysTable>
export type StackRow = Selectable<StacksTable>
export type StackVersionRow = Selectable<StackVersionsTable>
export type NewStackVersion = Insertable<StackVersionsTable>
export type ApiRow = Selectable<ApisTable>
export type RevisionRow = Selectable<RevisionsTable>
export type RevisionAcceptanceRow = Selectable<RevisionAcceptancesTable>
export type RevisionChangelogRow = Selectable<RevisionChangelogsTable>
export type NewRevision = Insertable<RevisionsTable>
export type ProjectRow = Selectable<ProjectsTable>
export type WebhookRow = Selectable<WebhooksTable>
export type WebhookEventRow = Selectable<WebhookEventsTable>
export type DeliveryRow = Selectable<WebhookDeliveriesTable>
export type AttemptRow = Selectable<WebhookAttemptsTable>
export type RateLimitOverrideRow = Selectable<RateLimitOverridesTable>
export type CreditEntryRow = Selectable<CreditEntriesTable>
export type LibraryRow = Selectable<LibrariesTable>
export type IdempotencyKeyRow = Selectable<IdempotencyKeysTable>
export type SessionRow = Selectable<SessionsTable>
export type DeploymentRow = Selectable<DeploymentsTable>
export type RunRow = Selectable<RunsTable>
export type RunArtifactRow = Selectable<RunArtifactsTable>
export type ProjectAliasRow = Selectable<ProjectAliasesTable>
