import {
  StackListSchema,
  StackSchema,
  StackVersionDetailSchema,
  StackVersionListSchema,
  type StackSummary,
  type StackVersionDetail,
} from '@svc/hub-api'
import { Hono } from 'hono'
import type { ApiErrorBody } from '../../errors/api-error.js'
import type { ApiAnswer } from '../api-client.js'
import { Badge, Empty, formatBytes, PageHead, Time, Table } from '../components.js'
import type { WebContext, WebEnv } from '../env.js'
import { apiErrorPage, notFoundPage, page, signInRedirect } from '../responses.js'

const seg = encodeURIComponent

/** The page of a stack: `/{account}/stacks/{slug}`. */
export function stackHref(account: string, slug: string): string {
  return `/${seg(account)}/stacks/${seg(slug)}`
}

/** The page of a stack version (the `versionUrl` of the API, without the origin). */
export function versionHref(account: string, slug: string, version: string): string {
  return `${stackHref(account, slug)}/versions/${seg(version)}`
}

/**
 * A failed /v1 read of something private (stacks and projects always are): a signed-out visitor
 * gets the same 404 as a non-member, with a way to sign in, so nothing tells whether it exists.
 */
export function privateErrorPage(c: WebContext, answer: { status: number; error: ApiErrorBody }) {
  if (answer.status !== 401) return apiErrorPage(c, answer)
  const next = encodeURIComponent(c.req.path)
  return page(
    c,
    { title: 'Not found', status: 404 },
    <div class="narrow card">
      <h1>Not found</h1>
      <p>There is no page here, or you cannot see it.</p>
      <p>
        Stacks and projects are shown only to their account's members.{' '}
        <a href={`/signin?next=${next}`}>Sign in</a> to see yours.
      </p>
    </div>,
  )
}

/** A table of stacks (the stacks page and the account page). */
export function StackTable({ stacks }: { stacks: readonly StackSummary[] }) {
  return (
    <Table>
      <thead>
        <tr>
          <th>Stack</th>
          <th>Latest version</th>
          <th>Versions</th>
          <th>Last published</th>
        </tr>
      </thead>
      <tbody>
        {stacks.map((s) => (
          <tr>
            <td>
              <a href={stackHref(s.stack.account, s.stack.slug)} class="mono">
                @{s.stack.account}/{s.stack.slug}
              </a>
            </td>
            <td>
              {s.latestVersion ? (
                <a class="mono" href={versionHref(s.stack.account, s.stack.slug, s.latestVersion)}>
                  {s.latestVersion}
                </a>
              ) : (
                <span class="muted">—</span>
              )}
            </td>
            <td>{s.versionCount}</td>
            <td>
              <Time at={s.lastPublishedAt} />
            </td>
          </tr>
        ))}
      </tbody>
    </Table>
  )
}

/** How to publish a stack, for empty lists. */
export function PublishHint() {
  return (
    <p class="muted">
      Stacks are published from an app root with the CLI: set <code>"name": "@account/slug"</code>{' '}
      and <code>"version"</code> in <code>.svc/&lt;project&gt;/deno.json</code>, then run{' '}
      <code>svc publish &lt;project&gt;</code>.
    </p>
  )
}

/** Stacks: the list, a stack with its versions, one version, and its downloads. */
export const stackPages = new Hono<WebEnv>()

stackPages.get('/stacks', async (c) => {
  if (!c.get('viewer')) return signInRedirect(c)
  const cursor = c.req.query('cursor')
  const query = new URLSearchParams({ limit: '100', ...(cursor ? { cursor } : {}) })
  const answer = await c.get('api').get(StackListSchema, `/stacks?${query}`)
  if (!answer.ok) return apiErrorPage(c, answer)
  const { stacks, nextCursor } = answer.data
  return page(
    c,
    { title: 'Stacks', section: 'stacks', crumbs: [{ label: 'Stacks' }] },
    <>
      <PageHead
        title="Stacks"
        lead="Generator bundles published to your account and to your organisations."
      />
      {stacks.length === 0 && !cursor ? (
        <Empty>
          <p>No stacks yet.</p>
          <PublishHint />
        </Empty>
      ) : (
        <StackTable stacks={stacks} />
      )}
      {nextCursor ? (
        <p>
          <a href={`/stacks?cursor=${encodeURIComponent(nextCursor)}`}>More stacks →</a>
        </p>
      ) : null}
    </>,
  )
})

stackPages.get('/:account/stacks/:slug', async (c) => {
  const { account, slug } = c.req.param()
  const base = `/stacks/${seg(account)}/${seg(slug)}`
  const api = c.get('api')
  const stack = await api.get(StackSchema, base)
  if (!stack.ok) return privateErrorPage(c, stack)
  const versions = await api.get(StackVersionListSchema, `${base}/versions`)
  if (!versions.ok) return privateErrorPage(c, versions)
  const name = `@${account}/${slug}`
  return page(
    c,
    {
      title: name,
      section: 'stacks',
      crumbs: [{ label: 'Stacks', href: '/stacks' }, { label: name }],
    },
    <>
      <PageHead
        title={name}
        lead={
          <>
            A stack of <a href={`/${seg(account)}`}>{account}</a>, created{' '}
            <Time at={stack.data.createdAt} />.
          </>
        }
      />
      <dl class="facts">
        <dt>Latest version</dt>
        <dd>
          {stack.data.latestVersion ? (
            <a class="mono" href={versionHref(account, slug, stack.data.latestVersion)}>
              {stack.data.latestVersion}
            </a>
          ) : (
            '—'
          )}
        </dd>
        <dt>Versions</dt>
        <dd>{versions.data.versions.length}</dd>
      </dl>
      <h2>Versions</h2>
      {versions.data.versions.length === 0 ? (
        <Empty>No versions.</Empty>
      ) : (
        <Table testid="versions">
          <thead>
            <tr>
              <th>Version</th>
              <th>Published by</th>
              <th>Published</th>
              <th>Bundle</th>
              <th>Source</th>
            </tr>
          </thead>
          <tbody>
            {versions.data.versions.map((v) => (
              <tr>
                <td>
                  <a class="mono" href={versionHref(account, slug, v.version)}>
                    {v.version}
                  </a>{' '}
                  {v.version === stack.data.latestVersion ? (
                    <Badge kind="active">latest</Badge>
                  ) : null}
                </td>
                <td>
                  <a href={`/${seg(v.publishedBy)}`}>{v.publishedBy}</a>
                </td>
                <td>
                  <Time at={v.publishedAt} />
                </td>
                <td>{formatBytes(v.bundleBytes)}</td>
                <td>
                  {v.sourceFileCount} files, {formatBytes(v.sourceTotalBytes)}
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </>,
  )
})

async function readVersion(c: WebContext): Promise<ApiAnswer<StackVersionDetail>> {
  const { account, slug, version } = c.req.param() as {
    account: string
    slug: string
    version: string
  }
  return c
    .get('api')
    .get(StackVersionDetailSchema, `/stacks/${seg(account)}/${seg(slug)}/versions/${seg(version)}`)
}

stackPages.get('/:account/stacks/:slug/versions/:version', async (c) => {
  const answer = await readVersion(c)
  if (!answer.ok) return privateErrorPage(c, answer)
  const v = answer.data
  const { account, slug } = v.stack
  const here = versionHref(account, slug, v.version)
  const name = `@${account}/${slug}`
  return page(
    c,
    {
      title: `${name}@${v.version}`,
      section: 'stacks',
      crumbs: [
        { label: 'Stacks', href: '/stacks' },
        { label: name, href: stackHref(account, slug) },
        { label: v.version },
      ],
    },
    <>
      <PageHead
        title={`${name}@${v.version}`}
        lead={
          <>
            Published by <a href={`/${seg(v.publishedBy)}`}>{v.publishedBy}</a>{' '}
            <Time at={v.publishedAt} />.
          </>
        }
        actions={
          <a class="button" href={`${here}/bundle`} data-testid="download-bundle">
            Download server.js
          </a>
        }
      />
      <h2>Bundle</h2>
      <dl class="facts" data-testid="bundle">
        <dt>File</dt>
        <dd class="mono">server.js</dd>
        <dt>Size</dt>
        <dd>
          {formatBytes(v.bundleBytes)} ({v.bundleBytes.toLocaleString('en')} bytes)
        </dd>
        <dt>SHA-256</dt>
        <dd class="mono" data-testid="bundle-sha256">
          {v.bundleSha256}
        </dd>
        <dt>API URL</dt>
        <dd class="mono">{v.bundleUrl}</dd>
      </dl>
      <h2>Composition</h2>
      {v.composition.length === 0 ? (
        <Empty>
          The root manifest <code>{v.manifestPath}</code> imports no generators (<code>gen-*</code>
          ).
        </Empty>
      ) : (
        <Table testid="composition">
          <thead>
            <tr>
              <th>Generator</th>
              <th>How</th>
              <th>From</th>
            </tr>
          </thead>
          <tbody>
            {v.composition.map((g) => (
              <tr>
                <td class="mono">{g.name}</td>
                <td>
                  <Badge kind={g.kind === 'imported' ? 'info' : 'warning'}>{g.kind}</Badge>
                </td>
                <td class="mono">{g.kind === 'imported' ? g.specifier : g.path}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      <h2>
        Source files{' '}
        <span class="muted">
          ({v.sourceFileCount}, {formatBytes(v.sourceTotalBytes)})
        </span>
      </h2>
      <Table testid="files">
        <thead>
          <tr>
            <th>Path</th>
            <th>Size</th>
            <th>SHA-256</th>
          </tr>
        </thead>
        <tbody>
          {v.files.map((f) => (
            <tr>
              <td class="mono">
                <a href={`${here}/files/${f.path.split('/').map(seg).join('/')}`}>{f.path}</a>
                {f.path === v.manifestPath ? (
                  <>
                    {' '}
                    <Badge kind="info">root manifest</Badge>
                  </>
                ) : null}
              </td>
              <td>{formatBytes(f.size)}</td>
              <td class="mono">{f.sha256}</td>
            </tr>
          ))}
        </tbody>
      </Table>
    </>,
  )
})

// Downloads for the browser: /v1 wants a token, a page has a session. The API decides who may
// read the version; the bytes are then the blob whose hash it answered.
stackPages.get('/:account/stacks/:slug/versions/:version/bundle', async (c) => {
  const answer = await readVersion(c)
  if (!answer.ok) return privateErrorPage(c, answer)
  return download(c, answer.data.bundleSha256, 'server.js', 'text/javascript; charset=utf-8')
})

stackPages.get('/:account/stacks/:slug/versions/:version/files/:path{.+}', async (c) => {
  const answer = await readVersion(c)
  if (!answer.ok) return privateErrorPage(c, answer)
  const path = c.req.param('path')
  const file = answer.data.files.find((f) => f.path === path)
  if (!file) return notFoundPage(c)
  return download(c, file.sha256, path.split('/').pop() ?? path, 'application/octet-stream')
})

async function download(c: WebContext, sha256: string, name: string, type: string) {
  const data = await c.get('hub').store.blobs.get(sha256)
  if (!data) throw new Error(`blob ${sha256} is missing`)
  return c.body(data as Uint8Array<ArrayBuffer>, 200, {
    'Content-Type': type,
    'Content-Disposition': `attachment; filename="${name.replace(/[^\w.-]/g, '_')}"`,
    'Cache-Control': 'private, no-store',
  })
}
