import { formatScopedName, isSemverVersion, ROOT_MANIFEST } from '@svc/project-format'
import type { Caller } from '../auth/caller.js'
import { ApiError } from '../errors/index.js'
import { chargeStorage } from '../quotas/charge.js'
import type { QuotaLimits } from '../quotas/settings.js'
import { now } from '../store/ids.js'
import type { AccountRow } from '../store/schema.js'
import type { Store } from '../store/store.js'
import { storedFile, type Upload } from '../uploads/read-upload.js'
import { composeUpload } from './composition.js'
import { stackVersionRecord, type StackVersionRecord } from './record.js'
import { readRootManifest } from './root-manifest.js'

export type PublishRequest = {
  readonly store: Store
  readonly caller: Caller
  /** The account in the URL, already checked for write access. */
  readonly account: AccountRow
  readonly slug: string
  readonly upload: Upload
  readonly publicUrl: string
  /** The default storage quotas: the version counts against the stack owner's. */
  readonly quotas: QuotaLimits
}

/**
 * Validates an upload as a stack version of `account/slug` and stores it in one transaction:
 * blobs, the stack (on first publish), the version and its file list. A version that exists
 * already (also when a concurrent publish of it just won) is 409 `version_exists`; one that
 * would take the account past a storage quota is 413 `quota_exceeded` (checked in the same
 * transaction).
 */
export async function publishStackVersion(request: PublishRequest): Promise<StackVersionRecord> {
  const { store, caller, account, slug, upload } = request
  const version = upload.fields.get('version')?.trim()
  if (!version) throw missingPart('version', 'the semver version to publish')
  if (!isSemverVersion(version)) {
    throw new ApiError('invalid_version', `'${version}' is not a semver version such as 1.2.0.`, {
      version,
    })
  }
  const bundle = upload.bundle
  if (!bundle) throw missingPart('bundle', 'the bundled server.js')
  if (bundle.data.byteLength === 0) throw new ApiError('empty_bundle', 'The bundle part is empty.')

  const manifest = readRootManifest(upload.files)
  if (manifest.name.account !== account.handle || manifest.name.slug !== slug) {
    const [named, url] = [manifest.name, { account: account.handle, slug }].map(formatScopedName)
    throw new ApiError(
      'manifest_name_mismatch',
      `The root manifest names ${named}, but this request publishes ${url}.`,
      { manifestName: named, url },
    )
  }
  const { composition, problems } = composeUpload(
    manifest.imports,
    new Set(upload.files.map((f) => f.path)),
  )
  if (problems.length > 0) {
    throw new ApiError(
      'composition_inconsistent',
      `The generator composition does not match the uploaded tree: ${problems.map((p) => p.problem).join('; ')}.`,
      { problems },
    )
  }

  const files = upload.files
  const sourceBytes = files.reduce((sum, f) => sum + f.data.byteLength, 0)
  try {
    const row = await store.transaction(async (tx) => {
      await chargeStorage(tx, request.quotas, account, 'stackVersions', {
        items: 1,
        bytes: bundle.data.byteLength + sourceBytes,
      })
      await tx.blobs.putMany([bundle, ...files])
      const stack = await tx.stacks.ensure(account.id, slug)
      return tx.stacks.insertVersion(
        {
          stack_id: stack.id,
          version,
          bundle_sha256: bundle.sha256,
          bundle_bytes: bundle.data.byteLength,
          source_file_count: files.length,
          source_total_bytes: sourceBytes,
          composition: JSON.stringify(composition),
          manifest_path: ROOT_MANIFEST,
          published_by: caller.userId,
          published_at: now(),
        },
        files.map(storedFile),
      )
    })
    return stackVersionRecord(
      row,
      { account: account.handle, slug },
      caller.handle,
      request.publicUrl,
    )
  } catch (error) {
    if (store.capabilities.isUniqueViolation(error)) {
      throw new ApiError(
        'version_exists',
        `@${account.handle}/${slug}@${version} is already published; versions are immutable, so publish a new version.`,
        { version },
      )
    }
    throw error
  }
}

function missingPart(part: string, what: string): ApiError {
  return new ApiError('missing_part', `The '${part}' part (${what}) is missing.`, { part })
}
