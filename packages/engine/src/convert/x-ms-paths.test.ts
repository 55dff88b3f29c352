import { describe, expect, it } from 'vitest'
import { diffDocuments } from '../diff/diff-documents.js'
import { toV3Json } from './to-v3-json.js'

const GET = { operationId: 'Vaults_Get', responses: { '200': { description: 'ok' } } }
const PURGE = { operationId: 'Vaults_Purge', responses: { '202': { description: 'accepted' } } }

function swagger(paths: Record<string, unknown>, xMsPaths?: Record<string, unknown>): string {
  return JSON.stringify({
    swagger: '2.0',
    info: { title: 'Vaults', version: '1' },
    paths,
    ...(xMsPaths ? { 'x-ms-paths': xMsPaths } : {}),
  })
}

describe('x-ms-paths in a Swagger 2.0 document', () => {
  it('are endpoints of the converted document', async () => {
    const { schema } = await toV3Json({
      text: swagger({ '/vaults': { get: GET } }, { '/vaults?op=purge': { post: PURGE } }),
    })
    const converted = schema as { paths: Record<string, any> }
    expect(Object.keys(converted.paths)).toEqual(['/vaults', '/vaults?op=purge'])
    expect(converted.paths['/vaults?op=purge'].post.operationId).toBe('Vaults_Purge')
    expect(converted).not.toHaveProperty('x-ms-paths')
  })

  it('keep what paths holds, and leave out a key without a leading slash', async () => {
    const { schema } = await toV3Json({
      text: swagger({ '/vaults': { get: GET } }, { '/vaults': { post: PURGE }, '?op=x': {} }),
    })
    const converted = schema as { paths: Record<string, any> }
    expect(Object.keys(converted.paths)).toEqual(['/vaults'])
    expect(converted.paths['/vaults'].post).toBeUndefined()
  })

  it('an operation moved from paths into x-ms-paths is no change', async () => {
    const before = swagger({ '/vaults': { get: GET }, '/vaults/purge': { post: PURGE } })
    const after = swagger({ '/vaults': { get: GET } }, { '/vaults/purge': { post: PURGE } })
    const changelog = await diffDocuments({ text: before }, { text: after })
    expect(changelog.changes).toEqual([])
  })

  it('an operation removed from x-ms-paths is a removed endpoint', async () => {
    const before = swagger({ '/vaults': { get: GET } }, { '/vaults?op=purge': { post: PURGE } })
    const after = swagger({ '/vaults': { get: GET } })
    const changelog = await diffDocuments({ text: before }, { text: after })
    expect(changelog.changes.map((change) => [change.id, change.level])).toEqual([
      ['endpoint-removed', 'breaking'],
    ])
  })
})
