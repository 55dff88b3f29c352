import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parseApi } from '@svc/engine'
import { generate } from '@svc/engine/generate'
import { generators as fetchClient } from '@svc/gen-fetch-client'
import ts from 'typescript'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startLoopback, type Loopback } from '../../gen-fetch-client/src/test-support.js'
import { PETSTORE, generateFrom, typecheck } from '../../test-support/generated-code.js'
import { generators } from './index.js'

const ID = '@svc/gen-tanstack-query'
const petstore = readFileSync(PETSTORE, 'utf8')
const both = [...fetchClient, ...generators]

/** The definition of one exported function, from its doc comment to its closing brace. */
function functionOf(file: string, name: string): string {
  const start = file.indexOf(`export function ${name}(`)
  return file.slice(file.lastIndexOf('/**', start), file.indexOf('\n}\n', start) + 2)
}

describe('@svc/gen-tanstack-query', () => {
  it('writes query options per GET and mutation options per other method of the Petstore', async () => {
    const { files, manifest } = await generateFrom(petstore, both)
    expect([...files.keys()]).toEqual(['client.ts', 'queries.ts', 'types.ts'])
    const results = Object.values(manifest.results[ID]!)
    expect(results).toHaveLength(20)
    expect(results.filter((result) => result.status !== 'success')).toEqual([])
    const queries = files.get('queries.ts')!
    expect(queries).not.toContain('@tanstack')
    expect(queries).toContain('import {\n  type HttpStatus,\n  type RequestOptions,\n  addPet,\n')
    expect(functionOf(queries, 'getPetByIdQuery')).toBe(
      `/** Find pet by ID: the query of \`getPetById\`, for \`useQuery(getPetByIdQuery(args))\`. */
export function getPetByIdQuery(...[args, options]: Parameters<typeof getPetById>) {
  return {
    queryKey: ['getPetById', args] as const,
    queryFn: ({ signal }: { readonly signal: globalThis.AbortSignal }) =>
      successDataOf(getPetById(args, { ...options, signal })),
  }
}`,
    )
    expect(functionOf(queries, 'addPetMutation')).toBe(
      `/** Add a new pet to the store: the mutation of \`addPet\`, for \`useMutation(addPetMutation())\`. */
export function addPetMutation(options?: RequestOptions) {
  return {
    mutationKey: ['addPet'] as const,
    mutationFn: (args: Parameters<typeof addPet>[0]) => successDataOf(addPet(args, options)),
  }
}`,
    )
    expect(queries).toContain('export function deletePetMutation(options?: RequestOptions)')
    expect(queries).toContain('export function getInventoryQuery(')
  })

  it('breaks a long summary and a long query group to 100 columns', async () => {
    const summary =
      'Lists the pets of the store that match every filter given, newest first, a page at a time'
    const query = ['species', 'colour', 'owner', 'shelter', 'vaccinated', 'adopted', 'status']
    const text = JSON.stringify({
      openapi: '3.0.3',
      info: { title: 't', version: '1' },
      paths: {
        '/pets': {
          get: {
            operationId: 'listPets',
            summary,
            parameters: query.map((name) => ({ name, in: 'query', schema: { type: 'string' } })),
            responses: { '200': { description: 'ok' } },
          },
        },
      },
    })
    const { files } = await generateFrom(text, both)
    expect(functionOf(files.get('queries.ts')!, 'listPetsQuery')).toContain(`/**
 * Lists the pets of the store that match every filter given, newest first, a page at a time:
 * the query of \`listPets\`, for \`useQuery(listPetsQuery(args))\`.
 */`)
    expect(files.get('client.ts')).toContain(`  args?: {
    query?: {
      species?: string
      colour?: string
`)
    for (const [name, code] of files)
      expect([name, code.split('\n').filter((line) => line.length > 100)]).toEqual([name, []])
  })

  it('types the arguments, the key and the data of the options', async () => {
    const { files } = await generateFrom(petstore, both)
    const usage = `import type { Order, Pet } from './types.ts'
import { addPetMutation, getInventoryQuery, getPetByIdQuery, placeOrderMutation, ResponseError } from './queries.ts'
declare const signal: AbortSignal
export async function use(pet: Pet, order: Order) {
  const query = getPetByIdQuery({ path: { petId: 1 } }, { baseUrl: 'http://localhost' })
  const key: readonly ['getPetById', { path: { petId: number } }] = query.queryKey
  const found: Pet = await query.queryFn({ signal })
  // @ts-expect-error the key names its operation
  const other: readonly ['getOrderById', { path: { petId: number } }] = query.queryKey
  // @ts-expect-error petId is a number
  getPetByIdQuery({ path: { petId: '1' } })
  // @ts-expect-error the path is required
  getPetByIdQuery({})
  // @ts-expect-error a Pet is no Order
  const wrong: Order = await query.queryFn({ signal })
  const counts: { [key: string]: number } = await getInventoryQuery().queryFn({ signal })
  const placed: Order = await placeOrderMutation().mutationFn({ body: order })
  // @ts-expect-error the variables are the client function's arguments
  await placeOrderMutation().mutationFn({ body: pet, extra: 1 })
  const added: unknown = await addPetMutation().mutationFn({ body: pet })
  // @ts-expect-error the variables' body is the write view: a pet's id is the server's
  await addPetMutation().mutationFn({ body: { id: 1, name: 'Rex', photoUrls: [] } })
  const mutationKey: readonly ['addPet'] = addPetMutation().mutationKey
  const error: Error = new ResponseError({ status: 404 })
  const status: number = error instanceof ResponseError ? error.result.status : 0
  return { key, found, other, wrong, counts, placed, added, mutationKey, status }
}
`
    expect(typecheck(new Map([...files, ['usage.ts', usage]]))).toEqual([])
  })

  it('gives options that TanStack Query takes as they are, its types inferred from them', async () => {
    const { files } = await generateFrom(petstore, both)
    const usage = `import { MutationObserver, QueryClient, QueryObserver } from '@tanstack/query-core'
import type { Order, Pet } from './types.ts'
import { getPetByIdQuery, placeOrderMutation } from './queries.ts'
export async function use(client: QueryClient, order: Order) {
  const pet: Pet = await client.fetchQuery(getPetByIdQuery({ path: { petId: 1 } }))
  const observer = new QueryObserver(client, getPetByIdQuery({ path: { petId: 1 } }))
  const current: Pet | undefined = observer.getCurrentResult().data
  // @ts-expect-error the data is a Pet
  const wrong: Order | undefined = observer.getCurrentResult().data
  const mutation = new MutationObserver(client, placeOrderMutation())
  const placed: Order = await mutation.mutate({ body: order })
  // @ts-expect-error the variables are the client function's arguments
  await mutation.mutate({ body: pet })
  await client.invalidateQueries({ queryKey: ['getPetById'] })
  return { pet, current, wrong, placed }
}
`
    expect(typecheck(new Map([...files, ['usage.ts', usage]]))).toEqual([])
  })

  describe('at runtime', () => {
    let server: Loopback
    let queries: Record<string, (...args: unknown[]) => Record<string, unknown>>
    const scratch = fileURLToPath(
      new URL('../../../../node_modules/.cache/svc-gen-tanstack-query/', import.meta.url),
    )

    beforeAll(async () => {
      server = await startLoopback()
      const parsed = await parseApi({ text: petstore })
      const { files } = generate({ parsed, generators: both, importExtension: '.js' })
      mkdirSync(scratch, { recursive: true })
      const folder = mkdtempSync(scratch)
      writeFileSync(join(folder, 'package.json'), '{ "type": "module" }')
      for (const [path, content] of files) {
        const { outputText } = ts.transpileModule(content, {
          compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
        })
        writeFileSync(join(folder, path.replace(/\.ts$/, '.js')), outputText)
      }
      queries = await import(pathToFileURL(join(folder, 'queries.js')).href)
    })
    afterAll(async () => {
      await server.close()
      rmSync(scratch, { recursive: true, force: true })
    })

    type Run = (context?: { signal: AbortSignal }) => Promise<unknown>
    const signal = new AbortController().signal

    it('resolves a query to the body of a 2xx response, sent with its arguments', async () => {
      server.replies.push({ status: 200, type: 'application/json', body: '{"id":7,"name":"Rex"}' })
      const query = queries.getPetByIdQuery!({ path: { petId: 7 } }, { baseUrl: server.baseUrl })
      expect(query.queryKey).toEqual(['getPetById', { path: { petId: 7 } }])
      await expect((query.queryFn as Run)({ signal })).resolves.toEqual({ id: 7, name: 'Rex' })
      expect(server.last()).toMatchObject({ method: 'GET', url: '/pet/7' })
    })

    it('rejects a query with a ResponseError holding the result of another status', async () => {
      server.replies.push({ status: 404, type: 'application/json', body: '{"message":"none"}' })
      const query = queries.getPetByIdQuery!({ path: { petId: 8 } }, { baseUrl: server.baseUrl })
      const error: unknown = await (query.queryFn as Run)({ signal }).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(queries.ResponseError as unknown as typeof Error)
      expect(error).toMatchObject({ result: { status: 404, data: { message: 'none' } } })
    })

    it('sends a mutation with its variables as the arguments', async () => {
      server.replies.push({ status: 200, type: 'application/json', body: '{"id":1}' })
      const mutation = queries.placeOrderMutation!({ baseUrl: server.baseUrl })
      expect(mutation.mutationKey).toEqual(['placeOrder'])
      const run = mutation.mutationFn as (variables: unknown) => Promise<unknown>
      await expect(run({ body: { id: 1, petId: 7 } })).resolves.toEqual({ id: 1 })
      expect(server.last()).toMatchObject({ method: 'POST', url: '/store/order' })
      expect(JSON.parse(server.last().body)).toEqual({ id: 1, petId: 7 })
    })

    it('aborts a query with the signal TanStack Query passes', async () => {
      const controller = new AbortController()
      controller.abort()
      const query = queries.getPetByIdQuery!({ path: { petId: 9 } }, { baseUrl: server.baseUrl })
      const run = (query.queryFn as Run)({ signal: controller.signal })
      await expect(run).rejects.toMatchObject({ name: 'AbortError' })
    })
  })
})
