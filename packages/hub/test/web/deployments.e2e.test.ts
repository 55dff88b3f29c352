import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startHub, type HubProcess } from '../support/hub-process.js'
import { call, manifest, publishForm } from '../support/http.js'
import { eventually } from '../support/poll.js'
import { ENV_BUNDLE } from '../support/stack-bundles.js'
import { expectStoreUnchanged } from '../support/store-snapshot.js'
import { signUpPeople, type WebSession } from '../support/web-session.js'
import { adminToken } from '../support/fixtures.js'

/**
 * The deployment and run pages over plain HTTP (docs/web/deployments.md): a writer deploys,
 * promotes and runs with forms; a reader sees the pages without forms and is refused a post; a
 * non-member and the signed-out get 404; refused forms change nothing.
 */
// The pages reach the store only through the /v1 routes, whose own tests run on both stores.
describe.each(['sqlite'] as const)('deployment and run pages (%s)', (kind) => {
  let hub: HubProcess
  let alice: WebSession
  let rita: WebSession
  let nora: WebSession
  let anonymous: WebSession
  let pat: string
  const base = '/acme/projects/shop'

  const v1 = (path: string, init: RequestInit & { json?: unknown } = {}) =>
    call(`${hub.url}/v1${path}`, { ...init, token: pat })

  beforeAll(async () => {
    hub = await startHub(kind)
    ;({ alice, rita, nora, anonymous } = await signUpPeople(hub))
    pat = await adminToken(hub, 'alice', 'read,write:releases,write:projects,write:apis')
    const published = await v1('/stacks/acme/web/versions', {
      method: 'POST',
      body: publishForm({ version: '1.0.0', bundle: ENV_BUNDLE, files: [manifest('@acme/web')] }),
    })
    expect(published.status, published.text).toBe(201)
    expect(
      (await v1('/apis', { method: 'POST', json: { owner: 'acme', slug: 'pets', name: 'Pets' } }))
        .status,
    ).toBe(201)
    const pushed = await v1('/apis/acme/pets/revisions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ openapi: '3.0.0', info: { title: 'Pets', version: '1' }, paths: {} }),
    })
    expect(pushed.status, pushed.text).toBe(201)
    const project = await v1('/projects', {
      method: 'POST',
      json: { account: 'acme', slug: 'shop', stack: '@acme/web', api: 'acme/pets' },
    })
    expect(project.status, project.text).toBe(201)
  })
  afterAll(() => hub?.dispose())

  it('a writer deploys, promotes and runs with the forms, and reads the run and its files', async () => {
    const empty = await alice.get(`${base}/deployments`)
    expect(empty.status).toBe(200)
    expect(empty.text).toContain('Deploy a version')
    expect(empty.text).toContain('No deployments yet')

    const deployed = await alice.post(`${base}/deployments`, { stackVersion: 'latest' })
    expect(deployed.status).toBe(303)
    expect(deployed.headers.get('location')).toBe(`${base}/deployments`)
    const list = await v1('/projects/acme/shop/deployments')
    const id = list.body.deployments[0].id as string
    const page = await alice.get(`${base}/deployments`)
    expect(page.text).toContain('Deployed version 1.0.0')
    expect(page.text).toContain('Promote to production')

    const promoted = await alice.post(`${base}/deployments/${id}/promote`)
    expect(promoted.status).toBe(303)
    expect((await v1('/projects/acme/shop/aliases/production')).body.deployment.id).toBe(id)
    const after = await alice.get(`${base}/deployments`)
    expect(after.text).toContain('badge production')
    expect(after.text).not.toContain('Promote to production')

    const runs = await alice.get(`${base}/runs`)
    expect(runs.text).toContain('Run production (1.0.0)')
    const ran = await alice.post(`${base}/runs`)
    expect(ran.status).toBe(303)
    const runPath = ran.headers.get('location') ?? ''
    expect(runPath).toMatch(/^\/acme\/projects\/shop\/runs\/run_[0-9a-f]+$/)
    const done = await eventually(async () => {
      const answer = await alice.get(runPath)
      return answer.text.includes('badge running') ? undefined : answer
    }, 'the run ends')
    expect(done.status).toBe(200)
    expect(done.text).toContain('badge succeeded')
    expect(done.text).toContain('env.json')
    expect(done.text).not.toContain('http-equiv="refresh"')
    const file = await alice.get(`${runPath}/artifacts/cwd.json`)
    expect(file.status).toBe(200)
    expect(file.text).toContain('server.js')
    expect((await alice.get(`${runPath}/artifacts/nope.json`)).status).toBe(404)
  })

  it('a reader sees the pages without forms, and a post is refused on the page', async () => {
    const page = await rita.get(`${base}/deployments`)
    expect(page.status).toBe(200)
    expect(page.text).not.toContain('Deploy a version')
    expect(page.text).not.toContain('Promote to production')
    const runs = await rita.get(`${base}/runs`)
    expect(runs.status).toBe(200)
    expect(runs.text).not.toContain('Run production')
    const id = (await v1('/projects/acme/shop/deployments')).body.deployments[0].id as string
    await expectStoreUnchanged(hub, async () => {
      for (const [path, fields] of [
        [`${base}/deployments`, { stackVersion: '1.0.0' }],
        [`${base}/deployments/${id}/promote`, {}],
        [`${base}/runs`, {}],
      ] as const) {
        const answer = await rita.post(path, fields)
        expect(answer.status, path).toBe(403)
        expect(answer.text).toContain('Not allowed')
      }
    })
  })

  it("the URLs of a run's payload answer with their pages: the run and the revision it used", async () => {
    const [run] = (await v1('/projects/acme/shop/runs')).body.runs as {
      url: string
      revision: { url: string } | null
    }[]
    for (const url of [run!.url, run!.revision!.url]) {
      const answer = await rita.get(new URL(url).pathname)
      expect(answer.status, url).toBe(200)
      expect(answer.headers.get('content-type')).toMatch(/^text\/html/)
    }
  })

  it('a non-member and the signed-out get 404 for every page and post; nothing changes', async () => {
    const runs = await v1('/projects/acme/shop/runs')
    const runPath = `${base}/runs/${runs.body.runs[0].id}`
    const id = (await v1('/projects/acme/shop/deployments')).body.deployments[0].id as string
    for (const who of [nora, anonymous]) {
      for (const path of [
        `${base}/deployments`,
        `${base}/runs`,
        runPath,
        `${runPath}/artifacts/env.json`,
      ]) {
        const answer = await who.get(path)
        expect(answer.status, path).toBe(404)
        expect(answer.text).not.toContain('NODE_ENV')
      }
    }
    await expectStoreUnchanged(hub, async () => {
      await nora.get('/')
      for (const [path, fields] of [
        [`${base}/deployments`, { stackVersion: '1.0.0' }],
        [`${base}/deployments/${id}/promote`, {}],
        [`${base}/runs`, {}],
      ] as const) {
        expect((await nora.post(path, fields)).status, path).toBe(404)
      }
    })
  })

  it('malformed forms are refused with the reason, and nothing changes', async () => {
    await expectStoreUnchanged(hub, async () => {
      const cases: [string, Record<string, string>, string][] = [
        [`${base}/deployments`, { stackVersion: '9.9.9' }, 'has no version 9.9.9'],
        [`${base}/deployments`, { stackVersion: '<script>' }, 'neither a semver version'],
        [`${base}/deployments/dep_nope/promote`, {}, 'no deployment'],
        [`${base}/runs`, { deployment: 'dep_nope' }, 'no deployment'],
      ]
      for (const [path, fields, reason] of cases) {
        const answer = await alice.post(path, fields)
        expect(answer.status, path).toBe(422)
        expect(answer.text).toContain(reason)
        expect(answer.text).not.toContain('<script>')
      }
      // No CSRF token: refused before anything is read.
      const forged = await alice.post(`${base}/runs`, { _csrf: 'forged' })
      expect(forged.status).toBe(403)
    })
  })
})
