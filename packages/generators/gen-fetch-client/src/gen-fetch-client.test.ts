import { readFileSync } from 'node:fs'
import { parseApi } from '@svc/engine'
import { generate, type GenerateSettings } from '@svc/engine/generate'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  PETSTORE,
  generateFrom as generateWith,
  typecheck,
} from '../../test-support/generated-code.js'
import { generators } from './index.js'
import {
  loadClient,
  removeScratch,
  startLoopback,
  type Result,
  type Loopback,
} from './test-support.js'

const ID = '@svc/gen-fetch-client'
const generateFrom = (text: string) => generateWith(text, generators)
const petstore = readFileSync(PETSTORE, 'utf8')

async function generatePetstore(settings: GenerateSettings = {}) {
  return generate({ parsed: await parseApi({ text: petstore }), generators, settings })
}

/** The definition of one exported function, from its doc comment to its closing brace. */
function functionOf(file: string, name: string): string {
  const start = file.indexOf(`export function ${name}(`)
  const before = file.slice(0, start)
  const from = before.endsWith('*/\n') ? before.lastIndexOf('/**') : start
  return file.slice(from, file.indexOf('\n}\n', start) + 2)
}

describe('@svc/gen-fetch-client', () => {
  it('writes a typed function per operation of the Petstore', async () => {
    const { files, manifest } = await generateFrom(petstore)
    expect([...files.keys()]).toEqual(['client.ts', 'types.ts'])
    const results = Object.values(manifest.results[ID]!)
    expect(results).toHaveLength(20)
    expect(results.filter((result) => result.status !== 'success')).toEqual([])
    const client = files.get('client.ts')!
    // Models by their own names; inline schemas by the operation's (item 8 of issue 22).
    expect(client).toContain(
      "import type {\n  ApiResponse,\n  CreateUsersWithArrayInputBody,\n  CreateUsersWithListInputBody,\n  FindPetsByStatusResponse,\n  FindPetsByTagsResponse,\n  GetInventoryResponse,\n  Order,\n  Pet,\n  PetWritable,\n  UpdatePetWithFormBody,\n  User,\n} from './types.js'",
    )
    expect(functionOf(client, 'getPetById')).toBe(
      `/** Find pet by ID */
export function getPetById(
  args: { path: { petId: number } },
  options?: RequestOptions,
): Promise<ClientResult<200, Pet> | ClientResult<Exclude<HttpStatus, 200>, unknown>> {
  return sendRequest(
    { method: 'GET', path: '/pet/{petId}', accept: 'application/json', security: [['api_key']] },
    args,
    options,
  )
}`,
    )
    expect(functionOf(client, 'addPet')).toBe(
      `/** Add a new pet to the store */
export function addPet(
  args: { body: PetWritable },
  options?: RequestOptions,
): Promise<ClientResult<HttpStatus, unknown>> {
  return sendRequest(
    {
      method: 'POST',
      path: '/pet',
      body: 'json',
      contentType: 'application/json',
      security: [['petstore_auth']],
    },
    args,
    options,
  )
}`,
    )
    expect(client).toContain(
      "const baseUrl = options.baseUrl ?? operation.server ?? 'http://petstore.swagger.io/v2'",
    )
    // The result narrows on its status; arguments are checked.
    const usage = `import { getInventory, getPetById, uploadFile } from './client.ts'
export async function use(file: Blob) {
  const pet = await getPetById({ path: { petId: 1 } }, { baseUrl: 'http://localhost' })
  if (pet.status === 200) pet.data.photoUrls.map((url: string) => url.length)
  // @ts-expect-error: another status has no documented body
  else pet.data.name
  const inventory = await getInventory()
  if (inventory.status === 200) inventory.data['sold']?.toFixed()
  // @ts-expect-error: the path parameter is required
  await getPetById({})
  await uploadFile({ path: { petId: 1 }, body: { file } })
}
`
    expect(typecheck(new Map([...files, ['usage.ts', usage]]))).toEqual([])
  })

  it('gives the same bytes for the same input', async () => {
    const [a, b] = [await generatePetstore(), await generatePetstore()]
    expect([...a.files]).toEqual([...b.files])
  })

  it('types ranges, default and bodies of other media types, and keeps identifiers valid', async () => {
    const json = (schema: object) => ({ content: { 'application/json': { schema } } })
    const text = JSON.stringify({
      openapi: '3.0.3',
      info: { title: 't', version: '1' },
      servers: [{ url: '/relative' }],
      paths: {
        '/things/{thing-id}': {
          parameters: [
            { name: 'thing-id', in: 'path', required: true, schema: { type: 'string' } },
          ],
          post: {
            operationId: 'things/create-thing',
            parameters: [
              { name: 'per_page', in: 'query', schema: { type: 'integer' } },
              {
                name: 'ids',
                in: 'query',
                style: 'pipeDelimited',
                schema: { type: 'array', items: { type: 'string' } },
              },
              { name: 'X-Api-Version', in: 'header', required: true, schema: { type: 'string' } },
              { name: 'Accept', in: 'header', schema: { type: 'string' } },
              { name: 'session', in: 'cookie', schema: { type: 'string' } },
            ],
            requestBody: {
              content: { 'application/octet-stream': { schema: { type: 'string' } } },
            },
            responses: {
              '200': json({ $ref: '#/components/schemas/Thing' }),
              '201': json({ $ref: '#/components/schemas/Thing' }),
              '204': { description: 'none' },
              '2XX': json({ type: 'string' }),
              '4XX': json({ $ref: '#/components/schemas/Problem' }),
              default: json({ $ref: '#/components/schemas/Problem' }),
            },
          },
        },
      },
      components: {
        schemas: {
          Thing: { type: 'object', properties: { id: { type: 'string' } } },
          Problem: { type: 'object', properties: { title: { type: 'string' } } },
        },
      },
    })
    const { files, manifest } = await generateFrom(text)
    expect(manifest.results[ID]).toEqual({ 'POST /things/{thing-id}': { status: 'success' } })
    const client = files.get('client.ts')!
    expect(functionOf(client, 'thingsCreateThing')).toBe(
      `export function thingsCreateThing(
  args: {
    path: { "thing-id": string }
    query?: { per_page?: number; ids?: Array<string> }
    headers: { "X-Api-Version": string }
    cookies?: { session?: string }
    body?: string | globalThis.Blob | ArrayBuffer | ArrayBufferView
  },
  options?: RequestOptions,
): Promise<
  | ClientResult<200 | 201, Thing>
  | ClientResult<204, undefined>
  | ClientResult<Exclude<HttpStatus<2>, 200 | 201 | 204>, string>
  | ClientResult<Exclude<HttpStatus, 200 | 201 | 204 | Exclude<HttpStatus<2>, 200 | 201 | 204>>, Problem>
> {
  return sendRequest(
    {
      method: 'POST',
      path: '/things/{thing-id}',
      styles: { query: { ids: { style: 'pipeDelimited' } } },
      body: 'raw',
      contentType: 'application/octet-stream',
    },
    args,
    options,
  )
}`,
    )
    expect(client).toContain("const baseUrl = options.baseUrl ?? operation.server ?? ''")
    expect(typecheck(files)).toEqual([])
  })

  it('validates with _generator.validate by default, which an operation can turn off', async () => {
    const { files } = await generatePetstore({
      enrichments: {
        [ID]: {
          _generator: { validate: true },
          '/user/{username}': { get: { main: { validate: false } } },
        },
      },
    })
    const client = files.get('client.ts')!
    expect(client).toContain(
      "import {\n  apiResponseSchema,\n  createUsersWithArrayInputBodySchema,\n  createUsersWithListInputBodySchema,\n  findPetsByStatusResponseSchema,\n  findPetsByTagsResponseSchema,\n  getInventoryResponseSchema,\n  loginUserResponseSchema,\n  orderSchema,\n  petSchema,\n  petWritableSchema,\n  userSchema,\n} from './zod.js'",
    )
    expect(functionOf(client, 'getPetById')).toContain('validate: { 200: petSchema }')
    expect(functionOf(client, 'getUserByName')).not.toContain('validate')
    expect(files.get('zod.ts')).toContain(
      'export const petSchema = /* @__PURE__ */ (() =>\n  z.looseObject(',
    )
  })

  it('reports a payload of the wrong type as an item error, and an undeclared key', async () => {
    const { manifest } = await generatePetstore({
      enrichments: {
        [ID]: {
          '/pet/{petId}': { get: { main: { validate: 'yes' } } },
          '/pet': { post: { main: { validate: true, retries: 3 } } },
        },
      },
    })
    expect(manifest.results[ID]!['GET /pet/{petId}']).toEqual({
      status: 'error',
      cause: expect.stringMatching(
        /gen-fetch-client → \/pet\/\{petId\} → get → main'.*validate.*expected boolean/,
      ),
    })
    expect(manifest.results[ID]!['POST /pet']).toEqual({ status: 'success' })
    expect(manifest.enrichmentWarnings).toEqual([
      expect.objectContaining({
        type: 'UNKNOWN_ENRICHMENT_KEY',
        level: 'warning',
        path: [ID, '/pet', 'post', 'main', 'retries'],
      }),
    ])
  })
})

/** The Petstore client: every function answers a result. */
type Client = Record<string, (args?: unknown, options?: object) => Promise<Result>>

describe('generated clients, at run time', () => {
  let loopback: Loopback
  let baseUrl: string
  let client: Client

  beforeAll(async () => {
    loopback = await startLoopback()
    baseUrl = `${loopback.baseUrl}/v2`
    client = (await loadClient(petstore, {
      enrichments: { [ID]: { '/pet/{petId}': { get: { main: { validate: true } } } } },
    })) as Client
  })

  afterAll(async () => {
    await loopback.close()
    removeScratch()
  })

  const last = () => loopback.last()

  it('sends query arrays exploded and headers, and reads a typed JSON result', async () => {
    loopback.replies.push({
      status: 200,
      type: 'application/json',
      body: '[{"name":"Rex","photoUrls":[]}]',
    })
    const result = await client.findPetsByStatus!(
      { query: { status: ['available', 'sold'] } },
      { baseUrl, headers: { 'x-trace': 'abc' } },
    )
    expect(last()).toMatchObject({
      method: 'GET',
      url: '/v2/pet/findByStatus?status=available&status=sold',
      headers: { 'x-trace': 'abc', accept: 'application/json' },
      body: '',
    })
    expect(result.status).toBe(200)
    expect(result.data).toEqual([{ name: 'Rex', photoUrls: [] }])
    expect(result.response).toBeInstanceOf(Response)
  })

  it('encodes path parameters and sends a JSON body with its content type', async () => {
    loopback.replies.push({ status: 404, type: 'text/plain', body: 'no such user' })
    const user = { username: 'a b', email: 'a@example.com' }
    const result = await client.updateUser!(
      { path: { username: 'a b/c?' }, body: user },
      { baseUrl: `${baseUrl}/` },
    )
    expect(last()).toMatchObject({
      method: 'PUT',
      url: '/v2/user/a%20b%2Fc%3F',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(user),
    })
    expect({ status: result.status, data: result.data }).toEqual({
      status: 404,
      data: 'no such user',
    })
  })

  it('encodes query values and sets header parameters', async () => {
    loopback.replies.push(
      { status: 200, type: 'application/json', body: '"token"' },
      { status: 400 },
    )
    const login = await client.loginUser!(
      { query: { username: 'a&b', password: 'p w=' } },
      { baseUrl },
    )
    expect(last().url).toBe('/v2/user/login?username=a%26b&password=p%20w%3D')
    expect(login.data).toBe('token')
    const deleted = await client.deletePet!(
      { path: { petId: 7 }, headers: { api_key: 'secret' } },
      { baseUrl },
    )
    expect(last()).toMatchObject({
      method: 'DELETE',
      url: '/v2/pet/7',
      headers: { api_key: 'secret' },
    })
    expect({ status: deleted.status, data: deleted.data }).toEqual({ status: 400, data: undefined })
  })

  it('parses a validated response with its zod schema, and rejects one that does not match', async () => {
    const pet = { id: 1, name: 'Rex', photoUrls: ['a'], status: 'sold' }
    loopback.replies.push({ status: 200, type: 'application/json', body: JSON.stringify(pet) })
    const found = await client.getPetById!({ path: { petId: 1 } }, { baseUrl })
    expect(last().url).toBe('/v2/pet/1')
    expect(found.data).toEqual(pet)
    loopback.replies.push({
      status: 200,
      type: 'application/json',
      body: '{"name":42,"photoUrls":[]}',
    })
    await expect(client.getPetById!({ path: { petId: 2 } }, { baseUrl })).rejects.toMatchObject({
      name: 'ZodError',
      issues: [expect.objectContaining({ path: ['name'] })],
    })
    // Other statuses and unvalidated operations pass their bodies through.
    loopback.replies.push({ status: 404, type: 'application/json', body: '{"name":42}' })
    const missing = await client.getPetById!({ path: { petId: 3 } }, { baseUrl })
    expect({ status: missing.status, data: missing.data }).toEqual({
      status: 404,
      data: { name: 42 },
    })
  })

  it('sends forms and multipart bodies', async () => {
    loopback.replies.push(
      { status: 200 },
      { status: 200, type: 'application/json', body: '{"code":1}' },
    )
    await client.updatePetWithForm!(
      { path: { petId: 5 }, body: { name: 'Rex Jr', status: 'sold' } },
      { baseUrl },
    )
    expect(last()).toMatchObject({
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'name=Rex+Jr&status=sold',
    })
    const file = new Blob(['PNG…'], { type: 'image/png' })
    const uploaded = await client.uploadFile!(
      { path: { petId: 5 }, body: { additionalMetadata: 'front', file } },
      { baseUrl },
    )
    expect(last().headers['content-type']).toMatch(/^multipart\/form-data; boundary=/)
    expect(last().body).toContain('name="additionalMetadata"\r\n\r\nfront\r\n')
    expect(last().body).toContain('PNG…')
    expect(uploaded.data).toEqual({ code: 1 })
  })

  it('serializes parameters in the styles their description gives', async () => {
    const array = { type: 'array', items: { type: 'string' } }
    const object = { type: 'object', properties: { a: { type: 'string' } } }
    const parameter = (name: string, where: string, schema: object, style?: object) => ({
      name,
      in: where,
      required: where === 'path',
      schema,
      ...style,
    })
    const text = JSON.stringify({
      openapi: '3.0.3',
      info: { title: 't', version: '1' },
      paths: {
        '/items/{ids}/{filter}/{label}/x{matrix}': {
          get: {
            operationId: 'listItems',
            parameters: [
              parameter('ids', 'path', array),
              parameter('filter', 'path', object, { explode: true }),
              parameter('label', 'path', array, { style: 'label' }),
              parameter('matrix', 'path', array, { style: 'matrix', explode: true }),
              parameter('tags', 'query', array, { style: 'pipeDelimited' }),
              parameter('sort', 'query', array, { explode: false }),
              parameter('where', 'query', object, { style: 'deepObject', explode: true }),
              parameter('page', 'query', object),
              { name: 'q', in: 'query', content: { 'application/json': { schema: object } } },
              parameter('X-Ids', 'header', array),
              parameter('session', 'cookie', { type: 'string' }),
            ],
            responses: { '204': { description: 'none' } },
          },
        },
      },
    })
    const items = (await loadClient(text)) as Client
    loopback.replies.push({ status: 204 })
    const result = await items.listItems!(
      {
        path: { ids: ['1', '2'], filter: { a: 'b c' }, label: ['x', 'y'], matrix: ['1', '2'] },
        query: {
          tags: ['a', 'b'],
          sort: ['name', '-age'],
          where: { a: 'b c' },
          page: { a: '1' },
          q: { a: '1' },
        },
        headers: { 'X-Ids': ['1', '2'] },
        cookies: { session: 'a;b' },
      },
      { baseUrl },
    )
    expect(last().url).toBe(
      '/v2/items/1,2/a=b%20c/.x,y/x;matrix=1;matrix=2' +
        '?tags=a|b&sort=name,-age&where[a]=b%20c&a=1&q=%7B%22a%22%3A%221%22%7D',
    )
    expect(last().headers).toMatchObject({ 'x-ids': '1,2', cookie: 'session=a%3Bb' })
    expect({ status: result.status, data: result.data }).toEqual({ status: 204, data: undefined })
  })
})
