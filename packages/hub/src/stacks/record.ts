import type { StackVersion } from '@svc/hub-api'
import type { StackVersionRow } from '../store/schema.js'
import type { Composition } from './composition.js'

export type StackVersionRecord = StackVersion

/** The API record of a stored stack version. */
export function stackVersionRecord(
  row: StackVersionRow,
  stack: { account: string; slug: string },
  publishedBy: string,
  publicUrl: string,
): StackVersionRecord {
  const [account, slug, version] = [stack.account, stack.slug, row.version].map(encodeURIComponent)
  return {
    id: row.id,
    stack,
    version: row.version,
    versionUrl: `${publicUrl}/${account}/stacks/${slug}/versions/${version}`,
    bundleBytes: row.bundle_bytes,
    bundleSha256: row.bundle_sha256,
    bundleUrl: `${publicUrl}/v1/stacks/${account}/${slug}/versions/${version}/bundle`,
    sourceFileCount: row.source_file_count,
    sourceTotalBytes: row.source_total_bytes,
    manifestPath: row.manifest_path,
    composition: JSON.parse(row.composition) as Composition as StackVersionRecord['composition'],
    publishedBy,
    publishedAt: row.published_at,
  }
}
