import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parseApi } from '@svc/engine'
import { generate } from '@svc/engine/generate'
import { fetchClientEntry } from '@svc/gen-fetch-client'
import { typescriptEntry } from '@svc/gen-typescript'
import { zodEntry } from '@svc/gen-zod'
import { describe, expect, it } from 'vitest'

/**
 * What the generators write for real documents, pinned before they were made faster: a digest of
 * every file and of the manifest's results and render outcomes. Speed work must not change a byte;
 * a deliberate change to the output updates the digests here in the same commit.
 */
const root = resolve(import.meta.dirname, '../../..')

/** Document under node_modules → [files, lines, digest]. */
const EXPECTED: Record<string, [number, number, string]> = {
  '@octokit/openapi/generated/api.github.com.json': [3, 163908, 'b90ea937af01022c'],
  '@readme/oas-examples/3.0/json/petstore-expanded.json': [3, 427, '4ee3120f6b08b0ac'],
  '@readme/oas-examples/3.0/json/complex-nesting.json': [3, 620, 'd8c0bdc3862d964f'],
  '@readme/oas-examples/3.0/json/schema-circular.json': [3, 685, 'c902d9aaeaa1d634'],
  '@readme/oas-examples/3.0/json/circular.json': [3, 382, 'f7108a1b8f2f9e15'],
  '@readme/oas-examples/3.0/json/discriminators.json': [3, 997, '8faeb6f93cac2569'],
  '@readme/oas-examples/3.0/json/polymorphism.json': [3, 800, '9f69a8588846dc25'],
  '@readme/oas-examples/3.0/json/schema-additional-properties.json': [3, 439, '0951f9632ad026a5'],
  '@readme/oas-examples/3.1/json/readme.json': [2, 5748, '28ddf2659347b3c8'],
  '@readme/oas-examples/3.1/json/schema-types.json': [3, 1066, '7b34cbfde9ae3fef'],
}

describe('generated output on real documents', () => {
  it.each(Object.entries(EXPECTED))(
    '%s',
    async (name, expected) => {
      const path = join(root, 'node_modules', name)
      const parsed = await parseApi({ text: readFileSync(path, 'utf8'), origin: path })
      const { files, manifest } = generate({
        parsed,
        generators: [typescriptEntry, zodEntry, fetchClientEntry],
      })
      const hash = createHash('sha256')
      let lines = 0
      for (const [file, content] of files) {
        hash.update(`${file}\n${content}\n`)
        lines += content.split('\n').length
      }
      hash.update(JSON.stringify([manifest.results, manifest.render, manifest.enrichmentWarnings]))
      expect([files.size, lines, hash.digest('hex').slice(0, 16)]).toEqual(expected)
    },
    120_000,
  )
})
