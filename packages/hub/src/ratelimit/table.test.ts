import { readFileSync } from 'node:fs'
import pino from 'pino'
import { describe, expect, it } from 'vitest'
import { createApp } from '../app.js'
import type { HubServices } from '../http/env.js'
import { DEFAULT_RATE_LIMITS, declaredPath, defaultLimit, routeKey } from './table.js'

const docs = readFileSync(new URL('../../../../docs/api/rate-limits.md', import.meta.url), 'utf8')

/** Rows of the table that name routes other parts of the hub serve (or will). */
const SERVED_ELSEWHERE = new Set(['GET /v1/rate-limits', 'POST /v1/libraries'])

/** The `/v1` routes of the app, as `METHOD /path` with `{name}` parameters. */
function appRoutes(): string[] {
  // The services are only reached while answering requests; listing routes needs none.
  const app = createApp({} as HubServices, pino({ enabled: false }))
  const keys = app.routes
    .filter((r) => r.method !== 'ALL' && r.path.startsWith('/v1/') && !r.path.endsWith('*'))
    .map((r) => routeKey({ method: r.method, path: declaredPath(r.path) }))
  return [...new Set(keys)]
}

/** The rows of the table under `## Default limits` in docs/api/rate-limits.md. */
function documentedRows(markdown: string) {
  const lines = markdown.split('\n')
  const start = lines.findIndex((line) => line.trim() === '## Default limits')
  if (start < 0) throw new Error('docs/api/rate-limits.md has no "## Default limits" section')
  const rows = []
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith('## ')) break
    const match = /^\| `([A-Z]+)` \| `([^`]+)` \| ([\d,]+) \| ([\d,]+) s \|/.exec(line)
    if (!match) continue
    const [, method, path, max, window] = match as unknown as string[]
    rows.push({
      method,
      path,
      max: Number(max!.replace(/,/g, '')),
      windowSeconds: Number(window!.replace(/,/g, '')),
    })
  }
  return rows
}

describe('the default rate-limit table', () => {
  it('has a row for every /v1 route of the app', () => {
    const missing = appRoutes().filter((key) => {
      const [method, path] = key.split(' ') as [string, string]
      return defaultLimit(method, path) === undefined
    })
    expect(missing).toEqual([])
  })

  it('has no row for a route the app does not have (but those served elsewhere)', () => {
    const routes = new Set(appRoutes())
    const stray = DEFAULT_RATE_LIMITS.map(routeKey).filter(
      (key) => !routes.has(key) && !SERVED_ELSEWHERE.has(key),
    )
    expect(stray).toEqual([])
  })

  it('has one row per route, each a sensible limit', () => {
    const keys = DEFAULT_RATE_LIMITS.map(routeKey)
    expect(keys.filter((key, i) => keys.indexOf(key) !== i)).toEqual([])
    for (const row of DEFAULT_RATE_LIMITS) {
      expect(row.max, routeKey(row)).toBeGreaterThan(0)
      expect(row.windowSeconds, routeKey(row)).toBeGreaterThan(0)
    }
    expect(defaultLimit('GET', '/v1/rate-limits')).toMatchObject({ max: 20, windowSeconds: 60 })
  })

  it('is the table docs/api/rate-limits.md shows', () => {
    expect(documentedRows(docs)).toEqual(DEFAULT_RATE_LIMITS.map((row) => ({ ...row })))
  })

  it('names a route as it was declared', () => {
    expect(declaredPath('/v1/apis/:owner/:slug/revisions')).toBe(
      '/v1/apis/{owner}/{slug}/revisions',
    )
    expect(declaredPath('/v1/stacks/:account/:slug/versions/:version/files/:path{.+}')).toBe(
      '/v1/stacks/{account}/{slug}/versions/{version}/files/{path}',
    )
  })
})
