import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseApi } from '@svc/engine'
import { generate } from '@svc/engine/generate'
import { afterAll, describe, expect, it } from 'vitest'
import { generators } from './index.js'

const require = createRequire(import.meta.url)
const tsc = require.resolve('typescript/bin/tsc')
const examples = dirname(require.resolve('@readme/oas-examples/package.json'))
const github = join(
  dirname(require.resolve('@octokit/openapi/package.json')),
  'generated/api.github.com.json',
)
// Inside the workspace, so that the generated files resolve the `zod` it has installed.
const scratch = fileURLToPath(
  new URL('../../../../node_modules/.cache/svc-gen-zod/', import.meta.url),
)
const folders: string[] = []
afterAll(() => folders.forEach((folder) => rmSync(folder, { recursive: true, force: true })))

async function generateFrom(text: string) {
  const parsed = await parseApi({ text })
  return generate({ parsed, generators })
}

/** Writes the files to an empty folder and type-checks them with `tsc --noEmit --strict`. */
function typecheck(files: ReadonlyMap<string, string>) {
  mkdirSync(scratch, { recursive: true })
  const folder = mkdtempSync(scratch)
  folders.push(folder)
  for (const [path, content] of files) writeFileSync(join(folder, path), content)
  const run = spawnSync(
    process.execPath,
    [
      tsc,
      '--noEmit',
      '--strict',
      '--target',
      'ES2022',
      '--module',
      'NodeNext',
      '--allowImportingTsExtensions',
      ...files.keys(),
    ],
    { cwd: folder, encoding: 'utf8' },
  )
  return { status: run.status, output: `${run.stdout}${run.stderr}` }
}

describe('@svc/gen-zod', () => {
  it('writes a schema per model of the Petstore, models it uses first', async () => {
    const text = readFileSync(join(examples, '3.0/json/petstore.json'), 'utf8')
    const { files } = await generateFrom(text)
    expect([...files.keys()]).toEqual(['zod.ts'])
    const zod = files.get('zod.ts')!
    expect(zod).toContain("import { z } from 'zod'")
    expect(zod).toContain(
      'export const petSchema = z.object({ id: z.number().int().optional(), category: categorySchema.optional(), name: z.string(), photoUrls: z.array(z.string()), tags: z.array(tagSchema).optional(), status: z.enum(["available", "pending", "sold"]).optional() })',
    )
    expect(zod.indexOf('export const categorySchema')).toBeLessThan(
      zod.indexOf('export const petSchema'),
    )
    expect(typecheck(files)).toEqual({ status: 0, output: '' })
  })

  it('reaches recursive models through z.lazy, typed by their TypeScript type', async () => {
    const text = JSON.stringify({
      openapi: '3.0.3',
      info: { title: 't', version: '1' },
      paths: {},
      components: {
        schemas: {
          Node: {
            type: 'object',
            required: ['kind'],
            properties: {
              kind: { type: 'string', enum: ['leaf', 'branch', null], nullable: true },
              children: { type: 'array', items: { $ref: '#/components/schemas/Node' } },
              owner: { $ref: '#/components/schemas/Owner' },
              meta: { type: 'object', additionalProperties: { type: 'boolean' } },
            },
          },
          Owner: { type: 'object', properties: { name: { type: 'string' } } },
        },
      },
    })
    const { files } = await generateFrom(text)
    expect(files.get('zod.ts')).toContain(
      'export const nodeSchema: z.ZodType<Node> = z.object({ kind: z.enum(["leaf", "branch"]).nullable(), children: z.array(z.lazy(() => nodeSchema)).optional(), owner: ownerSchema.optional(), meta: z.record(z.string(), z.boolean()).optional() })',
    )
    expect(files.get('zod.ts')).toContain("import type { Node } from './types.ts'")
    expect(typecheck(files)).toEqual({ status: 0, output: '' })
  })

  it("gives GitHub's REST description schemas that compile with --strict", async () => {
    const { files, manifest } = await generateFrom(readFileSync(github, 'utf8'))
    const results = Object.values(manifest.results['@svc/gen-zod']!)
    expect(results.length).toBeGreaterThan(900)
    expect(results.filter((result) => result.status !== 'success')).toEqual([])
    expect(typecheck(files)).toEqual({ status: 0, output: '' })
  }, 180_000)
})
