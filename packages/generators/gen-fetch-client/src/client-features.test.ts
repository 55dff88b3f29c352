import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generateFrom as generateWith, typecheck } from '../../test-support/generated-code.js'
import { generators } from './index.js'
import { loadClient, removeScratch, startLoopback, type Loopback } from './test-support.js'

const generateFrom = (text: string) => generateWith(text, generators)

/** A one-path document: `GET /pets/{petId}`, with the top-level fields given. */
function document(fields: object = {}, operation: object = {}): string {
  return JSON.stringify({
    openapi: '3.0.3',
    info: { title: 't', version: '1' },
    paths: {
      '/pets/{petId}': {
        get: {
          operationId: 'getPet',
          parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { '204': { description: 'none' } },
          ...operation,
        },
      },
    },
    ...fields,
  })
}

/** Type-checks a usage file beside the generated files; returns tsc's diagnostics. */
async function typecheckUsage(text: string, usage: string): Promise<string[]> {
  const { files } = await generateFrom(text)
  return typecheck(new Map([...files, ['usage.ts', usage]]))
}

let loopback: Loopback
beforeAll(async () => {
  loopback = await startLoopback()
})
afterAll(async () => {
  await loopback.close()
  removeScratch()
})

describe('path parameters', () => {
  it('refuses a missing or empty path parameter before sending anything', async () => {
    const client = await loadClient(document())
    const options = { baseUrl: loopback.baseUrl }
    const before = loopback.seen.length
    for (const path of [{}, { petId: undefined }, { petId: null }, { petId: '' }])
      await expect(client.getPet!({ path }, options)).rejects.toThrow(
        new TypeError("GET /pets/{petId}: the path parameter 'petId' is missing"),
      )
    await expect(client.getPet!(undefined, options)).rejects.toThrow(/'petId' is missing/)
    expect(loopback.seen.length).toBe(before)
    loopback.replies.push({ status: 204 })
    await client.getPet!({ path: { petId: 0 } }, options)
    expect(loopback.last().url).toBe('/pets/0')
  })

  it('types the path parameter as required', async () => {
    const usage = `import { getPet } from './client.ts'
await getPet({ path: { petId: '1' } })
// @ts-expect-error: petId is required
await getPet({ path: {} })
`
    expect(await typecheckUsage(document(), usage)).toEqual([])
  })
})
