import { readFileSync } from 'node:fs'
import { fetchClientEntry } from '@svc/gen-fetch-client'
import { typescriptEntry } from '@svc/gen-typescript'
import { zodEntry } from '@svc/gen-zod'
import { describe, expect, it } from 'vitest'
import { GITHUB_REST, generateFrom, typecheck } from '../test-support/generated-code.js'

/**
 * GitHub's REST description, the largest input the generators meet: generated once with every
 * generator of an OpenAPI description, and type-checked as one program.
 */
describe("GitHub's REST description", () => {
  it('gives types, schemas and a client for every item, which compile with --strict', async () => {
    const generators = [typescriptEntry, zodEntry, fetchClientEntry]
    const { files, manifest } = await generateFrom(readFileSync(GITHUB_REST, 'utf8'), generators)
    expect([...files.keys()]).toEqual(['client.ts', 'types.ts', 'zod.ts'])
    const count = (id: string) => Object.keys(manifest.results[id]!).length
    expect(count(typescriptEntry.id)).toBeGreaterThan(900)
    expect(count(zodEntry.id)).toBeGreaterThan(900)
    expect(count(fetchClientEntry.id)).toBeGreaterThan(1000)
    const failed = generators.flatMap(({ id }) =>
      Object.entries(manifest.results[id]!).filter(([, result]) => result.status !== 'success'),
    )
    expect(failed).toEqual([])
    const client = files.get('client.ts')!
    expect(client).toContain('export function reposGetContent(')
    expect(client).toContain('export function metaRoot(')
    expect(typecheck(files)).toEqual([])
  }, 120_000)
})
