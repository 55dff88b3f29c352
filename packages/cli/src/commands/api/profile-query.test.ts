import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { CommandIO } from '../../command-io.js'
import { apiDiff } from './diff.js'
import { apiPush } from './push.js'

const none = { summary: { diff: false, details: {} }, counts: { breaking: 0, warning: 0, info: 0 } }

function revision(sequence: number) {
  return {
    id: `rev_${sequence}`,
    sequence,
    contentHash: '0'.repeat(64),
    version: null,
    publishedAt: null,
    retrievedAt: '2026-12-01T00:00:00.000Z',
    url: `http://hub.test/acme/pets/revisions/rev_${sequence}`,
    documentUrl: `http://hub.test/v1/apis/acme/pets/revisions/rev_${sequence}/document`,
    protocol: 'oas',
    format: 'yaml',
    mediaType: 'application/yaml',
    specVersion: '3.1.0',
    size: 10,
    origin: 'push',
    previousRevisionId: sequence > 1 ? `rev_${sequence - 1}` : null,
    createdBy: 'alice',
    parseIssues: { error: 0, warning: 0, debug: 0 },
    changeCounts: none.counts,
    acceptance: null,
  }
}

/** What a hub answers each request the commands make; the URLs it was asked for are kept. */
const ANSWERS: Record<string, unknown> = {
  'POST /v1/apis/acme/pets/diff': { against: null, ...none, changes: [] },
  'POST /v1/apis/acme/pets/revisions': {
    created: true,
    revision: revision(2),
    previousRevision: revision(1),
    ...none,
    webhookDeliveries: 0,
  },
  'GET /v1/apis/acme/pets/revisions/rev_2/changes': {
    revision: revision(2),
    previousRevision: revision(1),
    ...none,
    changes: [],
  },
}

let server: Server
let origin: string
let asked: string[] = []
let dir: string

beforeAll(async () => {
  server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://hub.test')
    asked.push(`${request.method} ${url.pathname}${url.search}`)
    const answer = ANSWERS[`${request.method} ${url.pathname}`]
    request.resume()
    request.on('end', () => {
      response.writeHead(answer === undefined ? 404 : 200, { 'content-type': 'application/json' })
      response.end(JSON.stringify(answer ?? { error: { code: 'not_found', message: 'no' } }))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  dir = mkdtempSync(join(tmpdir(), 'svc-profile-'))
  writeFileSync(
    join(dir, 'openapi.yaml'),
    'openapi: 3.1.0\ninfo: {title: Pets, version: 1.0.0}\npaths: {}\n',
  )
  writeFileSync(join(dir, 'envelope.json'), JSON.stringify({ document: 'openapi: 3.1.0' }))
})
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true })
  await new Promise<void>((resolve) => server.close(() => resolve()))
})
beforeEach(() => {
  asked = []
})

function io(): CommandIO {
  return {
    cwd: dir,
    env: {},
    stdin: new PassThrough(),
    stdout: new PassThrough(),
    stderr: new PassThrough(),
  }
}

const hub = () => ({ api: 'acme/pets', origin, token: 'svc_pat_test' })

describe('svc api diff --profile', () => {
  it('asks the hub for the profile as the query parameter `profile`', async () => {
    await apiDiff({ ...hub(), source: 'openapi.yaml', profile: 'sdk' }, io())
    expect(asked).toEqual(['POST /v1/apis/acme/pets/diff?against=latest&profile=sdk'])
  })

  it("sends none without the flag: the hub judges with the API's own profile", async () => {
    await apiDiff({ ...hub(), source: 'openapi.yaml' }, io())
    expect(asked).toEqual(['POST /v1/apis/acme/pets/diff?against=latest'])
  })
})

describe('svc api push --profile', () => {
  it('pushes with the profile and reads the changelog under it', async () => {
    const result = await apiPush(
      { ...hub(), source: 'openapi.yaml', profile: 'wire', version: '1.1.0' },
      io(),
    )
    expect(result.type).toBe('pushed')
    expect(asked).toEqual([
      'POST /v1/apis/acme/pets/revisions?version=1.1.0&profile=wire',
      'GET /v1/apis/acme/pets/revisions/rev_2/changes?profile=wire',
    ])
  })

  it('sends the profile beside a JSON envelope, which carries the version itself', async () => {
    await apiPush(
      { ...hub(), source: 'envelope.json', profile: 'sdk', version: '1.1.0', failOn: 'breaking' },
      io(),
    )
    expect(asked).toEqual([
      'POST /v1/apis/acme/pets/revisions?profile=sdk',
      'GET /v1/apis/acme/pets/revisions/rev_2/changes?profile=sdk',
    ])
  })

  it('sends none without the flag', async () => {
    await apiPush({ ...hub(), source: 'openapi.yaml' }, io())
    expect(asked).toEqual([
      'POST /v1/apis/acme/pets/revisions',
      'GET /v1/apis/acme/pets/revisions/rev_2/changes',
    ])
  })
})
