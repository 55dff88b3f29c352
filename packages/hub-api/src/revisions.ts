import { DiffProfileSchema } from './apis.js'
import { z } from './zod.js'

export const ChangeSeveritySchema = z
  .object({
    breaking: z.int32().nonnegative(),
    warning: z.int32().nonnegative(),
    info: z.int32().nonnegative(),
  })
  .openapi('ChangeSeverity')

/** Who accepted a revision's breaking changes and warnings, when and why. */
export const RevisionAcceptanceSchema = z
  .object({
    by: z.string().openapi({ description: 'Handle of the user who accepted it' }),
    at: z.iso.datetime().openapi({ description: 'When it was accepted' }),
    reason: z.string().openapi({ description: 'Why, in their words (1 to 500 characters)' }),
  })
  .openapi('RevisionAcceptance', {
    description:
      "The revision's changes were accepted as deliberate: `svc api push --fail-on` passes on them",
  })

export const RevisionSchema = z
  .object({
    id: z.string().openapi({ example: 'rev_5f0c7e2b9d4a1c3e8f6b2a70' }),
    sequence: z.int32().positive().openapi({
      description: "1 for the API's first revision, then 2, 3 …: the order of the series",
    }),
    contentHash: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .openapi({ description: "SHA-256 (hex) of the revision's document" }),
    version: z
      .string()
      .nullable()
      .openapi({ description: "The publisher's label; not an ordering" }),
    publishedAt: z.iso
      .datetime({ offset: true })
      .nullable()
      .openapi({ description: "The publisher's timestamp, when given" }),
    retrievedAt: z.iso.datetime().openapi({ description: 'When the hub received the document' }),
    url: z.url().openapi({ description: 'The revision page on the hub' }),
    documentUrl: z.url().openapi({ description: 'Where to download the document' }),
    protocol: z.enum(['oas', 'gql']),
    format: z.enum(['json', 'yaml', 'graphql']),
    mediaType: z.string().openapi({ description: 'The Content-Type the document is served with' }),
    specVersion: z
      .string()
      .openapi({ description: '`3.1.0`, `3.0.3`, `2.0` … for OpenAPI; `sdl` for GraphQL' }),
    size: z.int().openapi({ description: 'Bytes of the document' }),
    origin: z.enum(['push', 'refetch']),
    previousRevisionId: z
      .string()
      .nullable()
      .openapi({ description: 'The latest revision before this one; null for the first' }),
    createdBy: z.string().openapi({ description: 'Handle of the user who pushed it' }),
    parseIssues: z
      .object({
        error: z.int32().nonnegative(),
        warning: z.int32().nonnegative(),
        debug: z.int32().nonnegative(),
      })
      .openapi({
        description:
          'Parse issues of the document, per level; `GET …/revisions/{id}/issues` lists them',
      }),
    changeCounts: ChangeSeveritySchema.openapi({
      description:
        "The changelog's counts per level against `previousRevisionId`; all 0 for the first revision",
    }),
    profile: DiffProfileSchema.openapi({
      description:
        "The profile its changelog was computed with: the API's `diffProfile` when it was pushed",
    }),
    acceptance: RevisionAcceptanceSchema.nullable().openapi({
      description:
        'Who accepted its breaking changes and warnings, when and why; null unless accepted (`POST …/revisions/{id}/acceptance`)',
    }),
  })
  .openapi('Revision')

export const ChangeDeltaSchema = z
  .object({
    added: z.int32().nonnegative(),
    deleted: z.int32().nonnegative(),
    modified: z.int32().nonnegative(),
  })
  .openapi('ChangeDelta')

export const ChangeSummarySchema = z
  .object({
    diff: z.boolean().openapi({ description: 'Whether the two documents differ' }),
    details: z.record(z.string(), ChangeDeltaSchema).openapi({
      description: 'Per section of the document (`operations`, `schemas`, `types` …) that changed',
    }),
  })
  .openapi('ChangeSummary')

/**
 * The engine's change levels, most harmful first (`CHANGE_LEVELS` of `@svc/engine`, which the
 * hub checks these against: the engine is too heavy for the CLI to load for three words).
 */
export const CHANGE_LEVELS = ['breaking', 'warning', 'info'] as const

export const ChangeSchema = z
  .object({
    id: z.string().openapi({ description: 'The rule that fired', example: 'endpoint-removed' }),
    level: z.enum(CHANGE_LEVELS),
    message: z.string(),
    location: z.string().openapi({
      description:
        'Where it applies. OpenAPI: a JSON pointer into the document (into the old one for a removal); GraphQL: a schema coordinate',
      example:
        '/paths/~1pets~1{petId}/get/responses/200/content/application~1json/schema/properties/owner',
    }),
    path: z.string().optional().openapi({
      description:
        '`location` for a reader: the endpoint, the part of it and the property path (OpenAPI), the coordinate (GraphQL); empty for the whole document. Absent from changelogs stored before it was added, where it is computed from `location` the same way',
      example: 'GET /pets/{petId} › response 200 › body.owner',
    }),
    operation: z
      .string()
      .optional()
      .openapi({ description: 'The operation it belongs to', example: 'GET /pets/{petId}' }),
    operations: z.array(z.string()).optional().openapi({
      description:
        'For a change inside a shared component: the operations that reach it, sorted (the change is listed once, at the component)',
    }),
  })
  .openapi('Change')

/** The engine's parse-issue levels, most serious first. */
export const ISSUE_LEVELS = ['error', 'warning', 'debug'] as const

/** The fields of a parse issue but its level. */
const parseIssueFields = {
  protocol: z.enum(['oas', 'gql']),
  type: z.string().openapi({ example: 'INVALID_OPERATION' }),
  message: z.string(),
  location: z.string().openapi({
    description: 'Colon-joined trail of the place in the document',
    example: 'paths:/pets:post',
  }),
  cause: z.string().optional().openapi({ description: 'Only on errors: the underlying reason' }),
  line: z
    .int32()
    .nonnegative()
    .optional()
    .openapi({ description: '1-based line of `location`, when known' }),
  column: z.int32().nonnegative().optional(),
  file: z.string().optional(),
}

/** An error-level parse issue, as `svc check --json` reports it. */
export const ParseIssueSchema = z
  .object({ ...parseIssueFields, level: z.literal('error') })
  .openapi('ParseIssue')

/** A parse issue of any level, as `svc check --json` reports it. */
export const RevisionIssueSchema = z
  .object({ ...parseIssueFields, level: z.enum(ISSUE_LEVELS) })
  .openapi('RevisionIssue')

export const RevisionIssueListSchema = z
  .object({
    counts: z
      .object({
        error: z.int32().nonnegative(),
        warning: z.int32().nonnegative(),
        debug: z.int32().nonnegative(),
      })
      .openapi({ description: "The document's issues per level, whatever `level` asks for" }),
    issues: z.array(RevisionIssueSchema).openapi({
      description: 'Errors first, then warnings, then debug; in document order within a level',
    }),
    nextCursor: z
      .string()
      .nullable()
      .openapi({ description: 'Pass as `cursor` for the next page; null on the last page' }),
  })
  .openapi('RevisionIssueList')

export const ChangelogIssuesSchema = z
  .object({
    before: z.array(ParseIssueSchema).openapi({ description: "The previous revision's errors" }),
    after: z.array(ParseIssueSchema).openapi({ description: "This revision's errors" }),
  })
  .openapi('ChangelogIssues', {
    description:
      'Present only when either document has error-level parse issues: what each failed to parse. Every item they name is also a change (`operation-unparsable` …).',
  })

export const PushResultSchema = z
  .object({
    created: z.boolean().openapi({
      description:
        'False when the document is byte-identical to the latest revision, which is then `revision`',
    }),
    revision: RevisionSchema,
    previousRevision: RevisionSchema.nullable(),
    profile: DiffProfileSchema.openapi({
      description:
        "The profile `summary` and `counts` were computed with: the push's `profile`, else the API's",
    }),
    summary: ChangeSummarySchema,
    counts: ChangeSeveritySchema,
    webhookDeliveries: z.int32().nonnegative().openapi({
      description:
        'Webhook deliveries the new revision queued: one per active webhook when it differs from the revision before',
    }),
  })
  .openapi('PushResult')

export const RevisionListSchema = z
  .object({
    revisions: z.array(RevisionSchema),
    nextCursor: z
      .string()
      .nullable()
      .openapi({ description: 'Pass as `cursor` for the next page; null on the last page' }),
  })
  .openapi('RevisionList')

export const RevisionChangesSchema = z
  .object({
    revision: RevisionSchema,
    previousRevision: RevisionSchema.nullable().openapi({
      description:
        'The revision compared with: the one that was latest before `revision`, or `against`; null for a first revision',
    }),
    profile: DiffProfileSchema.openapi({
      description: 'The profile the changelog was computed with: `profile` when given',
    }),
    summary: ChangeSummarySchema,
    counts: ChangeSeveritySchema,
    changes: z.array(ChangeSchema),
    issues: ChangelogIssuesSchema.optional(),
  })
  .openapi('RevisionChanges')

/** `POST …/diff`: a document's changelog against a stored revision; nothing is stored. */
export const RevisionDiffSchema = z
  .object({
    against: RevisionSchema.nullable().openapi({
      description:
        'The revision the document was compared with; null when the API has no revisions yet (the changelog is then empty)',
    }),
    profile: DiffProfileSchema.openapi({
      description: "The profile the changelog was computed with: `profile`, else the API's",
    }),
    summary: ChangeSummarySchema,
    counts: ChangeSeveritySchema,
    changes: z.array(ChangeSchema),
    issues: ChangelogIssuesSchema.optional(),
  })
  .openapi('RevisionDiff')

export const AcceptanceResultSchema = z
  .object({
    revision: RevisionSchema.openapi({ description: 'The revision, with its `acceptance`' }),
    acceptance: RevisionAcceptanceSchema,
    counts: ChangeSeveritySchema.openapi({ description: 'The changes accepted, per level' }),
    webhookDeliveries: z.int32().nonnegative().openapi({
      description: 'Deliveries of the acceptance event queued: one per active webhook it reaches',
    }),
  })
  .openapi('AcceptanceResult')

export type Revision = z.infer<typeof RevisionSchema>
export type RevisionAcceptance = z.infer<typeof RevisionAcceptanceSchema>
export type RevisionDiff = z.infer<typeof RevisionDiffSchema>
export type AcceptanceResult = z.infer<typeof AcceptanceResultSchema>
export type ChangeSummary = z.infer<typeof ChangeSummarySchema>
export type ChangeSeverity = z.infer<typeof ChangeSeveritySchema>
export type Change = z.infer<typeof ChangeSchema>
export type ParseIssue = z.infer<typeof ParseIssueSchema>
export type ChangelogIssues = z.infer<typeof ChangelogIssuesSchema>
export type RevisionIssue = z.infer<typeof RevisionIssueSchema>
export type RevisionIssueList = z.infer<typeof RevisionIssueListSchema>
export type PushResult = z.infer<typeof PushResultSchema>
export type RevisionList = z.infer<typeof RevisionListSchema>
export type RevisionChanges = z.infer<typeof RevisionChangesSchema>
