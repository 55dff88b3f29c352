import { describe, expect, it } from 'vitest'
import { parseApi } from '../parse-api.js'
import { brief } from '../test-support.js'

const info = { title: 'Items', version: '1' }
const paths = {
  '/items': {
    get: { operationId: 'list' },
    post: { responses: { '201': { description: 'made' } } },
  },
}

async function issues(document: Record<string, unknown>) {
  const text = `${JSON.stringify(document, null, 2)}\n`
  const { parseIssues, model } = await parseApi({ text })
  return { parseIssues, model }
}

describe('an operation without responses', () => {
  it.each([
    ['2.0', { swagger: '2.0', info, paths }],
    ['3.0', { openapi: '3.0.3', info, paths }],
  ])('is a warning in %s, located at the operation, which is kept', async (_, document) => {
    const { parseIssues, model } = await issues(document)
    expect(brief(parseIssues)).toEqual([
      { type: 'MISSING_RESPONSES', level: 'warning', location: 'paths:/items:get' },
    ])
    expect(parseIssues[0]!.message).toBe(
      'The operation GET /items has no "responses"; OpenAPI 2.0 and 3.0 require them.',
    )
    expect(parseIssues[0]).toMatchObject({ line: 9, column: 7 })
    if (model.protocol !== 'oas') throw new Error('not OpenAPI')
    expect(model.operations.map((operation) => operation.method)).toEqual(['get', 'post'])
  })

  it('is fine in 3.1, which made responses optional', async () => {
    const { parseIssues } = await issues({ openapi: '3.1.0', info, paths })
    expect(parseIssues).toEqual([])
  })
})
