import { parseApi } from '@svc/engine'
import { generate } from '@svc/engine/generate'
import { generators as fetchClient } from '@svc/gen-fetch-client'
import { generators as typescript } from '@svc/gen-typescript'
import { generators as zod } from '@svc/gen-zod'
import { describe, expect, it } from 'vitest'
import { STRICTEST, typecheck } from '../../test-support/generated-code.js'
import { generators } from './index.js'

/**
 * A small document with what the strict flags are hard on: a recursive model with optional and
 * nullable properties, typed extra keys beside optional properties, optional query parameters
 * and body properties, validated responses, imports between all four files. (gen-zod's
 * layout.test.ts catches an optional property zod would type `T | undefined`.)
 */
const document = JSON.stringify({
  openapi: '3.0.3',
  info: { title: 't', version: '1' },
  paths: {
    '/nodes/{id}': {
      get: {
        operationId: 'getNode',
        parameters: [
          { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
          { name: 'depth', in: 'query', schema: { type: 'integer' } },
        ],
        responses: {
          200: {
            description: 'ok',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Node' } } },
          },
          default: {
            description: 'error',
            content: { 'text/html': { schema: { type: 'string' } } },
          },
        },
      },
      patch: {
        // A name long enough to push the options' lines past 100 columns.
        operationId: 'updateNodeOfTheRepositoryEnvironmentDeploymentBranch',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        requestBody: {
          content: {
            'application/json': {
              schema: { type: 'object', properties: { label: { type: 'string', nullable: true } } },
            },
          },
        },
        responses: {
          200: {
            description: 'ok',
            content: {
              'application/json': {
                schema: { type: 'array', items: { $ref: '#/components/schemas/Node' } },
              },
            },
          },
        },
      },
    },
  },
  components: {
    schemas: {
      Node: {
        type: 'object',
        required: ['id'],
        properties: {
          id: { type: 'string' },
          rank: { type: 'integer' },
          label: { type: 'string', nullable: true },
          children: { type: 'array', items: { $ref: '#/components/schemas/Node' } },
          parent: { $ref: '#/components/schemas/Node' },
          labels: {
            type: 'object',
            properties: { colour: { type: 'string' } },
            additionalProperties: { type: 'string' },
          },
        },
      },
    },
  },
})

describe('generated code under the strictest flags', () => {
  it('compiles types, zod, a validating client and queries under exactOptionalPropertyTypes, noUncheckedIndexedAccess and plain nodenext', async () => {
    const { files } = generate({
      parsed: await parseApi({ text: document }),
      generators: [...typescript, ...zod, ...fetchClient, ...generators],
      settings: { enrichments: { '@svc/gen-fetch-client': { _generator: { validate: true } } } },
    })
    expect([...files.keys()]).toEqual(['client.ts', 'queries.ts', 'types.ts', 'zod.ts'])
    expect(files.get('client.ts')).toContain("from './zod.js'")
    const usage = `import type { Node } from './types.js'
import { getNodeQuery, updateNodeOfTheRepositoryEnvironmentDeploymentBranchMutation } from './queries.js'
export const node: Promise<Node> = getNodeQuery({ path: { id: 'a' } }).queryFn({
  signal: new AbortController().signal,
})
export const updated: Promise<Node[]> = updateNodeOfTheRepositoryEnvironmentDeploymentBranchMutation().mutationFn({
  path: { id: 'a' },
  body: { label: null },
})
`
    const code = files.get('queries.ts')!.split('\n')
    expect(code.filter((line) => line.length > 100 && !line.startsWith('/**'))).toEqual([])
    expect(typecheck(new Map([...files, ['usage.ts', usage]]), STRICTEST)).toEqual([])
  })
})
