import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generateFrom } from '../../test-support/generated-code.js'
import { generators } from './index.js'
import { loadClient, removeScratch, startLoopback, type Loopback } from './test-support.js'

const ok = { responses: { '204': { description: 'none' } } }
/** A 200 response whose inline object has one required property. */
const inline = (property: string, type: string) => ({
  '200': {
    description: 'ok',
    content: {
      'application/json': {
        schema: { type: 'object', required: [property], properties: { [property]: { type } } },
      },
    },
  },
})

/**
 * `get-pet` and `getPet` give one identifier, and so do `get /a-b` and `get /a_b` (no
 * operationId); `getPet2` is another operation's own id, which a counter must not take.
 */
const document = JSON.stringify({
  openapi: '3.0.3',
  info: { title: 't', version: '1' },
  paths: {
    '/pets/by-dash': { get: { operationId: 'get-pet', responses: inline('a', 'string') } },
    '/pets/by-camel': { get: { operationId: 'getPet', responses: inline('b', 'integer') } },
    '/pets/two': { get: { operationId: 'getPet2', ...ok } },
    '/a-b': { get: ok },
    '/a_b': { get: ok },
  },
})

/** The functions a generated file exports, in order. */
const exported = (code: string) =>
  [...code.matchAll(/^export (?:async )?(?:function|const) (\w+)/gm)].map((match) => match[1])

let loopback: Loopback
beforeAll(async () => {
  loopback = await startLoopback()
})
afterAll(async () => {
  await loopback.close()
  removeScratch()
})

describe('colliding operation names', () => {
  it('gives each operation its own function instead of a definition mismatch', async () => {
    const { files, manifest } = await generateFrom(document, generators)
    for (const results of Object.values(manifest.results))
      for (const result of Object.values(results)) expect(result.status).toBe('success')
    // The one written in camelCase keeps the name; the others get the smallest free counter.
    expect(exported(files.get('client.ts')!).slice(-5)).toEqual([
      'getPet3',
      'getPet',
      'getPet2',
      'getAB',
      'getAB2',
    ])
    // Their per-operation types follow the function names.
    const types = files.get('types.ts')!
    expect(types).toMatch(/export type GetPet3Response = \{\s+a: string;?\s+\}/)
    expect(types).toMatch(/export type GetPetResponse = \{\s+b: number;?\s+\}/)
  })

  it('sends each function to its own operation', async () => {
    const client = await loadClient(document)
    const sent: Record<string, string> = {}
    for (const name of ['getPet3', 'getPet', 'getPet2', 'getAB', 'getAB2']) {
      const body = name === 'getPet3' ? '{"a":"x"}' : name === 'getPet' ? '{"b":1}' : undefined
      loopback.replies.push(
        body ? { status: 200, type: 'application/json', body } : { status: 204 },
      )
      await client[name]!(undefined, { baseUrl: loopback.baseUrl })
      sent[name] = loopback.last().url
    }
    expect(sent).toEqual({
      getPet3: '/pets/by-dash',
      getPet: '/pets/by-camel',
      getPet2: '/pets/two',
      getAB: '/a-b',
      getAB2: '/a_b',
    })
  })
})
