import { describe, expect, it } from 'vitest'
import { parseApi } from '../parse-api.js'
import { toModelEntry, toOperationEntry } from './entries.js'
import { listSubjects } from './subjects.js'

const text = JSON.stringify({
  openapi: '3.0.3',
  info: { title: 'Pets', version: '1' },
  paths: {
    '/pets': {
      get: { operationId: 'listPets', responses: { '200': { description: 'ok' } } },
      post: { operationId: 'createPet', responses: { '201': { description: 'ok' } } },
    },
  },
  components: { schemas: { Pet: { type: 'object' }, Tag: { type: 'string' } } },
})

const models = toModelEntry({
  id: '@test/gen-models',
  transform: ({ context, name, exportPath }) =>
    context.define({ name, kind: 'type', exportPath, code: `export type ${name} = unknown` }),
})
const getters = toOperationEntry({
  id: '@test/gen-getters',
  isSupported: ({ subject }) => subject.method === 'get',
  transform: () => {
    throw new Error('listing subjects never transforms')
  },
})

describe('listSubjects', () => {
  it('lists what each generator would run over, with what skip, include and isSupported decide', async () => {
    const parsed = await parseApi({ text })
    const listing = listSubjects({
      parsed,
      generators: [models, getters],
      settings: { skip: ['model Tag'] },
    })
    expect(listing).toEqual({
      '@test/gen-models': [
        {
          key: 'model Pet',
          kind: 'model',
          route: { kind: 'model', refName: 'Pet' },
          status: 'included',
        },
        {
          key: 'model Tag',
          kind: 'model',
          route: { kind: 'model', refName: 'Tag' },
          status: 'skipped',
        },
      ],
      '@test/gen-getters': [
        {
          key: 'GET /pets',
          kind: 'operation',
          route: { kind: 'operation', path: '/pets', method: 'get' },
          status: 'included',
        },
        {
          key: 'POST /pets',
          kind: 'operation',
          route: { kind: 'operation', path: '/pets', method: 'post' },
          status: 'notSupported',
        },
      ],
    })
    const only = listSubjects({
      parsed,
      generators: [models, getters],
      settings: { include: ['@test/gen-getters'] },
    })
    expect(only['@test/gen-models']!.map((s) => s.status)).toEqual(['skipped', 'skipped'])
  })
})
