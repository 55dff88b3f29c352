import { describe, expect, it } from 'vitest'
import { groupChanges, type GroupableChange } from './change-groups.js'
import { diffDocuments } from './diff-documents.js'

const outline = (changes: readonly GroupableChange[]) =>
  groupChanges(changes).map((group) => ({
    kind: group.kind,
    title: group.title,
    level: group.level,
    paths: group.entries.map((entry) => entry.path),
  }))

describe('groupChanges', () => {
  it('endpoints first (worst first, then by name), then components, then the document', () => {
    const changes: GroupableChange[] = [
      {
        level: 'breaking',
        location: '/paths/~1pets/get/parameters/query/a',
        operation: 'GET /pets',
      },
      { level: 'breaking', location: '/components/schemas/Pet/properties/name' },
      { level: 'warning', location: '/paths/~1a/get', operation: 'GET /a' },
      {
        level: 'info',
        location:
          '/paths/~1pets~1{id}/get/responses/200/content/application~1json/schema/properties/owner',
        operation: 'GET /pets/{id}',
      },
      { level: 'info', location: '/servers/0' },
      { level: 'info', location: '/paths/~1pets/get/responses/201', operation: 'GET /pets' },
      { level: 'info', location: '/components/schemas/Owner' },
      { level: 'info', location: '' },
    ]
    expect(outline(changes)).toEqual([
      {
        kind: 'endpoint',
        title: 'GET /pets',
        level: 'breaking',
        paths: ['query parameter a', 'response 201'],
      },
      { kind: 'endpoint', title: 'GET /a', level: 'warning', paths: [''] },
      {
        kind: 'endpoint',
        title: 'GET /pets/{id}',
        level: 'info',
        paths: ['response 200 › body.owner'],
      },
      {
        kind: 'component',
        title: 'components › schemas › Pet',
        level: 'breaking',
        paths: ['name'],
      },
      { kind: 'component', title: 'components › schemas › Owner', level: 'info', paths: [''] },
      { kind: 'document', title: '', level: 'info', paths: ['servers › 0', ''] },
    ])
  })

  it('puts the worst change of a group first', () => {
    const groups = groupChanges([
      { level: 'info', location: '/paths/~1a/get/responses/201', operation: 'GET /a' },
      { level: 'breaking', location: '/paths/~1a/get/responses/200', operation: 'GET /a' },
    ])
    expect(groups[0]!.entries.map((entry) => entry.path)).toEqual(['response 200', 'response 201'])
  })

  it('groups GraphQL changes by type or directive', () => {
    expect(
      outline([
        { level: 'breaking', location: 'Query.user(id:)' },
        { level: 'info', location: 'Query' },
        { level: 'breaking', location: '@auth(role:)' },
        { level: 'info', location: 'Role.ADMIN' },
      ]),
    ).toEqual([
      { kind: 'type', title: '@auth', level: 'breaking', paths: ['(role:)'] },
      { kind: 'type', title: 'Query', level: 'breaking', paths: ['user(id:)', ''] },
      { kind: 'type', title: 'Role', level: 'info', paths: ['ADMIN'] },
    ])
  })

  it('groups a real changelog by endpoint, with each change’s path below it', async () => {
    const document = (email: boolean, limit: boolean) =>
      JSON.stringify({
        openapi: '3.0.3',
        info: { title: 't', version: '1' },
        paths: {
          '/pets/{petId}': {
            get: {
              parameters: [
                { name: 'petId', in: 'path', required: true, schema: { type: 'string' } },
                ...(limit ? [{ name: 'limit', in: 'query', schema: { type: 'integer' } }] : []),
              ],
              responses: {
                '200': {
                  description: 'ok',
                  content: {
                    'application/json': {
                      schema: {
                        type: 'object',
                        properties: {
                          owner: {
                            type: 'object',
                            required: email ? ['email'] : [],
                            properties: email ? { email: { type: 'string' } } : {},
                          },
                        },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      })
    const changelog = await diffDocuments(
      { text: document(true, false), origin: 'old.json' },
      { text: document(false, true), origin: 'new.json' },
    )
    const [group] = groupChanges(changelog.changes)
    expect(group?.title).toBe('GET /pets/{petId}')
    expect(group?.entries.map((entry) => entry.path).sort()).toEqual([
      'query parameter limit',
      'response 200 › body.owner.email',
    ])
    expect(changelog.changes.map((change) => change.path).sort()).toEqual([
      'GET /pets/{petId} › query parameter limit',
      'GET /pets/{petId} › response 200 › body.owner.email',
    ])
  })
})
