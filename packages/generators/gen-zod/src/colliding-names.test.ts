import { describe, expect, it } from 'vitest'
import { generators as typescript } from '@svc/gen-typescript'
import { generateFrom, typecheck } from '../../test-support/generated-code.js'
import { oneLine } from './test-support.js'
import { generators as zod } from './index.js'

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })

/** Three schemas whose names all give `PetOwner`, each with its own shape, and a user of all three. */
const document = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    openapi: '3.0.3',
    info: { title: 't', version: '1' },
    paths: {},
    components: {
      schemas: {
        ...extra,
        'pet.owner': { type: 'object', required: ['a'], properties: { a: { type: 'string' } } },
        'Pet Owner': { type: 'object', required: ['b'], properties: { b: { type: 'integer' } } },
        petOwner: { type: 'object', required: ['c'], properties: { c: { type: 'boolean' } } },
        Pet: {
          type: 'object',
          properties: { one: ref('pet.owner'), two: ref('Pet Owner'), three: ref('petOwner') },
        },
      },
    },
  })

/** The names a generated file exports, in order. */
const exported = (code: string) =>
  [...code.matchAll(/^export (?:type|const) (\w+)/gm)].map((match) => match[1])

describe('colliding schema names', () => {
  it('gives each schema its own type and schema name instead of a definition mismatch', async () => {
    const { files, manifest } = await generateFrom(document(), [...typescript, ...zod])
    for (const results of Object.values(manifest.results))
      for (const result of Object.values(results)) expect(result.status).toBe('success')
    const types = files.get('types.ts')!
    expect(exported(types)).toEqual(['PetOwner', 'PetOwner2', 'PetOwner3', 'Pet'])
    expect(types).toMatch(/one\?: PetOwner;?\s+two\?: PetOwner2;?\s+three\?: PetOwner3\b/)
    const schemas = oneLine(files.get('zod.ts')!)
    expect(exported(schemas)).toEqual([
      'petOwnerSchema',
      'petOwner2Schema',
      'petOwner3Schema',
      'petSchema',
    ])
    expect(schemas).toMatch(
      /one: petOwnerSchema\.exactOptional\(\),\s+two: petOwner2Schema\.exactOptional\(\),\s+three: petOwner3Schema\.exactOptional\(\)/,
    )
    // What each name stands for, whatever the layout: 'pet.owner' has a, 'Pet Owner' b, petOwner c.
    const usage = `import type { Pet, PetOwner, PetOwner2, PetOwner3 } from './types.ts'
import { petOwnerSchema, petOwner2Schema, petOwner3Schema } from './zod.ts'
export const one: PetOwner = { a: 'x' }
export const two: PetOwner2 = { b: 1 }
export const three: PetOwner3 = { c: true }
export const pet: Pet = { one, two, three }
export const parsed: [string, number, boolean] = [
  petOwnerSchema.parse(one).a,
  petOwner2Schema.parse(two).b,
  petOwner3Schema.parse(three).c,
]
// @ts-expect-error PetOwner2 is the 'Pet Owner' schema, not 'pet.owner'
export const wrong: PetOwner2 = { a: 'x' }
// @ts-expect-error Pet.two is a PetOwner2
export const swapped: Pet = { two: one }
`
    expect(typecheck(new Map([...files, ['usage.ts', usage]]))).toEqual([])
  })

  it('keeps the names when a schema that collides with nothing is added first', async () => {
    const before = await generateFrom(document(), [...typescript])
    const after = await generateFrom(document({ Address: { type: 'string' } }), [...typescript])
    const types = after.files.get('types.ts')!
    expect(exported(types)).toEqual(['Address', 'PetOwner', 'PetOwner2', 'PetOwner3', 'Pet'])
    const withoutAddress = types
      .split('\n\n')
      .filter((block) => !block.startsWith('export type Address'))
      .join('\n\n')
    expect(withoutAddress).toBe(before.files.get('types.ts'))
  })

  it('gives a write view a counter when a schema already has its name', async () => {
    const account = {
      type: 'object',
      required: ['id'],
      properties: { id: { type: 'string', readOnly: true }, name: { type: 'string' } },
    }
    const text = JSON.stringify({
      openapi: '3.0.3',
      info: { title: 't', version: '1' },
      paths: {},
      components: {
        schemas: { AccountWritable: { type: 'boolean' }, Account: account },
      },
    })
    const { files } = await generateFrom(text, [...typescript, ...zod])
    expect(exported(files.get('types.ts')!)).toEqual([
      'AccountWritable',
      'Account',
      'AccountWritable2',
    ])
    expect(exported(files.get('zod.ts')!)).toEqual([
      'accountWritableSchema',
      'accountSchema',
      'accountWritable2Schema',
    ])
  })
})
