import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generateFrom as generateWith, typecheck } from '../../test-support/generated-code.js'
import { parseApi } from '@svc/engine'
import { generate } from '@svc/engine/generate'
import { generators as typeGenerators } from '@svc/gen-typescript'
import { generators as zodGenerators } from '@svc/gen-zod'
import { generators } from './index.js'
import {
  loadClient,
  removeScratch,
  startLoopback,
  type Client,
  type Loopback,
} from './test-support.js'

const VALIDATE = { enrichments: { '@svc/gen-fetch-client': { _generator: { validate: true } } } }
const json = (schema: object, description = 'a body') => ({
  description,
  content: { 'application/json': { schema } },
})
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })

/** One operation for each kind of schema validation covers. */
const text = JSON.stringify({
  openapi: '3.0.3',
  info: { title: 't', version: '1' },
  paths: {
    '/pets': {
      get: {
        operationId: 'listPets',
        responses: { '200': json({ type: 'array', items: ref('Pet') }) },
      },
      post: {
        operationId: 'createPet',
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['name'],
                properties: { name: { type: 'string' }, tag: { type: 'string' } },
              },
            },
          },
        },
        responses: { '201': json(ref('Pet')), default: json(ref('Error')) },
      },
    },
    '/pets/{petId}': {
      get: {
        operationId: 'getPet',
        parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'string' } }],
        responses: {
          '200': json(ref('Pet')),
          '404': json({
            type: 'object',
            required: ['reason'],
            properties: { reason: { type: 'string' } },
          }),
          default: json(ref('Error')),
        },
      },
    },
    '/stats': {
      get: {
        operationId: 'getStats',
        responses: {
          '2XX': json({
            type: 'object',
            required: ['count'],
            properties: { count: { type: 'integer' } },
          }),
        },
      },
    },
    '/health': {
      get: {
        operationId: 'getHealth',
        responses: { default: json({ type: 'object', properties: { ok: { type: 'boolean' } } }) },
      },
    },
  },
  components: {
    schemas: {
      Pet: {
        type: 'object',
        required: ['id', 'name'],
        properties: { id: { type: 'integer' }, name: { type: 'string' } },
      },
      Error: { type: 'object', required: ['code'], properties: { code: { type: 'integer' } } },
    },
  },
})

const all = [...typeGenerators, ...zodGenerators, ...generators]
const generateFrom = (source: string) => generateWith(source, all)

describe('named per-operation types and schemas', () => {
  it('names inline and array schemas after the operation, and uses the names in the client', async () => {
    const { files } = await generate({
      parsed: await parseApi({ text }),
      generators: all,
      settings: VALIDATE,
    })
    const types = files.get('types.ts')!
    expect(types).toContain(
      '/** GET /pets: the 200 response. */\nexport type ListPetsResponse = Array<Pet>',
    )
    expect(types).toContain('/** POST /pets: the request body. */\nexport type CreatePetBody = {')
    expect(types).toContain('export type GetPetResponse404 = {')
    expect(types).toContain('export type GetStatsResponse = {')
    expect(types).toContain('export type GetHealthResponse = {')
    const zod = files.get('zod.ts')!
    expect(zod).toContain(
      'export const listPetsResponseSchema = /* @__PURE__ */ (() => z.array(petSchema))()',
    )
    for (const name of [
      'createPetBody',
      'getPetResponse404',
      'getStatsResponse',
      'getHealthResponse',
    ])
      expect(zod).toMatch(
        new RegExp(`export const ${name}Schema = /\\* @__PURE__ \\*/ \\(\\(\\) =>\\s+z\\.`),
      )
    const client = files.get('client.ts')!
    expect(client).toContain('args: { body: CreatePetBody }')
    expect(client).toContain('validateBody: createPetBodySchema')
    expect(client).toContain(
      'validate: { 200: petSchema, 404: getPetResponse404Schema, default: errorSchema }',
    )
    expect(client).toContain("validate: { '2XX': getStatsResponseSchema }")
    expect(client).toContain('validate: { default: getHealthResponseSchema }')
    // The types are exported and are the ones the functions take and give.
    const usage = `import type { CreatePetBody, GetPetResponse404, ListPetsResponse } from './types.ts'
import { createPet, getPet, listPets } from './client.ts'
export async function use() {
  const body: CreatePetBody = { name: 'Rex' }
  await createPet({ body })
  // @ts-expect-error: name is required
  const bad: CreatePetBody = { tag: 'x' }
  const listed = await listPets()
  if (listed.status === 200) {
    const pets: ListPetsResponse = listed.data
    const back: typeof listed.data = pets
  }
  const got = await getPet({ path: { petId: '1' } })
  if (got.status === 404) {
    const missing: GetPetResponse404 = got.data
    // @ts-expect-error: reason is a string
    const reason: number = got.data.reason
  }
}
`
    expect(typecheck(new Map([...files, ['usage.ts', usage]]))).toEqual([])
  })

  it('names types without validation too, and writes no schema for them', async () => {
    const { files } = await generateFrom(text)
    expect(files.get('types.ts')).toContain('export type CreatePetBody = {')
    expect(files.get('zod.ts')).toContain('export const petSchema')
    expect(files.get('zod.ts')).not.toContain('createPetBodySchema')
    expect(files.get('client.ts')).not.toMatch(/validate(Body)?: [{a-z]/)
  })

  it("gives a variant's types and schemas its suffix, as its function", async () => {
    const { files } = await generate({
      parsed: await parseApi({ text }),
      generators: all,
      settings: {
        enrichments: {
          '@svc/gen-fetch-client': {
            '/pets': { post: { main: {}, admin: { validate: true } } },
          },
        },
      },
    })
    expect(files.get('types.ts')).toContain('export type CreatePetBody = {')
    expect(files.get('types.ts')).toContain('export type CreatePetAdminBody = {')
    expect(files.get('zod.ts')).toContain('export const createPetAdminBodySchema = ')
    expect(files.get('zod.ts')).not.toContain('export const createPetBodySchema = ')
    const client = files.get('client.ts')!
    expect(client).toContain(
      'export function createPetAdmin(\n  args: { body: CreatePetAdminBody },',
    )
    expect(client).toContain('validateBody: createPetAdminBodySchema')
  })

  it('gives a name a model has a counter, in either casing', async () => {
    const colliding = JSON.parse(text)
    colliding.components.schemas.CreatePetBody = { type: 'string', enum: ['model'] }
    colliding.components.schemas['list pets response'] = { type: 'string', enum: ['model'] }
    const { files, manifest } = await generate({
      parsed: await parseApi({ text: JSON.stringify(colliding) }),
      generators: all,
      settings: VALIDATE,
    })
    const failed = Object.values(manifest.results).flatMap((results) =>
      Object.values(results).filter((result) => result.status !== 'success'),
    )
    expect(failed).toEqual([])
    const types = files.get('types.ts')!
    expect(types).toContain('export type CreatePetBody = "model"')
    expect(types).toContain('export type CreatePetBody2 = {')
    expect(types).toContain('export type ListPetsResponse = "model"')
    expect(types).toContain('export type ListPetsResponse2 = Array<Pet>')
    expect(files.get('zod.ts')).toContain('export const createPetBody2Schema = ')
    expect(typecheck(files)).toEqual([])
  })
})

describe('validation at run time', () => {
  let loopback: Loopback
  let client: Client
  let baseUrl: string
  beforeAll(async () => {
    loopback = await startLoopback()
    baseUrl = loopback.baseUrl
    client = await loadClient(text, VALIDATE)
  })
  afterAll(async () => {
    await loopback.close()
    removeScratch()
  })
  type Outcome = { status: number; data: unknown }
  const reply = (status: number, body: unknown, type = 'application/json') =>
    loopback.replies.push({
      status,
      type,
      body: typeof body === 'string' ? body : JSON.stringify(body),
    })
  const call = async (name: string, args?: unknown): Promise<Outcome> => {
    const { status, data } = (await client[name]!(args, { baseUrl })) as Outcome
    return { status, data }
  }
  const rejects = (name: string, args?: unknown) =>
    expect(client[name]!(args, { baseUrl })).rejects.toMatchObject({ name: 'ZodError' })
  const pet = { id: 1, name: 'Rex' }
  const petArgs = { path: { petId: '1' } }

  it('checks a model, an array of models and an inline schema', async () => {
    reply(200, pet)
    expect(await call('getPet', petArgs)).toEqual({ status: 200, data: pet })
    reply(200, { id: 'one', name: 'Rex' })
    await rejects('getPet', petArgs)
    reply(200, [pet, pet])
    expect(await call('listPets')).toEqual({ status: 200, data: [pet, pet] })
    reply(200, [pet, { name: 'no id' }])
    await rejects('listPets')
    reply(404, { reason: 'gone' })
    expect(await call('getPet', petArgs)).toEqual({ status: 404, data: { reason: 'gone' } })
    reply(404, { reason: 404 })
    await rejects('getPet', petArgs)
  })

  it('checks the responses of a range and of default', async () => {
    reply(203, { count: 2 })
    expect(await call('getStats')).toEqual({ status: 203, data: { count: 2 } })
    reply(200, { count: 'two' })
    await rejects('getStats')
    reply(500, { code: 7 })
    expect(await call('getPet', petArgs)).toEqual({ status: 500, data: { code: 7 } })
    reply(500, { code: 'seven' })
    await rejects('getPet', petArgs)
    reply(200, { ok: 'yes' })
    await rejects('getHealth')
  })

  it('checks a JSON body before sending it, and sends it as given', async () => {
    const before = loopback.seen.length
    await rejects('createPet', { body: { tag: 'no name' } })
    expect(loopback.seen).toHaveLength(before)
    reply(201, pet)
    const body = { name: 'Rex', extra: true }
    expect(await call('createPet', { body })).toEqual({ status: 201, data: pet })
    expect(JSON.parse(loopback.last().body)).toEqual(body)
  })

  it('returns a body of an undocumented content type as it came, whatever the status', async () => {
    // A proxy's error page, on a status only `default` (JSON) covers.
    const page = '<html><body>502 Bad Gateway</body></html>'
    reply(502, page, 'text/html')
    expect(await call('getPet', petArgs)).toEqual({ status: 502, data: page })
    // A documented status in another type than the documented one.
    reply(200, 'Rex', 'text/plain')
    expect(await call('getPet', petArgs)).toEqual({ status: 200, data: 'Rex' })
    // A JSON type whose text is not JSON.
    reply(503, 'Service Unavailable')
    expect(await call('getPet', petArgs)).toEqual({ status: 503, data: 'Service Unavailable' })
    // An empty JSON body, and a status nothing documents.
    reply(500, '')
    expect(await call('getStats')).toEqual({ status: 500, data: undefined })
    reply(418, { anything: true })
    expect(await call('getStats')).toEqual({ status: 418, data: { anything: true } })
    // No body (a 204 under `default`, a body without a type), and a binary body.
    reply(204, '')
    expect(await call('getPet', petArgs)).toEqual({ status: 204, data: undefined })
    loopback.replies.push({ status: 500 })
    expect(await call('getPet', petArgs)).toEqual({ status: 500, data: undefined })
    reply(500, 'GIF89a', 'image/gif')
    const binary = await call('getPet', petArgs)
    expect(binary.data).toBeInstanceOf(Blob)
    expect(await (binary.data as Blob).text()).toBe('GIF89a')
  })
})

describe('tree-shaking', () => {
  it('bundles only the schemas the calls imported use', async () => {
    const shaken = JSON.parse(text)
    shaken.components.schemas.Unused = {
      type: 'object',
      properties: { unusedMarker: { type: 'string', minLength: 3 } },
    }
    shaken.paths['/unused'] = {
      get: { operationId: 'getUnused', responses: { '200': json(ref('Unused')) } },
    }
    const { files } = await generate({
      parsed: await parseApi({ text: JSON.stringify(shaken) }),
      generators: all,
      settings: VALIDATE,
      importExtension: '.js',
    })
    const scratch = fileURLToPath(
      new URL('../../../../node_modules/.cache/svc-gen-fetch-client/', import.meta.url),
    )
    mkdirSync(scratch, { recursive: true })
    const folder = mkdtempSync(join(scratch, 'bundle-'))
    try {
      for (const [path, content] of files) writeFileSync(join(folder, path), content)
      writeFileSync(join(folder, 'entry.ts'), "export { getPet } from './client.js'\n")
      const bundle = await build({
        entryPoints: [join(folder, 'entry.ts')],
        bundle: true,
        minify: true,
        format: 'esm',
        write: false,
        external: ['zod'],
        logLevel: 'silent',
      })
      const output = bundle.outputFiles[0]!.text
      expect(files.get('zod.ts')).toContain('unusedMarker')
      // Neither a model nor an operation's schema that getPet does not use is in the bundle…
      expect(output).not.toContain('unusedMarker')
      expect(output).not.toContain('count:')
      // …and those it uses are: its 404 schema's, and the Error model's of its default.
      expect(output).toContain('reason:')
      expect(output).toContain('code:')
    } finally {
      rmSync(folder, { recursive: true, force: true })
    }
  })
})
