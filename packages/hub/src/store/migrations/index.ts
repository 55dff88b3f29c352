import type { Migration, MigrationProvider } from 'kysely'
import type { DialectCapabilities } from '../dialect.js'
import { initial } from './0001-initial.js'
import { revisions } from './0002-revisions.js'
import { webhooks } from './0003-webhooks.js'
import { rateLimits } from './0004-rate-limits.js'
import { credits } from './0005-credits.js'
import { libraries } from './0006-libraries.js'
import { web } from './0007-web.js'
import { webhookMinLevel } from './0008-webhook-min-level.js'
import { changelogIssues } from './0009-changelog-issues.js'
import { revisionParseIssues } from './0010-revision-parse-issues.js'
import { tokenChanges } from './0011-token-changes.js'
import { storeChanges } from './0012-store-changes.js'
import { quotas } from './0013-quotas.js'
import { revisionAcceptances } from './0014-revision-acceptances.js'
import { diffProfiles } from './0015-diff-profiles.js'

/** The one migration set of both engines, in order. Never edit a migration that has shipped. */
export function migrationProvider(caps: DialectCapabilities): MigrationProvider {
  const migrations: Record<string, Migration> = {
    '0001-initial': initial(caps),
    '0002-revisions': revisions(),
    '0003-webhooks': webhooks(),
    '0004-rate-limits': rateLimits(),
    '0005-credits': credits(),
    '0006-libraries': libraries(),
    '0007-web': web(),
    '0008-webhook-min-level': webhookMinLevel(),
    '0009-changelog-issues': changelogIssues(),
    '0010-revision-parse-issues': revisionParseIssues(),
    '0011-token-changes': tokenChanges(caps),
    '0012-store-changes': storeChanges(caps),
    '0013-quotas': quotas(caps),
    '0014-revision-acceptances': revisionAcceptances(),
    '0015-diff-profiles': diffProfiles(),
  }
  return { getMigrations: async () => migrations }
}
