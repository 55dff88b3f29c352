import { describe, expect, it } from 'vitest'
import { parseApi } from '@svc/engine'
import { generate } from '@svc/engine/generate'
import { generators as typescript } from '@svc/gen-typescript'
import { typecheck } from '../../test-support/generated-code.js'
import { generators as zod } from './index.js'
import { loadSchemas } from './test-support.js'

/** `size` cannot be both a string and an integer; `name` beside it is fine. */
const text = JSON.stringify({
  openapi: '3.0.3',
  info: { title: 't', version: '1' },
  paths: {},
  components: {
    schemas: {
      Pet: {
        type: 'object',
        required: ['name'],
        properties: {
          name: { type: 'string' },
          size: { allOf: [{ type: 'string' }, { type: 'integer' }] },
        },
      },
    },
  },
})

describe('an unsatisfiable allOf on one property', () => {
  it('types that property never, reports the issue, and generates the rest', async () => {
    const parsed = await parseApi({ text })
    expect(
      parsed.parseIssues.map(({ type, level, location }) => ({ type, level, location })),
    ).toEqual([{ type: 'INVALID_SCHEMA', level: 'error', location: 'components:schemas:Pet' }])
    const { files, manifest } = generate({ parsed, generators: [...typescript, ...zod] })
    expect(manifest.results['@svc/gen-typescript']!['model Pet']!.status).toBe('success')
    expect(manifest.results['@svc/gen-zod']!['model Pet']!.status).toBe('success')
    expect(files.get('types.ts')).toMatch(/name: string;?\s+size\?: never\b/)
    expect(files.get('zod.ts')).toMatch(
      /name: z\.string\(\),\s+size: z\.never\(\)\.exactOptional\(\)/,
    )
    const usage = `import type { Pet } from './types.ts'
export const pet: Pet = { name: 'Rex' }
// @ts-expect-error no value is a valid size
export const sized: Pet = { name: 'Rex', size: 'big' }
`
    expect(typecheck(new Map([...files, ['usage.ts', usage]]))).toEqual([])
  })

  it('validates the other properties at run time, and refuses any size', async () => {
    const { files } = generate({
      parsed: await parseApi({ text }),
      generators: zod,
      importExtension: '.js',
    })
    const petSchema = (await loadSchemas(files)).petSchema!
    expect(petSchema.safeParse({ name: 'Rex' }).success).toBe(true)
    expect(petSchema.safeParse({ name: 'Rex', size: 'big' }).success).toBe(false)
    expect(petSchema.safeParse({ name: 'Rex', size: 3 }).success).toBe(false)
    expect(petSchema.safeParse({ size: 3 }).success).toBe(false)
  })
})
