import fc from 'fast-check'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ERROR_CODES } from '../src/errors/index.js'
import type { Store } from '../src/store/store.js'
import { storeKinds } from './support/databases.js'
import { oasJson } from './support/documents.js'
import { startHub, type HubProcess } from './support/hub-process.js'
import { call } from './support/http.js'
import { rawRequest, type Framing, type RawAnswer } from './support/raw-http.js'
import { snapshotStore } from './support/store-snapshot.js'
import { seedUploadTargets, type UploadTargets } from './support/upload-targets.js'

/**
 * Valid upload bodies, mutated and cut the ways a broken client or an attacker sends them (cut
 * anywhere, boundaries damaged, part headers garbled, parts repeated or dropped, bytes changed,
 * chunked framing ended early or wrongly, the client leaving mid-body), against every route that
 * reads an upload, on both stores. Whatever arrives: the hub keeps answering, every answer is a
 * status the route documents (an API answer in the error envelope whose code has that status),
 * and the store changes only when the hub says it did (2xx or a page's 303).
 *
 * The seed is fixed, so CI runs the same cases every time; SVC_TEST_FUZZ_SEED and
 * SVC_TEST_FUZZ_RUNS try others.
 */
const SEED = Number(process.env.SVC_TEST_FUZZ_SEED ?? 20261125)
const RUNS = Number(process.env.SVC_TEST_FUZZ_RUNS ?? 500)
const BOUNDARY = 'svcFuzzBoundary7MA4YWxk'

/** The statuses a page form post answers (docs/web/README.md, "Forms and CSRF"). */
const PAGE_STATUSES = [303, 400, 403, 404, 413, 415, 422]

type Part = { readonly headers: string; readonly content: Buffer }

type Route = {
  readonly name: string
  readonly method: 'POST' | 'PUT'
  readonly path: (t: UploadTargets) => string
  /** The `/v1/openapi.json` path whose documented responses the answers must be among. */
  readonly documented: string | undefined
  readonly headers: (t: UploadTargets, hub: HubProcess) => Record<string, string>
  readonly contentTypes: readonly string[]
  /** The valid body: multipart parts, or raw bytes. */
  readonly body: (t: UploadTargets) => Part[] | Buffer
}

const DOCUMENT = Buffer.from(oasJson(['get /pets']))

const file = (name: string, filename: string, content: string | Buffer): Part => ({
  headers: `Content-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: application/octet-stream`,
  content: Buffer.from(content),
})
const field = (name: string, value: string): Part => ({
  headers: `Content-Disposition: form-data; name="${name}"`,
  content: Buffer.from(value),
})
const multipart = `multipart/form-data; boundary=${BOUNDARY}`

const ROUTES: readonly Route[] = [
  {
    name: 'publish',
    method: 'POST',
    path: (t) => t.publish,
    documented: '/v1/stacks/{account}/{slug}/versions',
    headers: (t) => ({ authorization: `Bearer ${t.pat}` }),
    contentTypes: [multipart, 'multipart/form-data', `multipart/mixed; boundary=${BOUNDARY}`],
    // 1.0.0 is published: read to its end, this body is refused with 409 and stores nothing.
    body: () => [
      field('version', '1.0.0'),
      file('bundle', 'server.js', 'export {}\n'),
      file('files', 'deno.json', JSON.stringify({ name: '@wendy/tools', version: '1.0.0' })),
      file('files', 'src/mod.ts', 'export const answer = 42\n'),
    ],
  },
  {
    name: 'base files',
    method: 'PUT',
    path: (t) => t.baseFiles,
    documented: '/v1/projects/{account}/{slug}/preview/base-files',
    headers: (t) => ({ authorization: `Bearer ${t.pat}` }),
    contentTypes: [multipart, 'multipart/form-data; boundary=', 'text/plain'],
    body: () => [file('files', 'README.md', '# shop\n'), file('files', 'src/app.ts', 'run()\n')],
  },
  {
    name: 'revision push',
    method: 'POST',
    path: (t) => t.revisions,
    documented: '/v1/apis/{owner}/{slug}/revisions',
    headers: (t) => ({ authorization: `Bearer ${t.pat}` }),
    contentTypes: ['application/json', 'application/yaml', 'application/json; charset=latin1'],
    // The latest revision's document: read to its end, it makes no revision (200).
    body: () => DOCUMENT,
  },
  {
    name: 'upload page',
    method: 'POST',
    path: (t) => t.uploadPage,
    documented: undefined,
    headers: (t, hub) => ({
      cookie: `svc_session=${t.session.cookie('svc_session')}`,
      origin: hub.url,
    }),
    contentTypes: [multipart, 'application/x-www-form-urlencoded', 'multipart/form-data'],
    body: (t) => [
      field('_csrf', t.session.csrf),
      field('version', 'v1'),
      file('file', 'openapi.json', DOCUMENT),
      field('document', ''),
    ],
  },
]

/** A change to the parts of a multipart body. */
type PartMutation =
  | { kind: 'repeat'; part: number; times: number }
  | { kind: 'drop'; part: number }
  | { kind: 'garble header'; part: number; at: number; byte: number }

/** A change to the bytes of a body. */
type ByteMutation =
  | { kind: 'cut'; at: number }
  | { kind: 'set'; at: number; byte: number }
  | { kind: 'insert'; at: number; bytes: number[] }
  | { kind: 'damage boundary'; which: number; how: 'flip' | 'shorten' | 'no dashes' | 'no crlf' }
  | { kind: 'repeat slice'; at: number; length: number }

/** Bytes that break framing and text, rather than random ones that mostly land in a string. */
const HOSTILE = [0x00, 0x0a, 0x0d, 0x22, 0x2d, 0x3a, 0x3b, 0x5c, 0x7b, 0x7d, 0x80, 0xc3, 0xff]
const hostileByte = fc.constantFrom(...HOSTILE)
const at = fc.integer({ min: 0, max: 1_000_000 })

const partMutation: fc.Arbitrary<PartMutation> = fc.oneof(
  fc.record({
    kind: fc.constant('repeat' as const),
    part: at,
    times: fc.integer({ min: 1, max: 3 }),
  }),
  fc.record({ kind: fc.constant('drop' as const), part: at }),
  fc.record({ kind: fc.constant('garble header' as const), part: at, at, byte: hostileByte }),
)

const byteMutation: fc.Arbitrary<ByteMutation> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('cut' as const), at }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('set' as const), at, byte: hostileByte }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('insert' as const),
      at,
      bytes: fc.array(fc.oneof(hostileByte, fc.integer({ min: 0, max: 255 })), {
        minLength: 1,
        maxLength: 8,
      }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('damage boundary' as const),
      which: at,
      how: fc.constantFrom(
        'flip' as const,
        'shorten' as const,
        'no dashes' as const,
        'no crlf' as const,
      ),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('repeat slice' as const),
      at,
      length: fc.integer({ min: 1, max: 200 }),
    }),
  },
)

/** How the body goes on the wire: whole, chunked (sometimes ended wrongly) or left mid-way. */
const framing: fc.Arbitrary<Framing> = fc.oneof(
  { weight: 3, arbitrary: fc.constant<Framing>({ kind: 'length' }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('chunked' as const),
      cuts: fc.array(at, { maxLength: 4 }),
      ending: fc.constantFrom(
        '0\r\n\r\n',
        '0\r\n\r\n',
        '0\r\nX-Trailer: 1\r\n\r\n',
        '0\r\n',
        '',
        'zz\r\n\r\n',
      ),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('gone' as const),
      declared: fc.constant(4 * 1024 * 1024),
    }),
  },
)

const mutated = fc.record({
  contentType: fc.nat(),
  parts: fc.array(partMutation, { maxLength: 2 }),
  bytes: fc.array(byteMutation, { minLength: 0, maxLength: 3 }),
  framing,
})

type Case = {
  readonly contentType: number
  readonly parts: readonly PartMutation[]
  readonly bytes: readonly ByteMutation[]
  readonly framing: Framing
}

for (const kind of await storeKinds()) {
  describe(`hostile uploads, generated (${kind})`, () => {
    let hub: HubProcess
    let targets: UploadTargets
    let store: Store
    let documented: Record<string, Record<string, Record<string, unknown>>>

    beforeAll(async () => {
      // The limiter would answer most cases 429 before their body is read.
      hub = await startHub(kind, { env: { SVC_HUB_RATE_LIMITS: 'off' } })
      targets = await seedUploadTargets(hub)
      // The base files the valid body sets, so that reading it to its end changes nothing.
      const base = await rawRequest(
        hub.url,
        request(ROUTES[1]!, targets, hub, {
          contentType: 0,
          parts: [],
          bytes: [],
          framing: { kind: 'length' },
        }),
      )
      expect(base.status).toBe(200)
      await targets.session.get(targets.uploadPage)
      store = await hub.openStore()
      documented = (await call(`${hub.url}/v1/openapi.json`)).body.paths
    })
    afterAll(async () => {
      await store?.close()
      await hub?.dispose()
    })

    for (const route of ROUTES) {
      it(`${route.name}: ${RUNS} mutated bodies, each a documented answer that stores nothing it does not say`, async () => {
        const allowed = route.documented
          ? Object.keys(
              documented[route.documented]![route.method.toLowerCase()]!['responses'] as object,
            ).map(Number)
          : PAGE_STATUSES
        let baseline = await snapshotStore(store)
        let fingerprint = await fingerprintOf(store)
        const seen = new Map<string, number>()
        await fc.assert(
          fc.asyncProperty(mutated, async (value) => {
            const sent = request(route, targets, hub, value)
            const answer = await rawRequest(hub.url, sent)
            const key = answer.status === undefined ? 'none' : String(answer.status)
            seen.set(key, (seen.get(key) ?? 0) + 1)
            if (answer.status !== undefined) checkAnswer(answer, allowed, route)
            const now = await fingerprintOf(store)
            if (answer.status !== undefined && answer.status < 400) {
              // The hub says it stored something: that is the new state to hold.
              baseline = await snapshotStore(store)
              fingerprint = now
            } else {
              expect(now).toEqual(fingerprint)
            }
          }),
          { seed: SEED, numRuns: RUNS, endOnFailure: true },
        )
        expect(await snapshotStore(store)).toEqual(baseline)
        expect((await call(`${hub.url}/healthz`)).status).toBe(200)
        // The generator must reach the parser's refusals, not only the framing's.
        expect(seen.get('400') ?? 0).toBeGreaterThan(RUNS / 20)
      })
    }
  })
}

function request(route: Route, targets: UploadTargets, hub: HubProcess, value: Case) {
  const base = route.body(targets)
  const valid = Buffer.isBuffer(base) ? base : serialise(applyParts(base, value.parts))
  const body = value.bytes.reduce(applyBytes, valid)
  // Mostly the route's own content type; sometimes one it must refuse.
  const type = value.contentType % 8
  const { framing } = value
  return {
    method: route.method,
    path: route.path(targets),
    headers: {
      ...route.headers(targets, hub),
      'content-type': route.contentTypes[type < 6 ? 0 : type - 5]!,
    },
    body,
    framing:
      framing.kind === 'chunked'
        ? {
            ...framing,
            cuts: framing.cuts.map((cut) => cut % (body.length + 1)).sort((a, b) => a - b),
          }
        : framing,
  }
}

function applyParts(parts: readonly Part[], mutations: readonly PartMutation[]): Part[] {
  const out = [...parts]
  for (const m of mutations) {
    if (out.length === 0) break
    const i = m.part % out.length
    const part = out[i]!
    if (m.kind === 'repeat') out.splice(i, 0, ...Array.from({ length: m.times }, () => part))
    else if (m.kind === 'drop') out.splice(i, 1)
    else {
      const headers = Buffer.from(part.headers, 'latin1')
      headers[m.at % headers.length] = m.byte
      out[i] = { ...part, headers: headers.toString('latin1') }
    }
  }
  return out
}

function serialise(parts: readonly Part[]): Buffer {
  return Buffer.concat([
    ...parts.flatMap((p) => [
      Buffer.from(`--${BOUNDARY}\r\n${p.headers}\r\n\r\n`, 'latin1'),
      p.content,
      Buffer.from('\r\n'),
    ]),
    Buffer.from(`--${BOUNDARY}--\r\n`),
  ])
}

function applyBytes(body: Buffer, m: ByteMutation): Buffer {
  const i = body.length === 0 ? 0 : m.kind === 'damage boundary' ? 0 : m.at % (body.length + 1)
  switch (m.kind) {
    case 'cut':
      return body.subarray(0, i)
    case 'set': {
      if (body.length === 0) return body
      const copy = Buffer.from(body)
      copy[i % body.length] = m.byte
      return copy
    }
    case 'insert':
      return Buffer.concat([body.subarray(0, i), Buffer.from(m.bytes), body.subarray(i)])
    case 'repeat slice':
      return Buffer.concat([body.subarray(0, i + m.length), body.subarray(i)])
    case 'damage boundary': {
      const starts: number[] = []
      for (
        let at = body.indexOf(`--${BOUNDARY}`);
        at >= 0;
        at = body.indexOf(`--${BOUNDARY}`, at + 1)
      ) {
        starts.push(at)
      }
      if (starts.length === 0) return body
      const start = starts[m.which % starts.length]!
      const line = `--${BOUNDARY}`
      const replacement = {
        flip: `--${BOUNDARY.slice(0, -1)}X`,
        shorten: `--${BOUNDARY.slice(0, 8)}`,
        'no dashes': BOUNDARY,
        'no crlf': `--${BOUNDARY}`,
      }[m.how]
      const end = m.how === 'no crlf' ? start + line.length + 2 : start + line.length
      return Buffer.concat([body.subarray(0, start), Buffer.from(replacement), body.subarray(end)])
    }
  }
}

/**
 * One row count per table an upload writes, and the project's base files, in one query: it runs
 * after every case.
 */
async function fingerprintOf(store: Store): Promise<unknown> {
  const counted = (table: string) =>
    sql`select ${table} as what, count(*) as n, '' as path, '' as sha from ${sql.table(table)}`
  const tables = [
    'stacks',
    'stack_versions',
    'stack_version_files',
    'blobs',
    'revisions',
    'apis',
    'webhook_events',
    'webhook_deliveries',
  ]
  const rows = await sql<{ what: string; n: unknown; path: string; sha: string }>`
    ${sql.join(tables.map(counted), sql` union all `)}
    union all select 'file' as what, 0 as n, path, sha256 as sha from project_base_files
    order by what, path`.execute(store.kysely)
  return rows.rows.map((r) => `${r.what} ${Number(r.n)} ${r.path} ${r.sha}`)
}

function checkAnswer(answer: RawAnswer & { status: number }, allowed: number[], route: Route) {
  expect(
    allowed,
    `${route.name} answered ${answer.status}: ${answer.body.slice(0, 300)}`,
  ).toContain(answer.status)
  // Node's own HTTP parser answers framing it cannot read (400, no X-Request-Id): no hub code ran.
  if (!/^x-request-id:/im.test(answer.headers)) {
    expect(answer.status).toBe(400)
    return
  }
  if (route.documented && answer.status >= 400) {
    const body = JSON.parse(answer.body) as { code: keyof typeof ERROR_CODES }
    expect(ERROR_CODES[body.code]).toBe(answer.status)
  }
}
