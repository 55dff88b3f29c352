import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { oasWithIssues, oasYaml, petsDocument } from '../support/documents.js'
import { startHub, type HubProcess } from '../support/hub-process.js'
import { call } from '../support/http.js'
import { startReceiver, type Receiver } from '../support/receiver.js'
import { expectStoreUnchanged } from '../support/store-snapshot.js'
import { signUpPeople, WebSession } from '../support/web-session.js'
import { adminToken } from '../support/fixtures.js'

const SLUG = 'hidden-ledger'
const NAME = 'Hidden Ledger API'

/**
 * The API, revision, changes and webhook pages over plain HTTP (docs/web/apis.md,
 * docs/web/webhooks.md): every URL the hub puts in a payload answers with its page, a private
 * API's pages are not found for those who cannot read it, and refused forms write nothing.
 */
// The pages reach the store only through the /v1 routes, whose own tests run on both stores.
describe.each(['sqlite'] as const)('API pages (%s)', (kind) => {
  let hub: HubProcess
  let receiver: Receiver
  /** Serves documents for refetch: `/openapi.yaml` (the body of `served`), anything else 404. */
  let source: Receiver
  let served = oasYaml(['get /pets'])
  /** alice owns the org acme; rita is a reader of acme; nora is no member. */
  let alice: WebSession
  let rita: WebSession
  let nora: WebSession
  let pat: string
  const api = `/acme/apis/${SLUG}`

  beforeAll(async () => {
    receiver = await startReceiver()
    source = await startReceiver((request) =>
      request.path === '/openapi.yaml'
        ? { status: 200, headers: { 'content-type': 'text/plain' }, body: served }
        : { status: 404, body: 'no such file' },
    )
    hub = await startHub(kind, {
      env: { SVC_HUB_ALLOW_PRIVATE_NETWORKS: `${receiver.origin},${source.origin}` },
    })
    ;({ alice, rita, nora } = await signUpPeople(hub))
    pat = await adminToken(hub, 'alice', 'read,write:apis')
  })
  afterAll(async () => {
    await hub?.dispose()
    await receiver?.close()
    await source?.close()
  })

  /** Pushes a revision through the upload form as alice; answers the page it redirects to. */
  async function upload(operations: string[], version: string) {
    const file = new File([oasYaml(operations)], 'openapi.yaml')
    const answer = await alice.submit(
      `${api}/revisions/new`,
      { file, document: '', version },
      `${api}/revisions/new`,
    )
    expect(answer.status, answer.text).toBe(303)
    return answer.headers.get('location')!
  }

  it('creates a private API of an organisation, uploads revisions and shows every payload URL', async () => {
    const form = await alice.get('/apis/new')
    expect(form.status).toBe(200)
    expect(form.text).toContain('<option value="acme"')
    const created = await alice.post('/apis/new', {
      owner: 'acme',
      slug: SLUG,
      name: NAME,
      visibility: 'private',
      sourceUrl: '',
    })
    expect(created.status, created.text).toBe(303)
    expect(created.headers.get('location')).toBe(api)

    // Api.url, from the API itself.
    const record = await call(`${hub.url}/v1/apis/acme/${SLUG}`, { token: pat })
    expect(record.status).toBe(200)
    const apiPage = await alice.get(new URL(record.body.url as string).pathname)
    expect(apiPage.status).toBe(200)
    expect(apiPage.text).toContain(NAME)
    expect(apiPage.text).toContain('No revisions yet')
    expect(apiPage.text).toContain(`svc api push acme/${SLUG} openapi.yaml`)

    const first = await upload(['get /pets', 'post /pets'], '1.0.0')
    const firstPage = await alice.get(first)
    expect(firstPage.status).toBe(200)
    expect(firstPage.text).toContain('created: the API&#39;s first revision.')
    expect(firstPage.text).toContain('1.0.0')

    // A webhook at the loopback receiver, its secret shown once.
    const hook = await alice.submit(`${api}/webhooks/new`, {
      url: `${receiver.origin}/hook`,
      description: 'CI',
      active: 'on',
    })
    expect(hook.status, hook.text).toBe(303)
    const hookPage = await alice.get(hook.headers.get('location')!)
    expect(hookPage.text).toMatch(/data-testid="secret">whsec_[A-Za-z0-9_-]{43}</)
    expect((await alice.get(hook.headers.get('location')!)).text).not.toContain('whsec_')

    // The second revision removes an operation: a breaking change, and an event.
    const second = await upload(['get /pets'], '2.0.0')
    const secondPage = await alice.get(second)
    expect(secondPage.text).toContain('created: 1 breaking change, 0 warnings, 0 info against #1')
    const [delivery] = await receiver.waitFor(1)
    const event = JSON.parse(delivery!.body) as {
      data: {
        api: { url: string }
        revision: { url: string }
        previousRevision: { url: string }
        changesUrl: string
      }
    }
    const revisions = await call(`${hub.url}/v1/apis/acme/${SLUG}/revisions`, { token: pat })
    const urls = [
      event.data.api.url,
      event.data.revision.url,
      event.data.previousRevision.url,
      event.data.changesUrl,
      ...(revisions.body.revisions as { url: string }[]).map((r) => r.url),
    ]
    for (const url of urls) {
      const answer = await alice.get(new URL(url).pathname)
      expect(answer.status, url).toBe(200)
      expect(answer.text, url).toContain(NAME)
    }
    const changes = await alice.get(new URL(event.data.changesUrl).pathname)
    expect(changes.text).toContain(
      'data-testid="change-group" data-kind="endpoint" data-level="breaking"',
    )
    expect(changes.text).toContain('<code class="ident">POST /<wbr/>pets</code>')
    expect(changes.text).toContain('endpoint-removed')
    expect(changes.text).not.toContain('~1')
    const firstChanges = await alice.get(
      `${new URL(event.data.previousRevision.url).pathname}/changes`,
    )
    expect(firstChanges.text).toContain('The first revision.')

    // The raw document, as pushed.
    const raw = await alice.get(`${new URL(event.data.revision.url).pathname}/document`)
    expect(raw.status).toBe(200)
    expect(raw.text).toBe(oasYaml(['get /pets']))

    // rita, a reader, reads every page of the API.
    for (const path of [api, `${api}/revisions`, new URL(event.data.changesUrl).pathname]) {
      expect((await rita.get(path)).status, path).toBe(200)
    }
  })

  it("hides a private API's pages from anonymous visitors and from non-members", async () => {
    const revisions = await call(`${hub.url}/v1/apis/acme/${SLUG}/revisions`, { token: pat })
    const revision = new URL(revisions.body.revisions[0].url as string).pathname
    const hooks = await alice.get(`${api}/webhooks`)
    const hookPath = /href="(\/acme\/apis\/[^"]+\/webhooks\/whk_[0-9a-f]{24})"/.exec(
      hooks.text,
    )?.[1]
    expect(hookPath).toBeDefined()
    const paths = [
      api,
      `${api}/revisions`,
      revision,
      `${revision}/changes`,
      `${revision}/document`,
      `${api}/compare`,
      `${api}/compare?from=1&to=2`,
      `${api}/revisions/new`,
      `${api}/webhooks`,
      `${api}/webhooks/new`,
      hookPath!,
      `${hookPath!}/delete`,
    ]
    const anonymous = new WebSession(hub.url)
    for (const visitor of [anonymous, nora]) {
      for (const path of paths) {
        const answer = await visitor.get(path)
        expect(answer.status, path).toBe(404)
        expect(answer.text, path).not.toContain(SLUG)
        expect(answer.text, path).not.toContain(NAME)
      }
      const list = await visitor.get('/apis')
      expect(list.status).toBe(200)
      expect(list.text).not.toContain(SLUG)
    }
    expect((await alice.get('/apis')).text).toContain(SLUG)

    // Forms to it are not found either, and write nothing.
    await expectStoreUnchanged(hub, async () => {
      await nora.get('/apis')
      for (const [path, fields] of [
        [`${api}/revisions/new`, { document: oasYaml(['get /x']), version: '' }],
        [`${api}/webhooks/new`, { url: `${receiver.origin}/nora`, active: 'on' }],
        [`${hookPath!}/rotate`, {}],
        [`${hookPath!}/delete`, { confirm: 'yes' }],
        [`${api}/refetch`, {}],
      ] as const) {
        const answer = await nora.post(path, fields)
        expect(answer.status, path).toBe(404)
        expect(answer.text, path).not.toContain(NAME)
      }
    })
  })

  it('a reader cannot add webhooks or push revisions: not found, nothing written', async () => {
    await rita.get(api)
    expect((await rita.get(`${api}/webhooks`)).status).toBe(404)
    expect((await rita.get(`${api}/webhooks/new`)).status).toBe(404)
    expect((await rita.get(`${api}/revisions/new`)).status).toBe(404)
    await expectStoreUnchanged(hub, async () => {
      const hook = await rita.post(`${api}/webhooks/new`, {
        url: `${receiver.origin}/rita`,
        active: 'on',
      })
      expect(hook.status).toBe(404)
      const push = await rita.post(`${api}/revisions/new`, {
        document: oasYaml(['get /rita']),
        version: '',
      })
      expect(push.status).toBe(404)
    })
  })

  it('refuses a malformed document with its parse problem and stores no revision', async () => {
    await alice.get(`${api}/revisions/new`)
    const broken = 'openapi: 3.0.3\ninfo:\n  title: [Pets\n  version: 1.0.0\npaths: {}\n'
    const answer = await expectStoreUnchanged(hub, () =>
      alice.post(`${api}/revisions/new`, {
        file: new File([broken], 'broken.yaml'),
        document: '',
        version: '',
      }),
    )
    expect(answer.status).toBe(422)
    expect(answer.text).toContain('data-testid="parse-problem"')
    expect(answer.text).toContain('invalid_syntax')
    expect(answer.text).toMatch(/line \d+/)
    expect(answer.text).toContain('title: [Pets')

    const empty = await expectStoreUnchanged(hub, () =>
      alice.post(`${api}/revisions/new`, { document: '  ', version: '' }),
    )
    expect(empty.status).toBe(422)
    expect(empty.text).toContain('Choose a file, or paste a document.')

    const label = await expectStoreUnchanged(hub, () =>
      alice.post(`${api}/revisions/new`, {
        document: oasYaml(['get /label']),
        version: 'x'.repeat(101),
      }),
    )
    expect(label.status).toBe(422)
    expect(label.text).toContain('class="field-error"')
  })

  it('re-renders a refused new-API form with the messages, and writes nothing', async () => {
    await alice.get('/apis/new')
    const answer = await expectStoreUnchanged(hub, () =>
      alice.post('/apis/new', {
        owner: 'acme',
        slug: SLUG,
        name: 'Again',
        visibility: 'public',
        sourceUrl: '',
      }),
    )
    expect(answer.status).toBe(409)
    expect(answer.text).toContain(`The API acme/${SLUG} exists already.`)
    const bad = await expectStoreUnchanged(hub, () =>
      alice.post('/apis/new', {
        owner: 'acme',
        slug: 'Not A Slug',
        name: '',
        visibility: 'public',
        sourceUrl: 'http://127.0.0.1:9/openapi.yaml',
      }),
    )
    expect(bad.status).toBe(422)
    expect(bad.text).toContain('must be a slug')
    expect(bad.text).toContain('value="Not A Slug"')
  })

  it('refuses a form without its CSRF token: 403, nothing written', async () => {
    await alice.get(api)
    await expectStoreUnchanged(hub, async () => {
      for (const [path, fields] of [
        ['/apis/new', { owner: 'acme', slug: 'csrf', name: 'CSRF', visibility: 'public' }],
        [`${api}/revisions/new`, { document: oasYaml(['get /csrf']), version: '' }],
        [`${api}/webhooks/new`, { url: `${receiver.origin}/csrf`, active: 'on' }],
      ] as const) {
        const answer = await alice.post(path, { ...fields, _csrf: '' })
        expect(answer.status, path).toBe(403)
      }
    })
  })

  it('shows a public API to everyone, and tells GraphQL SDL pasted from its content', async () => {
    const created = await alice.submit('/apis/new', {
      owner: 'alice',
      slug: 'graph',
      name: 'Graph API',
      visibility: 'public',
      sourceUrl: '',
    })
    expect(created.status, created.text).toBe(303)
    const sdl = 'type Pet {\n  id: ID!\n}\n\ntype Query {\n  pets: [Pet]\n}\n'
    const pushed = await alice.submit('/alice/apis/graph/revisions/new', {
      document: sdl.replace(/\n/g, '\r\n'),
      version: '',
    })
    expect(pushed.status, pushed.text).toBe(303)
    const revision = await alice.get(pushed.headers.get('location')!)
    expect(revision.text).toContain('GraphQL · graphql · sdl')
    // Stored with the line breaks of the text, not the CRLF a browser sends.
    expect((await alice.get(`${pushed.headers.get('location')!}/document`)).text).toBe(sdl)

    const anonymous = new WebSession(hub.url)
    for (const path of ['/apis', '/alice/apis/graph', '/alice/apis/graph/revisions']) {
      const answer = await anonymous.get(path)
      expect(answer.status, path).toBe(200)
      expect(answer.text, path).toContain('Graph API')
    }
    // Pages that write send a signed-out visitor to sign in first.
    const upload = await anonymous.get('/alice/apis/graph/revisions/new')
    expect(upload.status).toBe(303)
    expect(upload.headers.get('location')).toBe(
      `/signin?next=${encodeURIComponent('/alice/apis/graph/revisions/new')}`,
    )
    expect((await anonymous.get('/alice/apis/graph/webhooks')).status).toBe(303)
    // Someone else reads it but may not push to it or manage its webhooks.
    expect((await nora.get('/alice/apis/graph')).text).not.toContain('Upload a revision')
    expect((await nora.get('/alice/apis/graph/revisions/new')).status).toBe(404)
    expect((await nora.get('/alice/apis/graph/webhooks')).status).toBe(404)
  })

  it('leads the changes page with the parse errors of either document', async () => {
    const created = await alice.submit('/apis/new', {
      owner: 'alice',
      slug: 'broken',
      name: 'Broken API',
      visibility: 'public',
      sourceUrl: '',
    })
    expect(created.status, created.text).toBe(303)
    const push = async (responses: string) => {
      const document = `openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /pets:\n    post:\n      responses: ${responses}\n`
      const pushed = await alice.submit('/alice/apis/broken/revisions/new', {
        document,
        version: '',
      })
      expect(pushed.status, pushed.text).toBe(303)
      return pushed.headers.get('location')!
    }
    await push("{'200': {description: ok}}")
    const revision = await push('null')
    const changes = await alice.get(`${revision}/changes`)
    expect(changes.status).toBe(200)
    const text = changes.text
    expect(text).toContain('data-testid="changes-parse-errors"')
    expect(text).toContain('paths:<wbr/>/<wbr/>pets:<wbr/>post')
    expect(text).toContain('&quot;responses&quot; must be an object, got null.')
    expect(text).toContain('operation-unparsable')
    expect(text.indexOf('changes-parse-errors')).toBeLessThan(text.indexOf('change-group'))
  })

  it("lists a revision's parse issues by level, a page at a time", async () => {
    const created = await alice.submit('/apis/new', {
      owner: 'alice',
      slug: 'loose',
      name: 'Loose API',
      visibility: 'public',
      sourceUrl: '',
    })
    expect(created.status, created.text).toBe(303)
    const pushed = await alice.submit('/alice/apis/loose/revisions/new', {
      document: oasWithIssues(60),
      version: '',
    })
    expect(pushed.status, pushed.text).toBe(303)
    const revision = pushed.headers.get('location')!
    const page = await alice.get(revision)
    expect(page.status).toBe(200)
    // 1 error, 62 warnings (60 strings without a type, an invalid example, an array without
    // items), 1 debug: the counts, then the first 50, errors first.
    expect(page.text).toContain('<span class="badge error">1 error</span>')
    expect(page.text).toContain('<span class="badge warning">62 warnings</span>')
    expect(page.text).toContain('<span class="badge debug">1 debug</span>')
    const rows = issueRows(page.text)
    expect(rows).toHaveLength(50)
    expect(rows[0]).toEqual({
      level: 'error',
      html: expect.stringContaining('<span class="ident">INVALID_OPERATION</span>'),
    })
    expect(rows[0]!.html).toContain('paths:<wbr/>/<wbr/>pets:<wbr/>post')
    expect(rows[0]!.html).toContain('line 5:5')
    expect(rows[0]!.html).toContain('&quot;responses&quot; must be an object, got null.')
    expect(rows.slice(1).every((row) => row.level === 'warning')).toBe(true)
    expect(rows[1]!.html).toContain('INVALID_EXAMPLE')
    expect(rows[1]!.html).toContain('line 11:27')
    expect(rows[1]!.html).toContain('Removed invalid example: expected &quot;string&quot;')

    // The next page: the other 14, the debug one last.
    const next = /href="([^"]*cursor=[^"]*)">Next 50 issues →/.exec(page.text)?.[1]
    expect(next).toBeDefined()
    const second = await alice.get(next!.replaceAll('&amp;', '&'))
    const rest = issueRows(second.text)
    expect(rest).toHaveLength(14)
    expect(rest.at(-1)!.level).toBe('debug')
    expect(rest.at(-1)!.html).toContain('MISSING_OBJECT_TYPE')
    expect(second.text).toContain('← First issues')
    expect(second.text).not.toContain('Next 50 issues')

    // One level: the error alone; an unknown level shows them all.
    const errors = await alice.get(`${revision}?level=error`)
    expect(issueRows(errors.text).map((row) => row.level)).toEqual(['error'])
    expect(errors.text).toMatch(
      /<a href="[^"]*\?level=error#parse-issues" aria-current="page">1 error</,
    )
    expect(issueRows((await alice.get(`${revision}?level=nope`)).text)).toHaveLength(50)

    // Anyone reads a public API's issues; nora is no member of alice's.
    expect(issueRows((await nora.get(revision)).text)).toHaveLength(50)
  })

  it('renders backticks in change messages as code, escapes the rest, and counts changes per revision', async () => {
    const created = await alice.submit('/apis/new', {
      owner: 'alice',
      slug: 'marked',
      name: 'Marked API',
      visibility: 'public',
      sourceUrl: '',
    })
    expect(created.status, created.text).toBe(303)
    const push = async (properties: string[], operations: string[]) => {
      const pushed = await alice.submit('/alice/apis/marked/revisions/new', {
        document: petsDocument(properties, operations),
        version: '',
      })
      expect(pushed.status, pushed.text).toBe(303)
      return pushed.headers.get('location')!
    }
    await push(['name', "'<script>alert(1)</script>'"], ['get /pets', 'get /owners', 'get /shops'])
    // A property removed (a warning), two operations removed (breaking).
    const second = await push(['name'], ['get /pets'])
    const secondPage = await alice.get(second)
    expect(secondPage.text).toContain(
      'Revision #2 created: 2 breaking changes, 1 warning, 0 info against #1.',
    )
    // One operation added (info).
    await push(['name'], ['get /pets', 'get /toys'])

    const changes = await alice.get(`${second}/changes`)
    expect(changes.status).toBe(200)
    const html = changes.text
    expect(html).toContain('<span class="badge breaking">2 breaking changes</span>')
    expect(html).toContain('<span class="badge warning">1 warning</span>')
    // By endpoint (the removed ones, breaking, first), then the shared schema.
    const groups = [
      ...html.matchAll(
        /data-testid="change-group" data-kind="(\w+)" data-level="(\w+)">(.*?)<\/h3>/g,
      ),
    ].map(([, kind, level, head]) => [kind, level, head!.replace(/<[^>]+>/g, '')])
    expect(groups).toEqual([
      ['endpoint', 'breaking', 'GET /owners1 breaking'],
      ['endpoint', 'breaking', 'GET /shops1 breaking'],
      ['component', 'warning', 'components › schemas › Pet1 warning'],
    ])
    // The property's readable path below its component, the operations that reach it beside.
    expect(html).toContain(
      '<td data-testid="change-path"><span class="ident">[&quot;&lt;script&gt;alert(1)&lt;/<wbr/>script&gt;&quot;]</span></td>',
    )
    expect(html).toContain('Affects <code class="ident">GET /<wbr/>pets</code>')
    expect(html).toContain(
      'Response body, schema <code class="ident">Pet</code> <code class="ident">&lt;script&gt;alert(1)&lt;/<wbr/>script&gt;</code>: the optional property was removed.',
    )
    expect(html).not.toContain('<script>alert(1)')
    expect(html).not.toContain('`')
    expect(html).toContain('<span class="ident">response-body-property-removed</span>')
    expect(html).not.toMatch(/<td class="mono">/)
    // Judged for the wire (the API's profile), with a link to the same changes judged for SDKs.
    expect(html).toContain('judged for the wire')
    expect(html).toContain('<a href="?profile=sdk" data-testid="profile-link">')
    const sdk = await alice.get(`${second}/changes?profile=sdk`)
    expect(sdk.status).toBe(200)
    expect(sdk.text).toContain('judged for generated SDKs')
    expect(sdk.text).toContain('<a href="?profile=wire" data-testid="profile-link">')

    // The list counts the changes of each revision.
    const list = await alice.get('/alice/apis/marked/revisions')
    const counts = [...list.text.matchAll(/data-testid="revision-counts">(.*?)<\/td>/g)].map(
      (match) =>
        match[1]!
          .replace(/<[^>]+>/g, ' ')
          .replace(/\s+/g, ' ')
          .trim(),
    )
    expect(counts).toEqual(['1 info Changes', '2 breaking changes 1 warning Changes', 'first'])
    // The API page's list too.
    expect((await alice.get('/alice/apis/marked')).text).toContain(
      '<span class="badge breaking">2 breaking changes</span>',
    )
  })

  it('compares any two revisions: the latest with the one before by default, either way in time', async () => {
    // The revisions of the test before: #1 (GET /pets, /owners, /shops), #2 (GET /pets, a
    // property fewer), #3 (GET /pets, /toys).
    const groups = (html: string) =>
      [
        ...html.matchAll(
          /data-testid="change-group" data-kind="\w+" data-level="(\w+)">(.*?)<\/h3>/g,
        ),
      ].map(([, level, head]) => `${level}: ${head!.replace(/<[^>]+>/g, '')}`)
    const selected = (html: string, name: string) =>
      new RegExp(`<select id="f-${name}" name="${name}">.*?<option value="([^"]+)" selected`).exec(
        html,
      )?.[1]
    const revisions = await call(`${hub.url}/v1/apis/alice/marked/revisions`)
    const [third, second, first] = (revisions.body.revisions as { id: string }[]).map((r) => r.id)

    const initial = await rita.get('/alice/apis/marked/compare')
    expect(initial.status).toBe(200)
    expect(initial.text).toContain('aria-current="page">Compare</a>')
    expect(selected(initial.text, 'from')).toBe(second)
    expect(selected(initial.text, 'to')).toBe(third)
    expect(initial.text).toContain('#3 (latest)</option>')
    expect(groups(initial.text)).toEqual(['info: GET /toys1 info'])

    // Not neighbours: #1 → #3, by id or by sequence number.
    for (const query of [`from=${first}&to=${third}`, 'from=1&to=3']) {
      const across = await rita.get(`/alice/apis/marked/compare?${query}`)
      expect(across.status, query).toBe(200)
      expect(groups(across.text), query).toEqual([
        'breaking: GET /owners1 breaking',
        'breaking: GET /shops1 breaking',
        'info: GET /toys1 info',
        'warning: components › schemas › Pet1 warning',
      ])
      expect(across.text).toContain('<span class="badge breaking">2 breaking changes</span>')
    }
    // Backwards: what going back from #3 to #1 would change.
    const back = await rita.get('/alice/apis/marked/compare?from=3&to=1')
    expect(groups(back.text)).toEqual([
      'breaking: GET /toys1 breaking',
      'info: GET /owners1 info',
      'info: GET /shops1 info',
      'info: components › schemas › Pet1 info',
    ])
    expect(back.text).toMatch(/From <a [^>]+>revision #3<\/a> to <a [^>]+>revision #1<\/a>/)

    // A revision that is not there: the form again, saying so.
    const missing = await rita.get('/alice/apis/marked/compare?from=9&to=1')
    expect(missing.status).toBe(404)
    expect(missing.text).toContain('data-testid="compare-form"')
    expect(missing.text).toContain('alice/marked has no revision #9.')
    // The changes page links here, with its pair.
    expect((await rita.get(`/alice/apis/marked/revisions/${second}/changes`)).text).toContain(
      `href="/alice/apis/marked/compare?from=${first}&amp;to=${second}"`,
    )
  })

  it('refetches the source URL, and shows why a refetch was refused', async () => {
    const created = await alice.submit('/apis/new', {
      owner: 'alice',
      slug: 'fetched',
      name: 'Fetched API',
      visibility: 'private',
      sourceUrl: `${source.origin}/openapi.yaml`,
    })
    expect(created.status, created.text).toBe(303)
    const page = await alice.get('/alice/apis/fetched')
    expect(page.text).toContain('>Refetch<')

    const first = await alice.post('/alice/apis/fetched/refetch')
    expect(first.status, first.text).toBe(303)
    expect(first.headers.get('location')).toMatch(/^\/alice\/apis\/fetched\/revisions\/rev_/)
    expect((await alice.get(first.headers.get('location')!)).text).toContain('revision #1 created')

    served = oasYaml(['get /pets', 'get /owners'])
    const second = await alice.post('/alice/apis/fetched/refetch')
    expect((await alice.get(second.headers.get('location')!)).text).toContain(
      'revision #2 created (0 breaking changes, 0 warnings, 1 info)',
    )
    const same = await alice.post('/alice/apis/fetched/refetch')
    expect((await alice.get(same.headers.get('location')!)).text).toContain('nothing was created')

    // A source that answers 404: the page again, with the API's message; nothing stored.
    const store = await hub.openStore()
    await store.kysely
      .updateTable('apis')
      .set({ source_url: `${source.origin}/gone.yaml` })
      .where('slug', '=', 'fetched')
      .execute()
    await store.close()
    await alice.get('/alice/apis/fetched')
    const refused = await expectStoreUnchanged(hub, () => alice.post('/alice/apis/fetched/refetch'))
    expect(refused.status).toBe(502)
    expect(refused.text).toContain('The sourceUrl answered 404')
    expect(refused.text).toContain('Fetched API')
  })

  it('re-renders refused webhook forms with the messages, and writes nothing', async () => {
    const hooks = await alice.get(`${api}/webhooks`)
    const hook = /href="(\/acme\/apis\/[^"]+\/webhooks\/whk_[0-9a-f]{24})"/.exec(hooks.text)![1]!
    await alice.get(hook)
    await expectStoreUnchanged(hub, async () => {
      const refusedUrl = await alice.post(hook, {
        url: 'http://10.1.2.3/hook',
        description: '',
        active: 'on',
      })
      expect(refusedUrl.status).toBe(422)
      expect(refusedUrl.text).toContain('value="http://10.1.2.3/hook"')
      expect(refusedUrl.text).toMatch(
        /class="field-error">The hub does not send requests to this URL: /,
      )

      const unconfirmed = await alice.post(`${hook}/delete`, {})
      expect(unconfirmed.status).toBe(422)
      expect(unconfirmed.text).toContain('Tick the box to confirm the deletion.')

      const future = new Date(Date.now() + 86_400_000).toISOString().slice(0, 16)
      const recover = await alice.post(`${hook}/recover`, { since: future })
      expect(recover.status).toBe(422)
      expect(recover.text).toContain('The time must be in the past.')
      const garbled = await alice.post(`${hook}/recover`, { since: 'yesterday' })
      expect(garbled.status).toBe(422)

      const unknown = await alice.post(`${api}/webhooks/whk_000000000000000000000000/rotate`, {})
      expect(unknown.status).toBe(404)
    })

    // Switched off, a webhook takes no test event: 409 with the API's message.
    expect(
      (await alice.post(hook, { url: `${receiver.origin}/hook`, description: '' })).status,
    ).toBe(303)
    await alice.get(hook)
    const test = await expectStoreUnchanged(hub, () => alice.post(`${hook}/test`, {}))
    expect(test.status).toBe(409)
    expect(test.text).toContain('is switched off')
  })

  it('the webhook form sets, shows and changes the minimum level; a bad one is refused and writes nothing', async () => {
    const form = await alice.get(`${api}/webhooks/new`)
    expect(form.text).toMatch(/<select id="f-minLevel" name="minLevel"/)
    expect(form.text).toContain('<option value="info" selected="">')
    const made = await alice.submit(`${api}/webhooks/new`, {
      url: `${receiver.origin}/breaking-only`,
      description: 'Breaking changes only',
      minLevel: 'breaking',
      active: 'on',
    })
    expect(made.status, made.text).toBe(303)
    const hook = made.headers.get('location')!
    const id = /whk_[0-9a-f]{24}$/.exec(hook)![0]
    const token = await adminToken(hub, 'alice', 'admin:webhooks')
    const record = async () =>
      (await call(`${hub.url}/v1/apis/acme/${SLUG}/webhooks/${id}`, { token })).body
    expect(await record()).toMatchObject({ minLevel: 'breaking', active: true })
    const page = await alice.get(hook)
    expect(page.text).toContain('data-testid="min-level">breaking<')
    expect(page.text).toContain('<option value="breaking" selected="">')
    expect((await alice.get(`${api}/webhooks`)).text).toContain('<td>breaking</td>')

    const saved = await alice.post(hook, {
      url: `${receiver.origin}/breaking-only`,
      description: 'Warnings too',
      minLevel: 'warning',
      active: 'on',
    })
    expect(saved.status, saved.text).toBe(303)
    expect(await record()).toMatchObject({ minLevel: 'warning', description: 'Warnings too' })

    // A form without the field (an older page) keeps the level.
    await alice.get(hook)
    const kept = await alice.post(hook, { url: `${receiver.origin}/breaking-only`, active: 'on' })
    expect(kept.status, kept.text).toBe(303)
    expect(await record()).toMatchObject({ minLevel: 'warning' })

    await alice.get(hook)
    await expectStoreUnchanged(hub, async () => {
      const refused = await alice.post(hook, {
        url: `${receiver.origin}/breaking-only`,
        minLevel: 'critical',
        active: 'on',
      })
      expect(refused.status).toBe(422)
      expect(refused.text).toContain(
        'class="field-error">must be one of `breaking`, `warning`, `info`<',
      )
      const refusedNew = await alice.post(`${api}/webhooks/new`, {
        url: `${receiver.origin}/never`,
        minLevel: 'BREAKING',
        active: 'on',
      })
      expect(refusedNew.status).toBe(422)
      expect(refusedNew.text).toContain('class="field-error">must be one of')
    })
    expect(await record()).toMatchObject({ minLevel: 'warning' })
  })
})

/** The parse-issue rows of a revision page: each one's level and HTML. */
function issueRows(html: string): { level: string; html: string }[] {
  return [...html.matchAll(/<tr data-testid="parse-issue" data-level="(\w+)">(.*?)<\/tr>/g)].map(
    (match) => ({ level: match[1]!, html: match[2]! }),
  )
}
