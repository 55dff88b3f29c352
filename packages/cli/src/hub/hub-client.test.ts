import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { StackVersionSchema, UserSchema } from '@svc/hub-api'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HubError, hubRequest } from './hub-client.js'

/** A foreign server on loopback that answers 200 with the JSON body its path names. */
const BODIES: Record<string, unknown> = {
  '/v1/user': { id: 'usr_1', handle: 'alice', kind: 'user', organizations: [], token: {} },
  '/v1/stacks/acme/billing/versions': [{ version: '1.0.0' }],
  '/v1/user/good': {
    id: 'usr_1',
    handle: 'alice',
    kind: 'user',
    organizations: [{ handle: 'acme', role: 'owner' }],
    token: { id: 'tok_1', scopes: ['read'], expiresAt: null },
    extra: 'ignored',
  },
}

let server: Server
let origin: string

beforeAll(async () => {
  server = createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' })
    response.end(JSON.stringify(BODIES[request.url ?? ''] ?? null))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

async function failure(promise: Promise<unknown>): Promise<HubError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  )
  expect(error).toBeInstanceOf(HubError)
  return error as HubError
}

describe('hubRequest', () => {
  it('answers the body parsed with the answer schema', async () => {
    const answer = await hubRequest(origin, 'token', {
      method: 'GET',
      path: '/v1/user/good',
      answer: UserSchema,
    })
    expect(answer.body).toEqual({
      id: 'usr_1',
      handle: 'alice',
      kind: 'user',
      organizations: [{ handle: 'acme', role: 'owner' }],
      token: { id: 'tok_1', scopes: ['read'], expiresAt: null },
    })
  })

  it('refuses a body of the wrong shape, naming the request, the fields and the origin', async () => {
    const error = await failure(
      hubRequest(origin, 'token', { method: 'GET', path: '/v1/user', answer: UserSchema }),
    )
    expect(error.status).toBe(200)
    expect(error.message).toContain(`the hub at ${origin} answered GET /v1/user`)
    expect(error.message).toMatch(/`token\.id`: .*expected string/)
    expect(error.message).toMatch(/`token\.scopes`: /)
  })

  it('refuses a body that is not the object it expects at all', async () => {
    const error = await failure(
      hubRequest(origin, 'token', {
        method: 'POST',
        path: '/v1/stacks/acme/billing/versions',
        answer: StackVersionSchema,
      }),
    )
    expect(error.message).toMatch(
      /answered POST \/v1\/stacks\/acme\/billing\/versions with a body svc cannot read: the body: .*expected object/,
    )
  })

  it('refuses an empty 200 where an answer was expected', async () => {
    const error = await failure(
      hubRequest(origin, 'token', { method: 'GET', path: '/v1/nothing', answer: UserSchema }),
    )
    expect(error.message).toMatch(/answered GET \/v1\/nothing with a body svc cannot read/)
  })
})
