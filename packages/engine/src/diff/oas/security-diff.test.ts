import { describe, expect, it } from 'vitest'
import { diff, type Doc } from './test-documents.js'

const ok = { description: 'ok' }
const key = { type: 'apiKey', name: 'X-Key', in: 'header' }

/** Two operations, `GET /a` and `GET /b`; `b` may carry a `security` of its own. */
function v3(openapi: string, security?: Doc[], own?: Doc[]): Doc {
  return {
    openapi,
    info: { title: 'Test', version: '1.0.0' },
    paths: {
      '/a': { get: { responses: { '200': ok } } },
      '/b': { get: { responses: { '200': ok }, ...(own ? { security: own } : {}) } },
    },
    components: { securitySchemes: { key } },
    ...(security ? { security } : {}),
  }
}

function v2(security?: Doc[], own?: Doc[]): Doc {
  return {
    swagger: '2.0',
    info: { title: 'Test', version: '1.0.0' },
    paths: {
      '/a': { get: { responses: { '200': ok } } },
      '/b': { get: { responses: { '200': ok }, ...(own ? { security: own } : {}) } },
    },
    securityDefinitions: { key },
    ...(security ? { security } : {}),
  }
}

async function entries(old: Doc, next: Doc) {
  const { changes, summary } = await diff(old, next)
  return {
    changes: changes.map(({ id, level, location, operations }) => ({
      id,
      level,
      location,
      operations,
    })),
    operations: summary.details.operations,
  }
}

const SHAPES = {
  '2.0': v2,
  '3.0': (security?: Doc[], own?: Doc[]) => v3('3.0.3', security, own),
  '3.1': (security?: Doc[], own?: Doc[]) => v3('3.1.0', security, own),
}

describe.each(Object.entries(SHAPES))('document-level security (OpenAPI %s)', (_, shape) => {
  it('added is one warning at /security that lists the operations inheriting it', async () => {
    expect(await entries(shape(), shape([{ key: [] }]))).toEqual({
      changes: [
        {
          id: 'api-security-added',
          level: 'warning',
          location: '/security',
          operations: ['GET /a', 'GET /b'],
        },
      ],
      operations: { added: 0, deleted: 0, modified: 2 },
    })
  })

  it('removed is one info entry, the reverse', async () => {
    expect((await entries(shape([{ key: [] }]), shape())).changes).toEqual([
      {
        id: 'api-security-removed',
        level: 'info',
        location: '/security',
        operations: ['GET /a', 'GET /b'],
      },
    ])
  })

  it('leaves out an operation with a security of its own, which the change does not reach', async () => {
    const { changes, operations } = await entries(shape([], []), shape([{ key: [] }], []))
    expect(changes).toEqual([
      { id: 'api-security-added', level: 'warning', location: '/security', operations: ['GET /a'] },
    ])
    expect(operations).toEqual({ added: 0, deleted: 0, modified: 1 })
  })

  it('is reported by the operation that stops inheriting it, as that operation’s own change', async () => {
    expect((await entries(shape([{ key: [] }], []), shape([{ key: [] }]))).changes).toEqual([
      {
        id: 'endpoint-security-added',
        level: 'breaking',
        location: '/paths/~1b/get/security',
        operations: undefined,
      },
    ])
  })

  it('reaching no operation (each has its own) is no change', async () => {
    const own = (security?: Doc[]) => {
      const doc = shape(security, [])
      const paths = doc.paths as Record<string, { get: Doc }>
      paths['/a']!.get.security = []
      return doc
    }
    expect((await entries(own(), own([{ key: [] }]))).changes).toEqual([])
  })
})

describe('a security requirement added by an operation itself', () => {
  it('stays endpoint-security-added, breaking: the operation chose to require it', async () => {
    const shape = SHAPES['3.1']
    expect((await entries(shape(), shape(undefined, [{ key: [] }]))).changes).toEqual([
      {
        id: 'endpoint-security-added',
        level: 'breaking',
        location: '/paths/~1b/get/security',
        operations: undefined,
      },
    ])
  })
})
