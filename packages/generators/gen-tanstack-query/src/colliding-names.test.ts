import { generators as fetchClient } from '@svc/gen-fetch-client'
import { describe, expect, it } from 'vitest'
import { generateFrom } from '../../test-support/generated-code.js'
import { generators } from './index.js'

const ok = { responses: { '204': { description: 'none' } } }

/** `get-pet` and `getPet` give one identifier, and so do `get /a-b` and `get /a_b`. */
const document = JSON.stringify({
  openapi: '3.0.3',
  info: { title: 't', version: '1' },
  paths: {
    '/pets/by-dash': { get: { operationId: 'get-pet', ...ok } },
    '/pets/by-camel': { get: { operationId: 'getPet', ...ok } },
    '/a-b': { get: ok },
    '/a_b': { get: ok },
  },
})

describe('colliding operation names', () => {
  it("names each operation's options after its own client function", async () => {
    const { files, manifest } = await generateFrom(document, [...fetchClient, ...generators])
    for (const results of Object.values(manifest.results))
      for (const result of Object.values(results)) expect(result.status).toBe('success')
    const queries = files.get('queries.ts')!
    const calls = [
      ...queries.matchAll(/^export function (\w+)Query\([^]*?successDataOf\((\w+)\(/gm),
    ]
    expect(calls.map(([, query, client]) => [query, client])).toEqual([
      ['getPet2', 'getPet2'],
      ['getPet', 'getPet'],
      ['getAB', 'getAB'],
      ['getAB2', 'getAB2'],
    ])
  })
})
