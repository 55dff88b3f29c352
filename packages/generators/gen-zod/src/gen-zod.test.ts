import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import {
  PETSTORE,
  generateFrom as generateWith,
  typecheck,
} from '../../test-support/generated-code.js'
import { generators as typescript } from '@svc/gen-typescript'
import { generators } from './index.js'
import { loadSchemas, oneLine } from './test-support.js'

const generateFrom = (text: string) => generateWith(text, generators)

describe('@svc/gen-zod', () => {
  it('writes a schema per model of the Petstore, models it uses first', async () => {
    const text = readFileSync(PETSTORE, 'utf8')
    const { files } = await generateFrom(text)
    expect([...files.keys()]).toEqual(['zod.ts'])
    const zod = oneLine(files.get('zod.ts')!)
    expect(zod).toContain("import { z } from 'zod'")
    expect(zod).toContain(
      'export const petSchema = /* @__PURE__ */ (() => z.looseObject({ id: z.number().int().exactOptional(), category: categorySchema.exactOptional(), name: z.string(), photoUrls: z.array(z.string()), tags: z.array(tagSchema).exactOptional(), status: z.enum(["available", "pending", "sold"]).exactOptional() }))()',
    )
    expect(zod.indexOf('export const categorySchema')).toBeLessThan(
      zod.indexOf('export const petSchema'),
    )
    expect(typecheck(files)).toEqual([])
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
    expect(oneLine(files.get('zod.ts')!)).toContain(
      'export const nodeSchema: z.ZodType<Node> = /* @__PURE__ */ (() => z.looseObject({ kind: z.enum(["leaf", "branch"]).nullable(), children: z.array(z.lazy(() => nodeSchema)).exactOptional(), owner: ownerSchema.exactOptional(), meta: z.record(z.string(), z.boolean()).exactOptional() }))()',
    )
    expect(files.get('zod.ts')).toContain("import type { Node } from './types.js'")
    expect(typecheck(files)).toEqual([])
  })

  it('gives schemas whose parsed values a wrong use is rejected on', async () => {
    const { files } = await generateFrom(readFileSync(PETSTORE, 'utf8'))
    const usage = `import { petSchema } from './zod.ts'
export const name: number = petSchema.parse({}).name
`
    expect(typecheck(new Map([...files, ['usage.ts', usage]]))).toEqual([
      "usage.ts(2,14): error TS2322: Type 'string' is not assignable to type 'number'.",
    ])
  })
})

/** A 3.1 document with these component schemas and no paths. */
function documentWith(schemas: Record<string, unknown>): string {
  return JSON.stringify({
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
    paths: {},
    components: { schemas },
  })
}

/** The generated `zod.ts`, its type errors, and its schemas loaded. */
async function generateSchemas(schemas: Record<string, unknown>) {
  const { files } = await generateFrom(documentWith(schemas))
  return {
    zod: oneLine(files.get('zod.ts')!),
    errors: typecheck(files),
    schemas: await loadSchemas(files),
  }
}

describe('unknown and typed extra keys', () => {
  const schemas = {
    Labels: {
      type: 'object',
      required: ['id'],
      properties: { id: { type: 'string' } },
      additionalProperties: { type: 'string' },
    },
    Open: { type: 'object', properties: { id: { type: 'string' } } },
    Closed: {
      type: 'object',
      properties: { id: { type: 'string' } },
      additionalProperties: false,
    },
  }

  it('checks typed extra keys, keeps unspecified ones and rejects them on a closed object', async () => {
    const { zod, errors, schemas: loaded } = await generateSchemas(schemas)
    expect(zod).toContain(
      'export const labelsSchema = /* @__PURE__ */ (() => z.object({ id: z.string() }).catchall(z.string()))()',
    )
    expect(zod).toContain(
      'export const openSchema = /* @__PURE__ */ (() => z.looseObject({ id: z.string().exactOptional() }))()',
    )
    expect(zod).toContain(
      'export const closedSchema = /* @__PURE__ */ (() => z.strictObject({ id: z.string().exactOptional() }))()',
    )
    expect(errors).toEqual([])
    expect(loaded.labelsSchema!.safeParse({ id: 'a', team: 'core' }).success).toBe(true)
    expect(loaded.labelsSchema!.safeParse({ id: 'a', team: 7 }).success).toBe(false)
    expect(loaded.openSchema!.parse({ id: 'a', later: [1] })).toEqual({ id: 'a', later: [1] })
    expect(loaded.closedSchema!.safeParse({ id: 'a', later: [1] }).success).toBe(false)
  })
})

describe('3.1 tuples and const', () => {
  const schemas = {
    Pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }], items: false },
    Row: { type: 'array', prefixItems: [{ type: 'string' }], items: { type: 'boolean' } },
    Two: { const: 2 },
    Origin: { type: 'object', const: { x: 0, y: [0] } },
    Open: { type: 'array', prefixItems: [{ type: 'string' }] },
  }

  it('prints z.tuple, with .rest for the items after it, and z.literal', async () => {
    const { zod, errors, schemas: loaded } = await generateSchemas(schemas)
    expect(zod).toContain(
      'export const pairSchema = /* @__PURE__ */ (() => z.tuple([z.string(), z.number().int()]))()',
    )
    expect(zod).toContain(
      'export const rowSchema = /* @__PURE__ */ (() => z.tuple([z.string()]).rest(z.boolean()))()',
    )
    expect(zod).toContain(
      'export const openSchema = /* @__PURE__ */ (() => z.tuple([z.string()]).rest(z.unknown()))()',
    )
    expect(zod).toContain('export const twoSchema = /* @__PURE__ */ (() => z.literal(2))()')
    expect(zod).toContain(
      'export const originSchema = /* @__PURE__ */ (() => z.strictObject({ x: z.literal(0), y: z.tuple([z.literal(0)]) }))()',
    )
    expect(errors).toEqual([])
    const { pairSchema, rowSchema, twoSchema, originSchema } = loaded
    expect(pairSchema!.safeParse(['a', 1]).success).toBe(true)
    expect(pairSchema!.safeParse(['a', 1, 2]).success).toBe(false)
    expect(rowSchema!.safeParse(['a', true, false]).success).toBe(true)
    expect(rowSchema!.safeParse(['a', 'b']).success).toBe(false)
    expect(twoSchema!.safeParse(2).success).toBe(true)
    expect(twoSchema!.safeParse(3).success).toBe(false)
    expect(originSchema!.safeParse({ x: 0, y: [0] }).success).toBe(true)
    expect(originSchema!.safeParse({ x: 0, y: [1] }).success).toBe(false)
  })
})

describe('discriminated unions', () => {
  const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })
  const pet = { type: 'object', required: ['petType'], properties: { petType: { type: 'string' } } }
  const schemas = {
    Pet: {
      oneOf: [ref('Cat'), ref('Dog')],
      discriminator: { propertyName: 'petType', mapping: { cat: ref('Cat').$ref, dog: 'Dog' } },
    },
    Cat: pet,
    Dog: pet,
    // An inline member that does not fix the discriminator: zod's discriminated union cannot take it.
    MaybePet: {
      oneOf: [ref('Cat'), { type: 'object', properties: { petType: { const: 'fish' } } }],
      discriminator: { propertyName: 'petType' },
    },
    Shape: {
      type: 'object',
      required: ['kind'],
      properties: { kind: { type: 'string' } },
      discriminator: { propertyName: 'kind' },
    },
    Circle: {
      allOf: [ref('Shape'), { type: 'object', properties: { radius: { type: 'number' } } }],
    },
  }

  it('picks the member by its discriminator value', async () => {
    const { zod, errors, schemas: loaded } = await generateSchemas(schemas)
    expect(zod).toContain(
      'export const petSchema = /* @__PURE__ */ (() => z.discriminatedUnion("petType", [catSchema.extend({ petType: z.literal("cat") }), dogSchema.extend({ petType: z.literal("dog") })]))()',
    )
    expect(zod).toContain(
      'export const circleSchema = /* @__PURE__ */ (() => z.looseObject({ kind: z.literal("Circle"), radius: z.number().exactOptional() }))()',
    )
    expect(errors).toEqual([])
    const { petSchema, maybePetSchema, circleSchema } = loaded
    expect(petSchema!.safeParse({ petType: 'cat' }).success).toBe(true)
    expect(petSchema!.safeParse({ petType: 'dog' }).success).toBe(true)
    expect(petSchema!.safeParse({ petType: 'Cat' }).success).toBe(false)
    expect(maybePetSchema!.safeParse({ petType: 'Cat' }).success).toBe(true)
    expect(maybePetSchema!.safeParse({ petType: 'fish' }).success).toBe(true)
    expect(maybePetSchema!.safeParse({ petType: 'cow' }).success).toBe(false)
    expect(circleSchema!.safeParse({ kind: 'Circle', radius: 1 }).success).toBe(true)
    expect(circleSchema!.safeParse({ kind: 'Square' }).success).toBe(false)
  })

  it('falls back to a union of intersections when a member is not a plain object', async () => {
    const { zod } = await generateSchemas(schemas)
    expect(zod).toContain(
      'export const maybePetSchema = /* @__PURE__ */ (() => z.union([catSchema.extend({ petType: z.literal("Cat") }), z.looseObject({ petType: z.literal("fish").exactOptional() })]))()',
    )
  })

  it('intersects members it reaches lazily, typed like the union of the types', async () => {
    const {
      zod,
      errors,
      schemas: loaded,
    } = await generateSchemas({
      Tree: {
        oneOf: [ref('Leaf'), ref('Branch')],
        discriminator: { propertyName: 'kind', mapping: { leaf: 'Leaf', branch: 'Branch' } },
      },
      Leaf: { type: 'object', required: ['kind'], properties: { kind: { type: 'string' } } },
      Branch: {
        type: 'object',
        required: ['kind', 'children'],
        properties: { kind: { type: 'string' }, children: { type: 'array', items: ref('Tree') } },
      },
    })
    expect(zod).toContain(
      'export const treeSchema: z.ZodType<Tree> = /* @__PURE__ */ (() => z.union([leafSchema.extend({ kind: z.literal("leaf") }), z.intersection(z.lazy(() => branchSchema), z.object({ kind: z.literal("branch") }))]))()',
    )
    expect(errors).toEqual([])
    const tree = { kind: 'branch', children: [{ kind: 'leaf' }] }
    expect(loaded.treeSchema!.safeParse(tree).success).toBe(true)
    expect(
      loaded.treeSchema!.safeParse({ kind: 'branch', children: [{ kind: 'Leaf' }] }).success,
    ).toBe(false)
  })

  it('takes an inline member that fixes the discriminator to one value', async () => {
    const { zod, schemas: loaded } = await generateSchemas({
      Cat: pet,
      Animal: {
        oneOf: [
          ref('Cat'),
          { type: 'object', required: ['petType'], properties: { petType: { const: 'fish' } } },
        ],
        discriminator: { propertyName: 'petType' },
      },
    })
    expect(zod).toContain(
      'export const animalSchema = /* @__PURE__ */ (() => z.discriminatedUnion("petType", [catSchema.extend({ petType: z.literal("Cat") }), z.looseObject({ petType: z.literal("fish") })]))()',
    )
    expect(loaded.animalSchema!.safeParse({ petType: 'fish' }).success).toBe(true)
    expect(loaded.animalSchema!.safeParse({ petType: 'cow' }).success).toBe(false)
  })

  it('falls back to a union when two members take the same value', async () => {
    const { zod, schemas: loaded } = await generateSchemas({
      Cat: pet,
      Animal: {
        anyOf: [ref('Cat'), ref('Cat')],
        discriminator: { propertyName: 'petType' },
      },
    })
    expect(zod).toContain('export const animalSchema = /* @__PURE__ */ (() => z.union([')
    expect(loaded.animalSchema!.safeParse({ petType: 'Cat' }).success).toBe(true)
  })

  it('types parsed members by their value', async () => {
    const { files } = await generateFrom(documentWith(schemas))
    const usage = `import { petSchema } from './zod.ts'
const pet = petSchema.parse({})
// @ts-expect-error a parsed pet is a cat or a dog
export const cow: typeof pet.petType = 'cow'
`
    expect(typecheck(new Map([...files, ['usage.ts', usage]]))).toEqual([])
  })

  it('leaves a member that cannot carry the property (an array) untagged, in types and zod', async () => {
    // GitHub's repos/get-content: `array` maps to content-directory, a list of entries.
    const text = documentWith({
      Content: {
        oneOf: [ref('Directory'), ref('File')],
        discriminator: { propertyName: 'type', mapping: { array: 'Directory', file: 'File' } },
      },
      Directory: { type: 'array', items: ref('File') },
      File: pet,
    })
    const { files } = await generateWith(text, [...typescript, ...generators])
    expect(files.get('types.ts')).toContain(
      'export type Content = Directory | (File & { type: "file" })',
    )
    const zod = oneLine(files.get('zod.ts')!)
    expect(zod).toContain(
      'export const contentSchema = /* @__PURE__ */ (() => z.union([directorySchema, fileSchema.extend({ type: z.literal("file") })]))()',
    )
    expect(typecheck(files)).toEqual([])
    const { contentSchema } = await loadSchemas(files)
    expect(contentSchema!.safeParse([{ petType: 'x' }]).success).toBe(true)
    expect(contentSchema!.safeParse({ petType: 'x', type: 'file' }).success).toBe(true)
    expect(contentSchema!.safeParse({ petType: 'x', type: 'dir' }).success).toBe(false)
  })
})

describe('constraints and formats', () => {
  // Per schema: a value it accepts and one it rejects for the keyword alone.
  const cases: Record<string, { schema: object; valid: unknown; invalid: unknown }> = {
    MinLength: { schema: { type: 'string', minLength: 2 }, valid: 'ab', invalid: 'a' },
    MaxLength: { schema: { type: 'string', maxLength: 2 }, valid: 'ab', invalid: 'abc' },
    Pattern: {
      schema: { type: 'string', pattern: '^[a-z]+-\\d$' },
      valid: 'ab-1',
      invalid: 'ab-x',
    },
    Unanchored: { schema: { type: 'string', pattern: '\\d' }, valid: 'a1b', invalid: 'ab' },
    PlainEscape: {
      schema: { type: 'string', pattern: '^[\\w\\:]+$' },
      valid: 'a:b',
      invalid: 'a b',
    },
    Minimum: { schema: { type: 'integer', minimum: 1 }, valid: 1, invalid: 0 },
    Maximum: { schema: { type: 'number', maximum: 1.5 }, valid: 1.5, invalid: 1.6 },
    ExclusiveMinimum: { schema: { type: 'number', exclusiveMinimum: 0 }, valid: 0.1, invalid: 0 },
    ExclusiveMaximum: { schema: { type: 'integer', exclusiveMaximum: 10 }, valid: 9, invalid: 10 },
    MultipleOf: { schema: { type: 'number', multipleOf: 0.5 }, valid: 2.5, invalid: 2.2 },
    MinItems: { schema: { type: 'array', items: {}, minItems: 1 }, valid: [1], invalid: [] },
    MaxItems: { schema: { type: 'array', items: {}, maxItems: 1 }, valid: [1], invalid: [1, 2] },
    UniqueItems: {
      schema: { type: 'array', items: {}, uniqueItems: true },
      valid: [{ a: 1 }, { a: 2 }],
      invalid: [{ a: 1 }, { a: 1 }],
    },
    Email: { schema: { type: 'string', format: 'email' }, valid: 'a@b.io', invalid: 'a@' },
    Uuid: {
      schema: { type: 'string', format: 'uuid' },
      valid: '123e4567-e89b-12d3-a456-426614174000',
      invalid: '123e4567-e89b-12d3-a456',
    },
    Uri: {
      schema: { type: 'string', format: 'uri' },
      valid: 'urn:isbn:0451450523',
      invalid: 'a b',
    },
    Url: { schema: { type: 'string', format: 'url' }, valid: 'https://a.io/x', invalid: '/x' },
    DateTime: {
      schema: { type: 'string', format: 'date-time' },
      valid: '2024-01-02T03:04:05.6+02:00',
      invalid: '2024-01-02 03:04',
    },
    DateTimeUtc: {
      schema: { type: 'string', format: 'date-time' },
      valid: '2024-01-02T03:04:05Z',
      invalid: '2024-01-02T03:04:05',
    },
    Date: {
      schema: { type: 'string', format: 'date' },
      valid: '2024-02-29',
      invalid: '2023-02-29',
    },
    Ipv4: { schema: { type: 'string', format: 'ipv4' }, valid: '10.0.0.1', invalid: '10.0.0.256' },
    Ipv6: { schema: { type: 'string', format: 'ipv6' }, valid: '::1', invalid: '::g' },
    Bounded: {
      schema: { type: 'string', format: 'email', maxLength: 6 },
      valid: 'a@b.io',
      invalid: 'ab@c.io',
    },
  }
  const schemas = Object.fromEntries(
    Object.entries(cases).map(([name, { schema }]) => [name, schema]),
  )

  it('prints each check zod has', async () => {
    const { zod, errors } = await generateSchemas(schemas)
    for (const line of [
      'minLengthSchema = z.string().min(2)',
      'patternSchema = z.string().regex(new RegExp("^[a-z]+-\\\\d$", "u"))',
      'plainEscapeSchema = z.string().regex(new RegExp("^[\\\\w\\\\:]+$"))',
      'minimumSchema = z.number().int().min(1)',
      'exclusiveMinimumSchema = z.number().gt(0)',
      'exclusiveMaximumSchema = z.number().int().lt(10)',
      'multipleOfSchema = z.number().multipleOf(0.5)',
      'maxItemsSchema = z.array(z.unknown()).max(1)',
      'uniqueItemsSchema = z.array(z.unknown()).refine(',
      'emailSchema = z.email()',
      'uuidSchema = z.uuid()',
      'uriSchema = z.url()',
      'dateTimeSchema = z.iso.datetime({ offset: true })',
      'dateSchema = z.iso.date()',
      'ipv4Schema = z.ipv4()',
      'ipv6Schema = z.ipv6()',
      'boundedSchema = z.email().max(6)',
    ])
      expect(zod).toContain(`export const ${line.replace(' = ', ' = /* @__PURE__ */ (() => ')}`)
    expect(errors).toEqual([])
  })

  it.each(Object.entries(cases))(
    '%s: accepts the valid value, rejects the other',
    async (name, { valid, invalid }) => {
      const { schemas: loaded } = await generateSchemas(schemas)
      const schema = loaded[`${name[0]!.toLowerCase()}${name.slice(1)}Schema`]!
      expect(schema.safeParse(valid).success).toBe(true)
      expect(schema.safeParse(invalid).success).toBe(false)
    },
  )

  it('leaves a format zod has no check for a plain string', async () => {
    const { zod } = await generateSchemas({ Color: { type: 'string', format: 'color' } })
    expect(zod).toMatch(
      /export const colorSchema = \/\* @__PURE__ \*\/ \(\(\) => z\.string\(\)\)\(\)\s*$/,
    )
  })
})
