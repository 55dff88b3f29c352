import { createToken } from '../../src/accounts/admin.js'
import { oasJson } from './documents.js'
import type { HubProcess } from './hub-process.js'
import { call, manifest, publishForm } from './http.js'
import { WebSession } from './web-session.js'

/** The owner of every upload target, signed in on the web and with a PAT. */
export const OWNER = 'wendy'

/** The routes that read large bodies, for an owner who may write each of them. */
export type UploadTargets = {
  readonly pat: string
  readonly session: WebSession
  /** `POST`: a stack version of `@wendy/tools` (1.0.0 is published). */
  readonly publish: string
  /** `PUT`: the base files of the project `wendy/shop`. */
  readonly baseFiles: string
  /** `POST`: a revision of the API `wendy/petstore` (it has one). */
  readonly revisions: string
  /** `POST`: the web app's upload page of that API. */
  readonly uploadPage: string
  /** `PUT`: the project's config, as JSON. */
  readonly clientConfig: string
}

/**
 * Signs `wendy` up on the hub and makes what the upload routes write to: a stack with a version,
 * an API with a revision and a project binding them.
 */
export async function seedUploadTargets(hub: HubProcess): Promise<UploadTargets> {
  const session = new WebSession(hub.url)
  await session.signUp(OWNER)
  const store = await hub.openStore()
  let pat: string
  try {
    pat = (await createToken(store, OWNER, 'read,write:releases,write:projects,write:apis')).token
  } finally {
    await store.close()
  }
  const ok = async (what: string, reply: Promise<{ status: number; text: string }>) => {
    const { status, text } = await reply
    if (status >= 300) throw new Error(`${what}: ${status} ${text}`)
  }
  const v1 = `${hub.url}/v1`
  await ok(
    'publish',
    call(`${v1}/stacks/${OWNER}/tools/versions`, {
      method: 'POST',
      token: pat,
      body: publishForm({
        version: '1.0.0',
        bundle: 'export {}',
        files: [manifest(`@${OWNER}/tools`)],
      }),
    }),
  )
  await ok(
    'create the API',
    call(`${v1}/apis`, {
      method: 'POST',
      token: pat,
      json: { owner: OWNER, slug: 'petstore', name: 'Petstore' },
    }),
  )
  await ok(
    'push a revision',
    call(`${v1}/apis/${OWNER}/petstore/revisions`, {
      method: 'POST',
      token: pat,
      headers: { 'content-type': 'application/json' },
      body: oasJson(['get /pets']),
    }),
  )
  await ok(
    'create the project',
    call(`${v1}/projects`, {
      method: 'POST',
      token: pat,
      json: { account: OWNER, slug: 'shop', stack: `@${OWNER}/tools`, api: `${OWNER}/petstore` },
    }),
  )
  return {
    pat,
    session,
    publish: `/v1/stacks/${OWNER}/tools/versions`,
    baseFiles: `/v1/projects/${OWNER}/shop/preview/base-files`,
    revisions: `/v1/apis/${OWNER}/petstore/revisions`,
    uploadPage: `/${OWNER}/apis/petstore/revisions/new`,
    clientConfig: `/v1/projects/${OWNER}/shop/client-config`,
  }
}
