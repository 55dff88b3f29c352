import { parseApi, type ParseApiOptions } from './parse-api.js'
import type { ParseIssue } from './issues/index.js'
import type { OasModel, GqlModel } from './model/api-model.js'

/** Parses an inline OpenAPI document (3.0.3 unless it says otherwise) for a test. */
export async function parseOasDoc(
  document: Record<string, unknown>,
  options: ParseApiOptions = {},
) {
  const text = JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'test', version: '1' },
    paths: {},
    ...document,
  })
  const result = await parseApi({ text }, options)
  return { ...result, model: result.model as OasModel }
}

/** Parses inline GraphQL SDL for a test. */
export async function parseSdl(sdl: string) {
  const result = await parseApi({ text: sdl })
  return { ...result, model: result.model as GqlModel }
}

/** Issues reduced to what most tests assert. */
export function brief(issues: readonly ParseIssue[]) {
  return issues.map(({ type, level, location }) => ({ type, level, location }))
}
