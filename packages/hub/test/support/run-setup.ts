import { readFileSync } from 'node:fs'
import { expect } from 'vitest'
import type { HubProcess } from './hub-process.js'
import { call, manifest, publishForm, type Reply } from './http.js'
import { eventually } from './poll.js'
import { PETSTORE } from './stack-bundles.js'

/** What the tests of runs need made on a hub: a stack with versions, an API, a project. */
export type RunSetup = {
  /** `/v1/projects/{account}/{slug}` of the project, with `path` after it. */
  project(path?: string): string
  /** Deploys a published version of the stack; answers the deployment's id. */
  deploy(version: string): Promise<string>
  /** Asks for a run of `deployment` as the caller of `token`. */
  run(deployment: string, token: string): Promise<Reply>
  /** The run once it has ended (succeeded or failed), as `token` reads it. */
  settled(runId: string, token: string): Promise<Reply>
}

/**
 * Publishes `bundles` (version → server.js) as the stack `{account}/web`, makes the API
 * `{account}/petstore` with the Petstore as its revision and the project `{account}/shop` of
 * both, all as the caller of `token` (who may write `account`).
 */
export async function setUpRuns(
  hub: Pick<HubProcess, 'url'>,
  token: string,
  account: string,
  bundles: Record<string, string>,
): Promise<RunSetup> {
  const v1 = (path: string) => `${hub.url}/v1${path}`
  for (const [version, bundle] of Object.entries(bundles)) {
    const published = await call(v1(`/stacks/${account}/web/versions`), {
      method: 'POST',
      token,
      body: publishForm({ version, bundle, files: [manifest(`@${account}/web`, {}, version)] }),
    })
    expect(published.status, published.text).toBe(201)
  }
  const api = await call(v1('/apis'), {
    method: 'POST',
    token,
    json: { owner: account, slug: 'petstore', name: 'Petstore' },
  })
  expect(api.status, api.text).toBe(201)
  const pushed = await call(v1(`/apis/${account}/petstore/revisions`), {
    method: 'POST',
    token,
    headers: { 'content-type': 'application/json' },
    body: readFileSync(PETSTORE, 'utf8'),
  })
  expect(pushed.status, pushed.text).toBe(201)
  const created = await call(v1('/projects'), {
    method: 'POST',
    token,
    json: { account, slug: 'shop', stack: `@${account}/web`, api: `${account}/petstore` },
  })
  expect(created.status, created.text).toBe(201)
  const project = (path = '') => v1(`/projects/${account}/shop${path}`)
  return {
    project,
    async deploy(version) {
      const deployed = await call(project('/deployments'), {
        method: 'POST',
        token,
        json: { stackVersion: version },
      })
      expect(deployed.status, deployed.text).toBe(201)
      return deployed.body.id as string
    },
    run: (deployment, caller) =>
      call(project('/runs'), { method: 'POST', token: caller, json: { deployment } }),
    settled: (runId, reader) =>
      eventually(
        async () => {
          const reply = await call(project(`/runs/${runId}`), { token: reader })
          return reply.body?.status === 'running' ? undefined : reply
        },
        `run ${runId} ends`,
        120_000,
      ),
  }
}
