import { parseApi } from '@svc/engine'
import { generate, type GenerateSettings } from '@svc/engine/generate'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { typecheck } from '../../test-support/generated-code.js'
import { generators } from './index.js'
import { loadClient, removeScratch, startLoopback, type Loopback } from './test-support.js'

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })
const json = (name: string) => ({ content: { 'application/json': { schema: ref(name) } } })
const create = (operationId: string, model: string) => ({
  post: {
    operationId,
    requestBody: { required: true, ...json(model) },
    responses: { '201': { description: 'created', ...json(model) } },
  },
})

/** An inline schema with both markers: its body and response types are views too. */
const session = {
  type: 'object',
  required: ['token', 'password'],
  properties: {
    token: { type: 'string', readOnly: true },
    password: { type: 'string', writeOnly: true },
  },
}

/** An account whose id the server gives and whose password it never returns, used nested too. */
const text = JSON.stringify({
  openapi: '3.0.3',
  info: { title: 'Accounts', version: '1' },
  paths: {
    '/accounts': create('createAccount', 'Account'),
    '/teams': create('createTeam', 'Team'),
    '/nodes': create('createNode', 'Node'),
    '/tags': create('createTag', 'Tag'),
    '/sessions': {
      post: {
        operationId: 'createSession',
        requestBody: { required: true, content: { 'application/json': { schema: session } } },
        responses: {
          '200': { description: 'ok', content: { 'application/json': { schema: session } } },
        },
      },
    },
  },
  components: {
    schemas: {
      Account: {
        type: 'object',
        required: ['id', 'password', 'name'],
        properties: {
          id: { type: 'string', readOnly: true },
          password: { type: 'string', writeOnly: true },
          name: { type: 'string' },
        },
      },
      Team: {
        type: 'object',
        required: ['members'],
        properties: { members: { type: 'array', items: ref('Account') } },
      },
      Node: {
        type: 'object',
        required: ['id', 'children'],
        properties: {
          id: { type: 'integer', readOnly: true },
          children: { type: 'array', items: ref('Node') },
        },
      },
      Tag: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
    },
  },
})

const validated: GenerateSettings = {
  enrichments: { '@svc/gen-fetch-client': { _generator: { validate: true } } },
}

/** The definition of one exported function, from its name to its closing brace. */
function signatureOf(file: string, name: string): string {
  const start = file.indexOf(`export function ${name}(`)
  return file.slice(start, file.indexOf(') {\n', start))
}

describe('readOnly and writeOnly', () => {
  it('types a body by the write view of its model and a response by the main model', async () => {
    const { files } = generate({
      parsed: await parseApi({ text }),
      generators,
      settings: validated,
    })
    const client = files.get('client.ts')!
    expect(signatureOf(client, 'createAccount')).toContain('args: { body: AccountWritable }')
    expect(signatureOf(client, 'createAccount')).toContain('ClientResult<201, Account>')
    expect(signatureOf(client, 'createTeam')).toContain('args: { body: TeamWritable }')
    expect(signatureOf(client, 'createNode')).toContain('args: { body: NodeWritable }')
    // A model without readOnly or writeOnly properties has one type and one schema.
    expect(signatureOf(client, 'createTag')).toContain('args: { body: Tag }')
    expect(files.get('types.ts')).not.toContain('TagWritable')
    expect(files.get('zod.ts')).not.toContain('tagWritable')
    expect(files.get('types.ts')).toContain(`export type Account = {
  readonly id: string
  /** @writeonly */
  password?: string
  name: string
}`)
    expect(files.get('types.ts')).toContain(`export type AccountWritable = {
  /** @writeonly */
  password: string
  name: string
}`)
    expect(files.get('types.ts')).toContain(
      'export type TeamWritable = { members: Array<AccountWritable> }',
    )
    expect(files.get('types.ts')).toContain(`export type CreateSessionBody = {
  /** @writeonly */
  password: string
}`)
    expect(files.get('types.ts')).toMatch(
      /export type CreateSessionResponse = \{\n  readonly token: string\n  \/\*\* @writeonly \*\/\n  password\?: string\n\}/,
    )
    const usage = `import type { Account, AccountWritable } from './types.ts'
import { createAccount, createNode, createTeam } from './client.ts'
export async function use(name: string, password: string) {
  const result = await createAccount({ body: { name, password } })
  if (result.status !== 201) return
  const id: string = result.data.id
  // @ts-expect-error the server never sends the password: the main model may lack it
  const sent: string = result.data.password
  // @ts-expect-error the id is the server's, a body has none
  await createAccount({ body: { id, name, password } })
  // @ts-expect-error the password is required in a request
  await createAccount({ body: { name } })
  // @ts-expect-error the id of the main model is read-only
  result.data.id = 'other'
  const response: Account = { id, name }
  const request: AccountWritable = { name, password }
  await createTeam({ body: { members: [request] } })
  // @ts-expect-error the members of a team to create are write views
  await createTeam({ body: { members: [{ id, name, password }] } })
  await createNode({ body: { children: [{ children: [] }] } })
  // @ts-expect-error nested nodes have no id either
  await createNode({ body: { children: [{ id: 1, children: [] }] } })
  return { sent, response }
}
`
    expect(typecheck(new Map([...files, ['usage.ts', usage]]))).toEqual([])
  })

  describe('at runtime, validated', () => {
    let loopback: Loopback
    beforeAll(async () => {
      loopback = await startLoopback()
    })
    afterAll(async () => {
      await loopback.close()
      removeScratch()
    })

    it('accepts a response without the writeOnly password and rejects one without the id', async () => {
      const client = await loadClient(text, validated)
      const { baseUrl } = loopback
      const body = { name: 'Ada', password: 'secret' }
      loopback.replies.push({
        status: 201,
        type: 'application/json',
        body: '{"id":"a1","name":"Ada"}',
      })
      const result = await client.createAccount!({ body }, { baseUrl })
      expect(result).toMatchObject({ status: 201, data: { id: 'a1', name: 'Ada' } })
      expect(JSON.parse(loopback.last().body)).toEqual(body)
      loopback.replies.push({ status: 201, type: 'application/json', body: '{"name":"Ada"}' })
      await expect(client.createAccount!({ body }, { baseUrl })).rejects.toMatchObject({
        name: 'ZodError',
      })
      // An inline response: the password may be missing, the token may not; the body has none.
      loopback.replies.push({ status: 200, type: 'application/json', body: '{"token":"t1"}' })
      const session = await client.createSession!({ body: { password: 'secret' } }, { baseUrl })
      expect(session).toMatchObject({ status: 200, data: { token: 't1' } })
      loopback.replies.push({ status: 200, type: 'application/json', body: '{}' })
      await expect(
        client.createSession!({ body: { password: 'secret' } }, { baseUrl }),
      ).rejects.toMatchObject({ name: 'ZodError' })
    })
  })
})
