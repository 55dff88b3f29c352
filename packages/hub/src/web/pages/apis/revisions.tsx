import { Hono } from 'hono'
import {
  AcceptanceResultSchema,
  ISSUE_LEVELS,
  NoContentSchema,
  PushResultSchema,
  RevisionChangesSchema,
  RevisionIssueListSchema,
  RevisionListSchema,
  RevisionSchema,
  type Api,
  type Revision,
  type RevisionIssueList,
} from '@svc/hub-api'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import {
  ActionButton,
  Badge,
  Empty,
  Field,
  Form,
  FormError,
  formatBytes,
  Ident,
  plural,
  Prose,
  Time,
} from '../../components.js'
import type { WebContext, WebEnv } from '../../env.js'
import { formFile, formText } from '../../forms.js'
import { apiErrorPage, notFoundPage, page, redirectWith, signInRedirect } from '../../responses.js'
import { viewerCanWrite } from '../../viewer-accounts.js'
import { RevisionTable } from './apis.js'
import {
  ApiHead,
  apiCrumbs,
  apiPath,
  Counts,
  countsText,
  fieldErrors,
  loadApi,
  readFailure,
  revisionLabel,
  revisionPath,
  v1Api,
} from './shared.js'

const PAGE_SIZE = 20
/** Parse issues on one page of a revision: enough to read, few enough for a phone. */
const ISSUES_PAGE_SIZE = 50

/** An API's revisions: the series, the upload form, the revision page and its raw document. */
export const revisionPages = new Hono<WebEnv>()

revisionPages.get('/:owner/apis/:slug/revisions', async (c) => {
  const loaded = await loadApi(c)
  if (!loaded.ok) return readFailure(c, loaded)
  const api = loaded.data
  const cursor = c.req.query('cursor')
  const query = new URLSearchParams({ limit: String(PAGE_SIZE), ...(cursor ? { cursor } : {}) })
  const [answer, writable] = await Promise.all([
    c.get('api').get(RevisionListSchema, `${v1Api(api.owner, api.slug)}/revisions?${query}`),
    viewerCanWrite(c, api.owner),
  ])
  if (!answer.ok) return readFailure(c, answer)
  const { revisions, nextCursor } = answer.data
  const here = `${apiPath(api.owner, api.slug)}/revisions`
  return page(
    c,
    {
      title: `Revisions · ${api.name}`,
      section: 'apis',
      crumbs: apiCrumbs(api, { label: 'revisions' }),
    },
    <>
      <ApiHead api={api} current={here} writable={writable} />
      <p class="lead">
        Newest first. Each push of a new document appends one; the highest number is the latest.
      </p>
      {revisions.length === 0 ? (
        <Empty>
          {cursor ? 'No more revisions.' : 'No revisions yet.'}
          {writable && !cursor ? (
            <>
              {' '}
              <a href={`${here}/new`}>Upload the first one</a>.
            </>
          ) : null}
        </Empty>
      ) : (
        <RevisionTable api={api} revisions={revisions} />
      )}
      <p class="row">
        {cursor ? <a href={here}>← Newest</a> : null}
        {nextCursor ? (
          <a href={`${here}?cursor=${encodeURIComponent(nextCursor)}`}>Older revisions →</a>
        ) : null}
      </p>
    </>,
  )
})

type UploadState = {
  document?: string
  version?: string
  error?: string
  errors?: Record<string, string>
  /** Where the document could not be read, and the text around it. */
  problem?: { reason?: string; line?: number; column?: number; excerpt?: Excerpt }
}

type Excerpt = { first: number; lines: string[] }

revisionPages.get('/:owner/apis/:slug/revisions/new', async (c) => {
  const loaded = await loadApi(c)
  if (!loaded.ok) return readFailure(c, loaded)
  if (!c.get('viewer')) return signInRedirect(c)
  if (!(await viewerCanWrite(c, loaded.data.owner))) return notFoundPage(c)
  return uploadPage(c, loaded.data, {})
})

revisionPages.post('/:owner/apis/:slug/revisions/new', async (c) => {
  if (!c.get('viewer')) return signInRedirect(c)
  const loaded = await loadApi(c)
  if (!loaded.ok) return readFailure(c, loaded)
  const api = loaded.data
  const form = await c.req.parseBody()
  const file = formFile(form, 'file')
  // A browser sends a textarea's line breaks as CRLF; the document is stored with LF.
  const pasted = formText(form, 'document').replace(/\r\n/g, '\n')
  const version = formText(form, 'version').trim()
  const state: UploadState = { document: pasted, version }
  if (!file && pasted.trim() === '') {
    return uploadPage(c, api, { ...state, error: 'Choose a file, or paste a document.' }, 422)
  }
  if (file && pasted.trim() !== '') {
    return uploadPage(
      c,
      api,
      { ...state, error: 'Choose a file or paste a document, not both.' },
      422,
    )
  }
  const bytes = file ? new Uint8Array(await file.arrayBuffer()) : new TextEncoder().encode(pasted)
  const contentType = documentMediaType(file?.name, bytes)
  const query = version ? `?${new URLSearchParams({ version })}` : ''
  const answer = await c
    .get('api')
    .send(PushResultSchema, 'POST', `${v1Api(api.owner, api.slug)}/revisions${query}`, {
      bytes,
      contentType,
    })
  if (!answer.ok) {
    if ([401, 403, 404].includes(answer.status)) return apiErrorPage(c, answer)
    const failed: UploadState = { ...state, errors: fieldErrors(answer.error) }
    failed.error = answer.error.message
    if (answer.error.code === 'invalid_document') {
      const details = (answer.error.details ?? {}) as {
        reason?: string
        line?: number
        column?: number
      }
      failed.problem = {
        ...details,
        ...(details.line ? { excerpt: excerpt(bytes, details.line) } : {}),
      }
    }
    return uploadPage(c, api, failed, answer.status)
  }
  const { created, revision, counts, previousRevision, webhookDeliveries } = answer.data
  const label = revisionLabel(revision)
  let message: string
  if (!created) {
    message = `The document is identical to the latest revision (${label}); nothing was created.`
  } else if (!previousRevision) {
    message = `Revision ${label} created: the API's first revision.`
  } else {
    message =
      `Revision ${label} created: ${countsText(counts)} against ${revisionLabel(previousRevision)}.` +
      (webhookDeliveries > 0
        ? ` ${plural(webhookDeliveries, 'webhook delivery', 'webhook deliveries')} queued.`
        : '')
  }
  return redirectWith(c, revisionPath(api.owner, api.slug, revision.id), {
    kind: 'success',
    message,
  })
})

/**
 * The media type of an uploaded document: by the file's extension, else by its content (JSON
 * starts with `{`; SDL with a GraphQL definition; anything else is read as YAML, which is what
 * the hub then tells is or is not an API description).
 */
export function documentMediaType(name: string | undefined, bytes: Uint8Array): string {
  const extension = /\.([a-z]+)$/i.exec(name ?? '')?.[1]?.toLowerCase()
  if (extension === 'json') return 'application/json'
  if (extension === 'yaml' || extension === 'yml') return 'application/yaml'
  if (['graphql', 'graphqls', 'gql', 'sdl'].includes(extension ?? '')) return 'application/graphql'
  const head = new TextDecoder().decode(bytes.subarray(0, 64 * 1024)).replace(/^\uFEFF/, '')
  if (/^\s*[{[]/.test(head)) return 'application/json'
  if (/^\s*["']?(?:openapi|swagger)["']?\s*:/m.test(head)) return 'application/yaml'
  if (
    /^\s*(?:extend\s+)?(?:type|schema|interface|union|enum|input|scalar|directive)\b[^:]*$/m.test(
      head,
    )
  ) {
    return 'application/graphql'
  }
  return 'application/yaml'
}

/** Lines around `line` (1-based) of the document, to show where it could not be read. */
function excerpt(bytes: Uint8Array, line: number): Excerpt {
  const lines = new TextDecoder().decode(bytes).split(/\r?\n/)
  // The line break that ends the document opens no line of its own.
  if (lines.length > 1 && lines.at(-1) === '') lines.pop()
  const first = Math.max(1, line - 2)
  return { first, lines: lines.slice(first - 1, line + 2).map((l) => l.slice(0, 200)) }
}

function uploadPage(c: WebContext, api: Api, state: UploadState, status = 200) {
  const base = apiPath(api.owner, api.slug)
  const errors = state.errors ?? {}
  const problem = state.problem
  return page(
    c,
    {
      title: `Upload a revision · ${api.name}`,
      section: 'apis',
      crumbs: apiCrumbs(api, { label: 'upload' }),
      status: status as ContentfulStatusCode,
    },
    <>
      <ApiHead api={api} current={`${base}/revisions/new`} writable />
      <p class="lead">
        Push a new revision of the description: an OpenAPI document (JSON or YAML) or GraphQL SDL. A
        document identical to the latest revision's creates nothing.
      </p>
      <FormError message={state.error} />
      {problem ? (
        <div class="card" data-testid="parse-problem">
          <h3>Why the document was refused</h3>
          <dl class="facts">
            {problem.reason ? (
              <>
                <dt>Reason</dt>
                <dd class="mono">{problem.reason}</dd>
              </>
            ) : null}
            {problem.line ? (
              <>
                <dt>Location</dt>
                <dd>
                  line {problem.line}
                  {problem.column ? `, column ${problem.column}` : ''}
                </dd>
              </>
            ) : null}
          </dl>
          {problem.excerpt ? (
            <pre>
              {problem.excerpt.lines
                .map((text, i) => {
                  const n = problem.excerpt!.first + i
                  const mark = n === problem.line ? '>' : ' '
                  const caret =
                    n === problem.line && problem.column
                      ? `\n${' '.repeat(String(n).length + 5 + problem.column - 1)}^`
                      : ''
                  return `${mark} ${n} | ${text}${caret}`
                })
                .join('\n')}
            </pre>
          ) : null}
        </div>
      ) : null}
      <div class="card">
        <Form action={`${base}/revisions/new`} csrfToken={c.get('csrfToken')} upload>
          <Field
            name="file"
            label="Document file"
            type="file"
            accept=".json,.yaml,.yml,.graphql,.graphqls,.gql,application/json,application/yaml"
            hint="JSON, YAML or GraphQL SDL; the type is told by the extension, else by the content."
          />
          <div>
            <label for="f-document">
              …or paste it
              <div class="hint">Leave empty when you chose a file.</div>
            </label>
            <textarea id="f-document" name="document" spellcheck={false}>
              {state.document ?? ''}
            </textarea>
          </div>
          <Field
            name="version"
            label="Version label (optional)"
            hint="The publisher's label, such as 2.4.0; it is not an ordering."
            value={state.version ?? ''}
            error={errors.version}
          />
          <div>
            <button type="submit" class="primary">
              Push revision
            </button>
          </div>
        </Form>
      </div>
    </>,
  )
}

revisionPages.get('/:owner/apis/:slug/revisions/:id', async (c) => {
  const loaded = await loadApi(c)
  if (!loaded.ok) return readFailure(c, loaded)
  return revisionPage(c, loaded.data, c.req.param('id'), {})
})

/** What a refused acceptance form sends back to the revision page. */
type AcceptState = { reason?: string; error?: string }

revisionPages.post('/:owner/apis/:slug/revisions/:id/acceptance', async (c) => {
  if (!c.get('viewer')) return signInRedirect(c)
  const loaded = await loadApi(c)
  if (!loaded.ok) return readFailure(c, loaded)
  const api = loaded.data
  const id = c.req.param('id')
  const reason = formText(await c.req.parseBody(), 'reason')
    .replace(/\r\n/g, '\n')
    .trim()
  if (reason === '')
    return revisionPage(c, api, id, { reason, error: 'Say why the changes are deliberate.' }, 422)
  const answer = await c
    .get('api')
    .send(
      AcceptanceResultSchema,
      'POST',
      `${v1Api(api.owner, api.slug)}/revisions/${encodeURIComponent(id)}/acceptance`,
      { json: { reason } },
    )
  if (!answer.ok) {
    if ([401, 403, 404].includes(answer.status)) return apiErrorPage(c, answer)
    const error = fieldErrors(answer.error).reason ?? answer.error.message
    return revisionPage(c, api, id, { reason, error }, answer.status)
  }
  const { revision, counts, webhookDeliveries } = answer.data
  return redirectWith(c, revisionPath(api.owner, api.slug, revision.id), {
    kind: 'success',
    message:
      `Accepted the changes of revision ${revisionLabel(revision)} (${countsText(counts)}).` +
      (webhookDeliveries > 0
        ? ` ${plural(webhookDeliveries, 'webhook delivery', 'webhook deliveries')} queued.`
        : ''),
  })
})

revisionPages.post('/:owner/apis/:slug/revisions/:id/acceptance/withdraw', async (c) => {
  if (!c.get('viewer')) return signInRedirect(c)
  const loaded = await loadApi(c)
  if (!loaded.ok) return readFailure(c, loaded)
  const api = loaded.data
  const id = c.req.param('id')
  const answer = await c
    .get('api')
    .send(
      NoContentSchema,
      'DELETE',
      `${v1Api(api.owner, api.slug)}/revisions/${encodeURIComponent(id)}/acceptance`,
    )
  if (!answer.ok) return apiErrorPage(c, answer)
  return redirectWith(c, revisionPath(api.owner, api.slug, id), {
    kind: 'success',
    message: 'The acceptance was withdrawn: a --fail-on gate fails on these changes again.',
  })
})

/** A revision's page: its facts, its changes, their acceptance, and its parse issues. */
async function revisionPage(
  c: WebContext,
  api: Api,
  id: string,
  accept: AcceptState,
  status = 200,
) {
  const base = `${v1Api(api.owner, api.slug)}/revisions/${encodeURIComponent(id)}`
  const level = ISSUE_LEVELS.find((known) => known === c.req.query('level'))
  const cursor = c.req.query('cursor')
  const issuesQuery = new URLSearchParams({
    limit: String(ISSUES_PAGE_SIZE),
    ...(level ? { level } : {}),
    ...(cursor ? { cursor } : {}),
  })
  const [answer, issues, writable] = await Promise.all([
    c.get('api').get(RevisionChangesSchema, `${base}/changes`),
    c.get('api').get(RevisionIssueListSchema, `${base}/issues?${issuesQuery}`),
    viewerCanWrite(c, api.owner),
  ])
  if (!answer.ok) return readFailure(c, answer)
  if (!issues.ok) return readFailure(c, issues)
  const { revision, previousRevision, summary, counts } = answer.data
  // SPEC: with no document stored (no contentHash), Revision.url stands for the revisions page.
  if (!revision.contentHash) return noDocument(c, api, revision)
  const here = revisionPath(api.owner, api.slug, revision.id)
  const sections = Object.entries(summary.details)
  return page(
    c,
    {
      title: `Revision ${revisionLabel(revision)} · ${api.name}`,
      section: 'apis',
      crumbs: apiCrumbs(
        api,
        { label: 'revisions', href: `${apiPath(api.owner, api.slug)}/revisions` },
        { label: `#${revision.sequence}` },
      ),
      status: status as ContentfulStatusCode,
    },
    <>
      <ApiHead
        api={api}
        current={`${apiPath(api.owner, api.slug)}/revisions`}
        writable={writable}
      />
      <div class="head">
        <div>
          <h2>Revision {revisionLabel(revision)}</h2>
          <div class="muted mono">{revision.id}</div>
        </div>
        <div class="row">
          <a class="button" href={`${here}/document`}>
            Raw document
          </a>
          <a class="button" href={`${here}/document?download=1`}>
            Download
          </a>
          <a class="button primary" href={`${here}/changes`}>
            Changes
          </a>
        </div>
      </div>
      <dl class="facts">
        <dt>Sequence</dt>
        <dd>{revision.sequence}</dd>
        <dt>Version</dt>
        <dd>{revision.version ?? <span class="muted">none</span>}</dd>
        <dt>Format</dt>
        <dd>
          {revision.protocol === 'gql' ? 'GraphQL' : 'OpenAPI'} · {revision.format} ·{' '}
          {revision.specVersion}
        </dd>
        <dt>Size</dt>
        <dd>{formatBytes(revision.size)}</dd>
        <dt>SHA-256</dt>
        <dd class="mono">{revision.contentHash}</dd>
        <dt>Retrieved</dt>
        <dd>
          <Time at={revision.retrievedAt} />
        </dd>
        {revision.publishedAt ? (
          <>
            <dt>Published</dt>
            <dd>
              <time datetime={revision.publishedAt}>{revision.publishedAt}</time>
            </dd>
          </>
        ) : null}
        <dt>Origin</dt>
        <dd>
          {revision.origin === 'refetch' ? 'refetched from the source URL' : 'pushed'} by{' '}
          {revision.createdBy}
        </dd>
        <dt>Parse issues</dt>
        <dd>
          <IssueCounts issues={revision.parseIssues} href="#parse-issues" />
        </dd>
        <dt>Previous</dt>
        <dd>
          {previousRevision ? (
            <a href={revisionPath(api.owner, api.slug, previousRevision.id)}>
              {revisionLabel(previousRevision)}
            </a>
          ) : (
            <span class="muted">none: the first revision</span>
          )}
        </dd>
      </dl>
      <h2>Changes</h2>
      {!previousRevision ? (
        <Empty>The first revision of the API: there is nothing to compare it with.</Empty>
      ) : (
        <>
          <p class="row">
            <Counts counts={counts} />
            <a href={`${here}/changes`}>The changelog →</a>
          </p>
          {sections.length > 0 ? (
            <table>
              <thead>
                <tr>
                  <th>Section</th>
                  <th>Added</th>
                  <th>Deleted</th>
                  <th>Modified</th>
                </tr>
              </thead>
              <tbody>
                {sections.map(([section, delta]) => (
                  <tr>
                    <td>{section}</td>
                    <td>{delta.added}</td>
                    <td>{delta.deleted}</td>
                    <td>{delta.modified}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
          <AcceptanceSection
            here={here}
            revision={revision}
            writable={writable}
            csrfToken={c.get('csrfToken')}
            state={accept}
          />
        </>
      )}
      <ParseIssueSection here={here} list={issues.data} level={level} cursor={cursor} />
    </>,
  )
}

/**
 * Whether the revision's breaking changes and warnings were accepted as deliberate, by whom, when
 * and why; for a user who can write the API, the form that accepts them (or withdraws it).
 */
function AcceptanceSection(props: {
  here: string
  revision: Revision
  writable: boolean
  csrfToken: string
  state: AcceptState
}) {
  const { here, revision, writable, csrfToken, state } = props
  const { acceptance, changeCounts } = revision
  if (acceptance) {
    return (
      <section class="card" id="acceptance" data-testid="acceptance">
        <h3>Accepted</h3>
        <FormError message={state.error} />
        <p>
          Accepted by <strong>{acceptance.by}</strong> <Time at={acceptance.at} />: a{' '}
          <code>--fail-on</code> gate of <code>svc api push</code> passes on these changes.
        </p>
        <blockquote data-testid="acceptance-reason">
          <Prose text={acceptance.reason} />
        </blockquote>
        {writable ? (
          <ActionButton
            action={`${here}/acceptance/withdraw`}
            csrfToken={csrfToken}
            label="Withdraw the acceptance"
          />
        ) : null}
      </section>
    )
  }
  if (!writable || changeCounts.breaking + changeCounts.warning === 0) return null
  return (
    <section class="card" id="acceptance" data-testid="accept-form">
      <h3>Accept these changes</h3>
      <p class="muted">
        Record that the breaking changes and warnings of this revision are deliberate, with your
        reason: <code>svc api push --fail-on</code> then passes on this revision, and the API's
        webhooks are told.
      </p>
      <FormError message={state.error} />
      <Form action={`${here}/acceptance`} csrfToken={csrfToken}>
        <div>
          <label for="f-reason">
            Reason
            <div class="hint">Why the change is deliberate: 1 to 500 characters.</div>
          </label>
          <textarea
            id="f-reason"
            name="reason"
            maxlength={500}
            rows={3}
            required
            {...(state.error ? { 'aria-invalid': 'true' } : {})}
          >
            {state.reason ?? ''}
          </textarea>
        </div>
        <div>
          <button type="submit" class="primary">
            Accept the changes
          </button>
        </div>
      </Form>
    </section>
  )
}

/**
 * The revision's document as it was pushed, for reading in the browser (text/plain) or, with
 * `?download`, as a file of its media type. Read access comes from /v1 (the revision must be
 * readable there); the bytes come from the store, since the in-process client answers text.
 */
revisionPages.get('/:owner/apis/:slug/revisions/:id/document', async (c) => {
  const loaded = await loadApi(c)
  if (!loaded.ok) return readFailure(c, loaded)
  const api = loaded.data
  const id = c.req.param('id')
  const answer = await c
    .get('api')
    .get(RevisionSchema, `${v1Api(api.owner, api.slug)}/revisions/${encodeURIComponent(id)}`)
  if (!answer.ok) return readFailure(c, answer)
  const revision = answer.data
  const data = revision.contentHash
    ? await c.get('hub').store.blobs.get(revision.contentHash)
    : undefined
  if (!data) return noDocument(c, api, revision)
  const download = c.req.query('download') !== undefined
  const extension = { json: 'json', yaml: 'yaml', graphql: 'graphql' }[revision.format]
  return c.body(data as Uint8Array<ArrayBuffer>, 200, {
    'Content-Type': download ? revision.mediaType : 'text/plain; charset=utf-8',
    'Content-Disposition': download
      ? `attachment; filename="${api.slug}-${revision.sequence}.${extension}"`
      : 'inline',
    'Cache-Control': 'private, no-cache',
  })
})

const ISSUE_LABELS = {
  error: (n: number) => plural(n, 'error'),
  warning: (n: number) => plural(n, 'warning'),
  debug: (n: number) => `${n} debug`,
} as const

/** `2 errors · 65 warnings · 1 debug` as badges; "none" when all are 0. */
function IssueCounts({ issues, href }: { issues: Revision['parseIssues']; href?: string }) {
  if (issues.error + issues.warning + issues.debug === 0) return <span class="muted">none</span>
  const badges = ISSUE_LEVELS.filter((level) => issues[level] > 0).map((level) => (
    <Badge kind={level}>{ISSUE_LABELS[level](issues[level])}</Badge>
  ))
  return (
    <span class="row">
      {badges}
      {href ? <a href={href}>the list ↓</a> : null}
    </span>
  )
}

/**
 * The document's parse issues, a page at a time (a large description has thousands): errors
 * first, a filter per level, and a link to the next page.
 */
function ParseIssueSection(props: {
  here: string
  list: RevisionIssueList
  level: (typeof ISSUE_LEVELS)[number] | undefined
  cursor: string | undefined
}) {
  const { here, list, level, cursor } = props
  const total = list.counts.error + list.counts.warning + list.counts.debug
  const link = (query: Record<string, string>) =>
    `${here}${Object.keys(query).length > 0 ? `?${new URLSearchParams(query)}` : ''}#parse-issues`
  const filters = [
    { label: `All (${total})`, href: link({}), current: !level },
    ...ISSUE_LEVELS.filter((known) => list.counts[known] > 0).map((known) => ({
      label: ISSUE_LABELS[known](list.counts[known]),
      href: link({ level: known }),
      current: level === known,
    })),
  ]
  // The facts above say "none" already.
  if (total === 0) return null
  return (
    <section id="parse-issues" data-testid="parse-issues">
      <h2>Parse issues</h2>
      <p class="lead">
        What the parser found in the document, errors first. An item with an error is left out of
        what is generated from the document and of its changes.
      </p>
      <nav class="tabs issue-levels" aria-label="Parse issue levels">
        {filters.map((filter) => (
          <a href={filter.href} {...(filter.current ? { 'aria-current': 'page' } : {})}>
            {filter.label}
          </a>
        ))}
      </nav>
      {list.issues.length === 0 ? (
        <Empty>No more issues.</Empty>
      ) : (
        <table class="issues stacked">
          <thead>
            <tr>
              <th>Level</th>
              <th>Type</th>
              <th>Location</th>
              <th>Message</th>
            </tr>
          </thead>
          <tbody>
            {list.issues.map((issue) => (
              <tr data-testid="parse-issue" data-level={issue.level}>
                <td class="inline">
                  <Badge kind={issue.level}>{issue.level}</Badge>
                </td>
                <td class="inline">
                  {/* Short enough to keep whole (28 characters at most). */}
                  <span class="ident">{issue.type}</span>
                </td>
                <td>
                  <Ident text={issue.location} />
                  {issue.line ? (
                    <div class="muted">
                      {issue.file ? <Ident text={issue.file} /> : null}
                      {issue.file ? ' ' : ''}
                      line {issue.line}
                      {issue.column ? `:${issue.column}` : ''}
                    </div>
                  ) : null}
                </td>
                <td>
                  <Prose text={issue.message} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p class="row">
        {cursor ? <a href={link(level ? { level } : {})}>← First issues</a> : null}
        {list.nextCursor ? (
          <a href={link({ ...(level ? { level } : {}), cursor: list.nextCursor })}>
            Next {ISSUES_PAGE_SIZE} issues →
          </a>
        ) : null}
      </p>
    </section>
  )
}

/** A revision without a stored document: its URL stands for the API's revisions page (SPEC). */
function noDocument(c: WebContext, api: Api, revision: Revision) {
  return redirectWith(c, `${apiPath(api.owner, api.slug)}/revisions`, {
    kind: 'error',
    message: `The document of revision ${revisionLabel(revision)} is not stored on this hub; here are the API's revisions.`,
  })
}
