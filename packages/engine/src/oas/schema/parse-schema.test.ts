import { describe, expect, it } from 'vitest'
import { parseApi } from '../../parse-api.js'
import { brief, parseOasDoc } from '../../test-support.js'

const schemas = (entries: Record<string, unknown>, openapi = '3.0.3') =>
  parseOasDoc({ openapi, components: { schemas: entries } })

describe('an unsatisfiable allOf: reported as its unit failing, but only it is never', () => {
  it('types a component whose members conflict never, with INVALID_SCHEMA at the component', async () => {
    const { parseIssues, model } = await schemas({
      Bad: { description: 'Both', allOf: [{ type: 'string' }, { type: 'integer' }] },
      Good: { type: 'string' },
    })
    expect(brief(parseIssues)).toEqual([
      { type: 'INVALID_SCHEMA', level: 'error', location: 'components:schemas:Bad' },
    ])
    expect(parseIssues[0]!.message).toMatch(/conflicting types 'string' and 'integer'/)
    expect(parseIssues[0]!.cause).toMatch(/conflicting types/)
    expect(model.components.schemas.Bad).toEqual({
      kind: 'void',
      nullable: false,
      description: 'Both',
    })
    expect(Object.keys(model.components.schemas)).toEqual(['Bad', 'Good'])
  })

  it('types only the clashing property never when neither member requires it', async () => {
    const { parseIssues, model } = await schemas({
      Base: {
        type: 'object',
        properties: { id: { type: 'string', description: 'Key' }, name: { type: 'string' } },
      },
      Bad: {
        allOf: [
          { $ref: '#/components/schemas/Base' },
          { type: 'object', properties: { id: { type: 'integer' }, age: { type: 'integer' } } },
        ],
      },
    })
    expect(brief(parseIssues)).toEqual([
      { type: 'INVALID_SCHEMA', level: 'error', location: 'components:schemas:Bad' },
    ])
    expect(parseIssues[0]!.message).toBe(
      "Cannot merge schemas: conflicting types 'string' and 'integer' in property 'id' " +
        '(at components:schemas:Bad:allOf:1).',
    )
    expect(model.components.schemas.Bad).toMatchObject({
      kind: 'object',
      properties: {
        id: { kind: 'void', description: 'Key' },
        name: { kind: 'string' },
        age: { kind: 'integer' },
      },
    })
    expect(model.components.schemas.Base?.kind).toBe('object')
  })

  it('names the whole path of a clash in a nested optional property', async () => {
    const owner = (type: string) => ({
      type: 'object',
      required: ['owner'],
      properties: { owner: { type: 'object', properties: { name: { type } } } },
    })
    const { parseIssues, model } = await schemas({
      Bad: { allOf: [owner('string'), owner('boolean')] },
    })
    expect(parseIssues[0]!.message).toContain("in property 'owner.name'")
    expect(model.components.schemas.Bad).toMatchObject({
      kind: 'object',
      properties: { owner: { kind: 'object', properties: { name: { kind: 'void' } } } },
    })
  })

  it('types the whole schema never when the clashing property is required', async () => {
    const { parseIssues, model } = await schemas({
      Bad: {
        allOf: [
          { type: 'object', required: ['id'], properties: { id: { type: 'string' } } },
          { type: 'object', properties: { id: { type: 'integer' } } },
        ],
      },
    })
    expect(parseIssues[0]!.message).toContain("in property 'id'")
    expect(model.components.schemas.Bad?.kind).toBe('void')
  })

  it('still drops a union member whose optional property clashes, silently, as before', async () => {
    const kind = (value: string) => ({
      type: 'object',
      properties: { kind: { type: 'string', enum: [value] } },
    })
    const { parseIssues, model } = await schemas({
      Cat: { allOf: [{ oneOf: [kind('cat'), kind('dog')] }, kind('cat')] },
    })
    expect(parseIssues).toEqual([])
    expect(model.components.schemas.Cat).toMatchObject({
      kind: 'object',
      properties: { kind: { kind: 'string', enum: ['cat'] } },
    })
  })

  it('keeps the operation and its other properties when one property cannot be satisfied', async () => {
    const { parseIssues, model } = await parseOasDoc({
      paths: {
        '/pets': {
          post: {
            requestBody: {
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    required: ['name'],
                    properties: {
                      name: { type: 'string' },
                      size: { allOf: [{ type: 'string' }, { type: 'integer' }] },
                    },
                  },
                },
              },
            },
            responses: { '204': { description: 'ok' } },
          },
        },
      },
    })
    expect(brief(parseIssues)).toEqual([
      { type: 'INVALID_OPERATION', level: 'error', location: 'paths:/pets:post' },
    ])
    expect(parseIssues[0]!.message).toBe(
      "Cannot merge schemas: conflicting types 'string' and 'integer' (at " +
        'paths:/pets:post:requestBody:content:application/json:schema:properties:size:allOf:1).',
    )
    expect(model.operations[0]?.requestBody).toMatchObject({
      content: {
        'application/json': {
          schema: {
            kind: 'object',
            properties: { name: { kind: 'string' }, size: { kind: 'void' } },
          },
        },
      },
    })
  })

  it('still fails the unit when the allOf is too large to merge, which is no contradiction', async () => {
    const union = (prefix: string) => ({
      oneOf: Array.from({ length: 17 }, (_, i) => ({
        type: 'object',
        properties: { [`${prefix}${i}`]: { type: 'string' } },
      })),
    })
    const { parseIssues, model } = await schemas({ Big: { allOf: [union('a'), union('b')] } })
    expect(brief(parseIssues)).toEqual([
      { type: 'INVALID_SCHEMA', level: 'error', location: 'components:schemas:Big' },
    ])
    expect(parseIssues[0]!.message).toMatch(/expands to more than 256 members/)
    expect(model.components.schemas).toEqual({})
  })
})

describe('INVALID_SCHEMA (error): the schema component is dropped', () => {
  it.each(['oneOf', 'anyOf'])('fires on an empty %s', async (keyword) => {
    const { parseIssues, model } = await schemas({ Bad: { [keyword]: [] } })
    expect(brief(parseIssues)).toEqual([
      { type: 'INVALID_SCHEMA', level: 'error', location: 'components:schemas:Bad' },
    ])
    expect(parseIssues[0]!.message).toBe(`"${keyword}" array is empty.`)
    expect(model.components.schemas).toEqual({})
  })

  it('fires on a cycle in allOf, for every schema on the cycle, without looping', async () => {
    const { parseIssues, model } = await schemas({
      A: {
        allOf: [
          { $ref: '#/components/schemas/B' },
          { type: 'object', properties: { a: { type: 'string' } } },
        ],
      },
      B: {
        allOf: [
          { $ref: '#/components/schemas/A' },
          { type: 'object', properties: { b: { type: 'string' } } },
        ],
      },
    })
    expect(brief(parseIssues)).toEqual([
      { type: 'INVALID_SCHEMA', level: 'error', location: 'components:schemas:B' },
      { type: 'INVALID_SCHEMA', level: 'error', location: 'components:schemas:A' },
    ])
    for (const issue of parseIssues) expect(issue.message).toMatch(/^Cyclic allOf: A -> B -> A/)
    expect(model.components.schemas).toEqual({})
  })

  it('fires on a wrongly typed keyword and on an unknown type', async () => {
    const { parseIssues } = await schemas({
      A: { type: 'string', maxLength: 'ten' },
      B: { type: 'file' },
    })
    expect(brief(parseIssues)).toEqual([
      { type: 'INVALID_SCHEMA', level: 'error', location: 'components:schemas:A' },
      { type: 'INVALID_SCHEMA', level: 'error', location: 'components:schemas:B' },
    ])
    expect(parseIssues[0]!.message).toBe(
      '"maxLength" must be a non-negative integer, got the string "ten".',
    )
    expect(parseIssues[1]!.message).toBe('Unknown type "file".')
  })
})

describe('INVALID_SCHEMA (warning): an array without items', () => {
  it('keeps the schema with items of unknown values', async () => {
    const { parseIssues, model } = await schemas({ Tags: { type: 'array' } })
    expect(brief(parseIssues)).toEqual([
      { type: 'INVALID_SCHEMA', level: 'warning', location: 'components:schemas:Tags' },
    ])
    expect(parseIssues[0]!.cause).toBeUndefined()
    expect(model.components.schemas.Tags).toEqual({
      kind: 'array',
      nullable: false,
      items: { kind: 'unknown', nullable: true },
    })
  })
})

describe('missing types are inferred', () => {
  it('MISSING_OBJECT_TYPE (debug) in 3.0 for properties without type: object', async () => {
    const { parseIssues, model } = await schemas({
      User: { properties: { id: { type: 'integer' } } },
    })
    expect(brief(parseIssues)).toEqual([
      { type: 'MISSING_OBJECT_TYPE', level: 'debug', location: 'components:schemas:User' },
    ])
    expect(model.components.schemas.User).toMatchObject({
      kind: 'object',
      properties: { id: { kind: 'integer' } },
    })
  })

  it('is silent about a missing object type in 3.1', async () => {
    const { parseIssues, model } = await schemas(
      { User: { properties: { id: { type: 'integer' } } } },
      '3.1.0',
    )
    expect(parseIssues).toEqual([])
    expect(model.components.schemas.User?.kind).toBe('object')
  })

  it('MISSING_ARRAY_TYPE (warning) for items without type: array', async () => {
    const { parseIssues, model } = await schemas({ Ids: { items: { type: 'integer' } } })
    expect(brief(parseIssues)).toEqual([
      { type: 'MISSING_ARRAY_TYPE', level: 'warning', location: 'components:schemas:Ids' },
    ])
    expect(model.components.schemas.Ids).toMatchObject({
      kind: 'array',
      items: { kind: 'integer' },
    })
  })

  it.each([
    ['a boolean default', { default: true }],
    ['a boolean example', { example: false }],
  ])('MISSING_BOOLEAN_TYPE (warning) for %s', async (_, schema) => {
    const { parseIssues, model } = await schemas({ Flag: schema })
    expect(brief(parseIssues)).toEqual([
      { type: 'MISSING_BOOLEAN_TYPE', level: 'warning', location: 'components:schemas:Flag' },
    ])
    expect(model.components.schemas.Flag?.kind).toBe('boolean')
  })

  it.each([
    ['a string default', { default: 'x' }],
    ['a string example', { example: 'x' }],
    ['a string-only enum', { enum: ['a', 'b'] }],
    ['a string format', { format: 'date-time' }],
  ])('MISSING_STRING_TYPE (warning) for %s', async (_, schema) => {
    const { parseIssues, model } = await schemas({ Name: schema })
    expect(brief(parseIssues)).toEqual([
      { type: 'MISSING_STRING_TYPE', level: 'warning', location: 'components:schemas:Name' },
    ])
    expect(model.components.schemas.Name?.kind).toBe('string')
  })

  it('leaves a schema with nothing to go on as unknown, without an issue', async () => {
    const { parseIssues, model } = await schemas({ Anything: { description: 'free form' } })
    expect(parseIssues).toEqual([])
    expect(model.components.schemas.Anything).toEqual({
      kind: 'unknown',
      nullable: false,
      description: 'free form',
    })
  })
})

describe('UNEXPECTED_PROPERTY (warning): the property is ignored', () => {
  it('names the key and where it was found; the location is the key itself', async () => {
    const { parseIssues, model } = await schemas({
      User: { type: 'object', requried: ['id'], 'x-internal': true },
    })
    expect(brief(parseIssues)).toEqual([
      {
        type: 'UNEXPECTED_PROPERTY',
        level: 'warning',
        location: 'components:schemas:User:requried',
      },
    ])
    expect(parseIssues[0]!.message).toBe(
      "Unexpected property 'requried' at components:schemas:User.",
    )
    expect(model.components.schemas.User).toEqual({
      kind: 'object',
      nullable: false,
      properties: {},
      required: [],
      extensions: { 'x-internal': true },
    })
  })

  it('reports 3.1-only keywords in a 3.0 document, and nullable in a 3.1 one', async () => {
    const old = await schemas({ A: { type: 'string', const: 'x', examples: ['x'] } })
    expect(brief(old.parseIssues).map((i) => i.location)).toEqual([
      'components:schemas:A:const',
      'components:schemas:A:examples',
    ])
    const next = await schemas({ A: { type: 'string', nullable: true } }, '3.1.0')
    expect(brief(next.parseIssues)).toEqual([
      { type: 'UNEXPECTED_PROPERTY', level: 'warning', location: 'components:schemas:A:nullable' },
    ])
    expect(next.model.components.schemas.A?.nullable).toBe(false)
  })

  it('reports siblings of $ref in 3.0 (they are ignored there)', async () => {
    const { parseIssues, model } = await schemas({
      User: { type: 'string' },
      Owner: { $ref: '#/components/schemas/User', description: 'the owner' },
    })
    expect(brief(parseIssues)).toEqual([
      {
        type: 'UNEXPECTED_PROPERTY',
        level: 'warning',
        location: 'components:schemas:Owner:description',
      },
    ])
    expect(model.components.schemas.Owner).toEqual({
      kind: 'ref',
      $ref: '#/components/schemas/User',
      refName: 'User',
      nullable: false,
    })
  })

  it('reports a deep position with the full trail (SPEC §7.9)', async () => {
    const { parseIssues } = await parseOasDoc({
      paths: {
        '/users': {
          post: {
            requestBody: {
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    properties: { email: { type: 'string', formt: 'email' } },
                  },
                },
              },
            },
            responses: { '201': { description: 'created' } },
          },
        },
      },
    })
    expect(parseIssues.map((i) => i.location)).toEqual([
      'paths:/users:post:requestBody:content:application/json:schema:properties:email:formt',
    ])
  })
})

describe('values that do not fit the schema are dropped', () => {
  it('INVALID_EXAMPLE (warning) drops the example', async () => {
    const { parseIssues, model } = await schemas({ Age: { type: 'integer', example: 'forty' } })
    expect(brief(parseIssues)).toEqual([
      { type: 'INVALID_EXAMPLE', level: 'warning', location: 'components:schemas:Age:example' },
    ])
    expect(model.components.schemas.Age).toEqual({ kind: 'integer', nullable: false })
  })

  it('INVALID_EXAMPLE looks inside inline objects and arrays, and keeps a valid example', async () => {
    const { parseIssues, model } = await schemas({
      Bad: {
        type: 'array',
        items: { type: 'object', properties: { n: { type: 'integer' } } },
        example: [{ n: 1 }, { n: 'x' }],
      },
      Good: {
        type: 'array',
        items: { type: 'object', properties: { n: { type: 'integer' } } },
        example: [{ n: 1 }],
      },
    })
    expect(brief(parseIssues)).toEqual([
      { type: 'INVALID_EXAMPLE', level: 'warning', location: 'components:schemas:Bad:example' },
    ])
    expect(model.components.schemas.Good).toMatchObject({ example: [{ n: 1 }] })
  })

  it('INVALID_DEFAULT (warning) drops a default of the wrong type', async () => {
    const { parseIssues, model } = await schemas({
      On: { type: 'boolean', default: 'yes' },
      Off: { type: 'boolean', default: false },
    })
    expect(brief(parseIssues)).toEqual([
      { type: 'INVALID_DEFAULT', level: 'warning', location: 'components:schemas:On:default' },
    ])
    // Kept apart, so that a diff still sees it change.
    expect(model.components.schemas.On).toEqual({
      kind: 'boolean',
      nullable: false,
      invalidDefault: 'yes',
    })
    expect(model.components.schemas.Off).toEqual({
      kind: 'boolean',
      nullable: false,
      default: false,
    })
  })

  it('INVALID_FORMAT (debug) drops a number format the model cannot represent (kept unapplied)', async () => {
    const { parseIssues, model } = await schemas({
      Big: { type: 'integer', format: 'int128' },
      Ok: { type: 'number', format: 'double' },
    })
    expect(brief(parseIssues)).toEqual([
      { type: 'INVALID_FORMAT', level: 'debug', location: 'components:schemas:Big:format' },
    ])
    expect(parseIssues[0]!.message).toBe('Invalid format: int128.')
    expect(model.components.schemas.Big).toEqual({
      kind: 'integer',
      nullable: false,
      unapplied: { format: 'int128' },
    })
    expect(model.components.schemas.Ok).toEqual({
      kind: 'number',
      nullable: false,
      format: 'double',
    })
  })

  it('keeps any string format (open vocabulary)', async () => {
    const { parseIssues, model } = await schemas({ Id: { type: 'string', format: 'snowflake' } })
    expect(parseIssues).toEqual([])
    expect(model.components.schemas.Id).toEqual({
      kind: 'string',
      nullable: false,
      format: 'snowflake',
    })
  })

  it('INVALID_ENUM (warning) drops the whole enum when one member does not match', async () => {
    const { parseIssues, model } = await schemas({ Size: { type: 'integer', enum: [1, 'two', 3] } })
    expect(brief(parseIssues)).toEqual([
      { type: 'INVALID_ENUM', level: 'warning', location: 'components:schemas:Size:enum' },
    ])
    expect(model.components.schemas.Size).toEqual({ kind: 'integer', nullable: false })
  })

  it('INVALID_ENUM tolerates a null member only when the schema is nullable', async () => {
    const { parseIssues, model } = await schemas({
      Nullable: { type: 'string', nullable: true, enum: ['a', null] },
      Strict: { type: 'string', enum: ['a', null] },
    })
    expect(brief(parseIssues)).toEqual([
      { type: 'INVALID_ENUM', level: 'warning', location: 'components:schemas:Strict:enum' },
    ])
    expect(model.components.schemas.Nullable).toEqual({
      kind: 'string',
      nullable: true,
      enum: ['a', null],
    })
    expect(model.components.schemas.Strict).toEqual({ kind: 'string', nullable: false })
  })

  it('INVALID_NULLABLE (warning) for nullable without a type, or not a boolean', async () => {
    const { parseIssues, model } = await schemas({
      Any: { nullable: true },
      Odd: { type: 'string', nullable: 'yes' },
    })
    expect(brief(parseIssues)).toEqual([
      { type: 'INVALID_NULLABLE', level: 'warning', location: 'components:schemas:Any:nullable' },
      { type: 'INVALID_NULLABLE', level: 'warning', location: 'components:schemas:Odd:nullable' },
    ])
    expect(model.components.schemas.Any).toEqual({ kind: 'unknown', nullable: true })
    expect(model.components.schemas.Odd).toEqual({ kind: 'string', nullable: false })
  })

  it('does not call nullable on a composition or a ref wrapper invalid', async () => {
    const { parseIssues, model } = await schemas({
      User: { type: 'object' },
      Owner: { nullable: true, allOf: [{ $ref: '#/components/schemas/User' }] },
    })
    expect(parseIssues).toEqual([])
    expect(model.components.schemas.Owner).toEqual({
      kind: 'ref',
      $ref: '#/components/schemas/User',
      refName: 'User',
      nullable: true,
    })
  })
})

describe('EXAMPLE_AND_EXAMPLES_DEFINED (warning): the singular example wins', () => {
  it('fires on a 3.1 schema with both', async () => {
    const { parseIssues, model } = await schemas(
      { Name: { type: 'string', example: 'a', examples: ['b'] } },
      '3.1.0',
    )
    expect(brief(parseIssues)).toEqual([
      {
        type: 'EXAMPLE_AND_EXAMPLES_DEFINED',
        level: 'warning',
        location: 'components:schemas:Name:example',
      },
    ])
    expect(model.components.schemas.Name).toEqual({
      kind: 'string',
      nullable: false,
      example: 'a',
      examples: ['b'],
    })
  })

  it('fires on a parameter and on a media type with both', async () => {
    const { parseIssues, model } = await parseOasDoc({
      paths: {
        '/items': {
          get: {
            parameters: [
              {
                name: 'q',
                in: 'query',
                schema: { type: 'string' },
                example: 'a',
                examples: { other: { value: 'b' } },
              },
            ],
            responses: {
              '200': {
                description: 'ok',
                content: {
                  'application/json': {
                    schema: { type: 'integer' },
                    example: 1,
                    examples: { two: { value: 2 } },
                  },
                },
              },
            },
          },
        },
      },
    })
    expect(brief(parseIssues)).toEqual([
      {
        type: 'EXAMPLE_AND_EXAMPLES_DEFINED',
        level: 'warning',
        location: 'paths:/items:get:parameters:0:example',
      },
      {
        type: 'EXAMPLE_AND_EXAMPLES_DEFINED',
        level: 'warning',
        location: 'paths:/items:get:responses:200:content:application/json:example',
      },
    ])
    const operation = model.operations[0]!
    expect(operation.parameters[0]).toMatchObject({ name: 'q', example: 'a' })
    expect(operation.responses['200']).toMatchObject({
      content: { 'application/json': { example: 1 } },
    })
  })
})

describe('OpenAPI 3.1 schemas', () => {
  it('reads type arrays: null makes nullable, several types make a union', async () => {
    const { parseIssues, model } = await schemas(
      {
        Tag: { type: ['string', 'null'] },
        Id: { type: ['string', 'integer'] },
        Null: { type: ['null'] },
        AlsoNull: { type: 'null' },
      },
      '3.1.0',
    )
    expect(parseIssues).toEqual([])
    expect(model.components.schemas.Tag).toEqual({ kind: 'string', nullable: true })
    expect(model.components.schemas.Id).toEqual({
      kind: 'union',
      mode: 'anyOf',
      nullable: false,
      members: [
        { kind: 'string', nullable: false },
        { kind: 'integer', nullable: false },
      ],
    })
    expect(model.components.schemas.Null).toEqual({ kind: 'unknown', nullable: true })
    expect(model.components.schemas.AlsoNull).toEqual({ kind: 'unknown', nullable: true })
  })

  it('reads const as a one-value enum (keeping const), examples[0] as the example, numeric exclusive bounds', async () => {
    const { model } = await schemas(
      {
        Kind: { type: 'string', const: 'dog' },
        Age: { type: 'integer', exclusiveMinimum: 0, exclusiveMaximum: 150, examples: [3, 4] },
      },
      '3.1.0',
    )
    expect(model.components.schemas.Kind).toEqual({
      kind: 'string',
      nullable: false,
      enum: ['dog'],
      const: 'dog',
    })
    expect(model.components.schemas.Age).toEqual({
      kind: 'integer',
      nullable: false,
      exclusiveMinimum: 0,
      exclusiveMaximum: 150,
      example: 3,
      examples: [3, 4],
    })
  })

  it('reads 3.0 boolean exclusive bounds into the same numeric form', async () => {
    const { model } = await schemas({
      Age: { type: 'integer', minimum: 0, exclusiveMinimum: true, maximum: 10 },
    })
    expect(model.components.schemas.Age).toEqual({
      kind: 'integer',
      nullable: false,
      exclusiveMinimum: 0,
      maximum: 10,
    })
  })

  it('applies description siblings of $ref, and combines structural siblings with the target', async () => {
    const { parseIssues, model } = await schemas(
      {
        User: { type: 'object', properties: { id: { type: 'integer' } } },
        Owner: { $ref: '#/components/schemas/User', description: 'who owns it' },
        Admin: { $ref: '#/components/schemas/User', properties: { role: { type: 'string' } } },
      },
      '3.1.0',
    )
    expect(parseIssues).toEqual([])
    expect(model.components.schemas.Owner).toEqual({
      kind: 'ref',
      $ref: '#/components/schemas/User',
      refName: 'User',
      nullable: false,
      description: 'who owns it',
    })
    expect(model.components.schemas.Admin).toMatchObject({
      kind: 'object',
      properties: { id: { kind: 'integer' }, role: { kind: 'string' } },
    })
  })

  it('folds a { type: null } member of oneOf into nullable', async () => {
    const { model } = await schemas(
      {
        User: { type: 'object' },
        MaybeUser: { oneOf: [{ $ref: '#/components/schemas/User' }, { type: 'null' }] },
      },
      '3.1.0',
    )
    expect(model.components.schemas.MaybeUser).toEqual({
      kind: 'ref',
      $ref: '#/components/schemas/User',
      refName: 'User',
      nullable: true,
    })
  })

  it('reads true and false schemas', async () => {
    const { model } = await schemas({ Any: true, Never: false }, '3.1.0')
    expect(model.components.schemas.Any).toEqual({ kind: 'unknown', nullable: true })
    expect(model.components.schemas.Never).toEqual({ kind: 'void', nullable: false })
  })
})

describe('schema kinds', () => {
  it('keeps refs to components lazy, so recursive schemas are plain data', async () => {
    const { parseIssues, model } = await schemas({
      Node: {
        type: 'object',
        properties: { children: { type: 'array', items: { $ref: '#/components/schemas/Node' } } },
      },
    })
    expect(parseIssues).toEqual([])
    expect(model.components.schemas.Node).toEqual({
      kind: 'object',
      nullable: false,
      required: [],
      properties: {
        children: {
          kind: 'array',
          nullable: false,
          items: {
            kind: 'ref',
            $ref: '#/components/schemas/Node',
            refName: 'Node',
            nullable: false,
          },
        },
      },
    })
  })

  it('treats a property literally named $ref as a property', async () => {
    const { parseIssues, model } = await schemas({
      JSONSchemaProps: {
        type: 'object',
        properties: { $ref: { type: 'string' }, $schema: { type: 'string' } },
      },
    })
    expect(parseIssues).toEqual([])
    expect(
      Object.keys((model.components.schemas.JSONSchemaProps as { properties: object }).properties),
    ).toEqual(['$ref', '$schema'])
  })

  it('keeps a property named __proto__ as data', async () => {
    const { model } = await schemas(
      JSON.parse(
        '{ "Odd": { "type": "object", "properties": { "__proto__": { "type": "string" } } } }',
      ),
    )
    const odd = model.components.schemas.Odd as { properties: Record<string, unknown> }
    expect(Object.hasOwn(odd.properties, '__proto__')).toBe(true)
    expect(Object.getPrototypeOf(odd.properties)).toBe(Object.prototype)
  })

  it('merges allOf into one object; a single ref member stays a lazy ref with the wrapper annotations', async () => {
    const { model } = await schemas({
      Base: { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } },
      Pet: {
        allOf: [
          { $ref: '#/components/schemas/Base' },
          { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
        ],
      },
      Described: { description: 'a base', allOf: [{ $ref: '#/components/schemas/Base' }] },
    })
    expect(model.components.schemas.Pet).toEqual({
      kind: 'object',
      nullable: false,
      required: ['id', 'name'],
      properties: {
        id: { kind: 'integer', nullable: false },
        name: { kind: 'string', nullable: false },
      },
      allOfRefs: ['Base', null],
    })
    expect(model.components.schemas.Described).toEqual({
      kind: 'ref',
      $ref: '#/components/schemas/Base',
      refName: 'Base',
      nullable: false,
      description: 'a base',
    })
  })

  it('reads oneOf with a discriminator as a union of lazy refs', async () => {
    const { model } = await schemas({
      Cat: { type: 'object', properties: { kind: { type: 'string' } } },
      Dog: { type: 'object', properties: { kind: { type: 'string' } } },
      Pet: {
        oneOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }],
        discriminator: { propertyName: 'kind', mapping: { cat: '#/components/schemas/Cat' } },
      },
    })
    expect(model.components.schemas.Pet).toEqual({
      kind: 'union',
      mode: 'oneOf',
      nullable: false,
      members: [
        { kind: 'ref', $ref: '#/components/schemas/Cat', refName: 'Cat', nullable: false },
        { kind: 'ref', $ref: '#/components/schemas/Dog', refName: 'Dog', nullable: false },
      ],
      discriminator: { propertyName: 'kind', mapping: { cat: '#/components/schemas/Cat' } },
    })
  })

  it('distributes allOf over a union', async () => {
    const { model } = await schemas({
      Shape: {
        allOf: [
          { type: 'object', properties: { id: { type: 'string' } } },
          {
            oneOf: [
              { type: 'object', properties: { r: { type: 'number' } } },
              { type: 'object', properties: { w: { type: 'number' } } },
            ],
          },
        ],
      },
    })
    const shape = model.components.schemas.Shape as unknown as {
      kind: string
      members: { properties: object }[]
    }
    expect(shape.kind).toBe('union')
    expect(shape.members.map((m) => Object.keys(m.properties))).toEqual([
      ['id', 'r'],
      ['id', 'w'],
    ])
  })

  it('merges allOf over recursive schemas, keeping the recursion lazy', async () => {
    const node = { $ref: '#/components/schemas/Node' }
    const { parseIssues, model } = await schemas({
      Node: { type: 'object', properties: { next: node } },
      Both: {
        allOf: [node, { type: 'object', properties: { next: node, label: { type: 'string' } } }],
      },
    })
    expect(parseIssues).toEqual([])
    expect(model.components.schemas.Both).toMatchObject({
      kind: 'object',
      properties: { next: { kind: 'ref', refName: 'Node' }, label: { kind: 'string' } },
    })
  })

  it('merges allOf over recursive schemas under unions in bounded time', async () => {
    const node = { $ref: '#/components/schemas/Node' }
    const started = Date.now()
    const { parseIssues, model } = await schemas({
      Node: {
        type: 'object',
        properties: { next: { oneOf: [node, { $ref: '#/components/schemas/Other' }] } },
      },
      Other: {
        type: 'object',
        properties: { back: node, next: { oneOf: [node, { $ref: '#/components/schemas/Other' }] } },
      },
      Both: {
        allOf: [
          node,
          { $ref: '#/components/schemas/Other' },
          { type: 'object', properties: { next: node } },
        ],
      },
    })
    expect(Date.now() - started).toBeLessThan(10_000)
    expect(
      parseIssues.filter(
        (issue) =>
          issue.location === 'components:schemas:Both' &&
          issue.message !== 'allOf is too complex to merge.',
      ),
    ).toEqual([])
    expect(Object.keys(model.components.schemas)).toContain('Node')
  })

  it('says what is wrong with a type that is not a name', async () => {
    const { parseIssues } = await schemas({ Odd: { type: { type: 'string' } } })
    expect(parseIssues[0]!.message).toBe('"type" must name a type, got an object.')
  })

  it('stops at a depth limit instead of overflowing the stack', async () => {
    const levels = 10_000
    const deep =
      '{"type":"object","properties":{"next":'.repeat(levels) +
      '{"type":"string"}' +
      '}}'.repeat(levels)
    const text = `{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{},"components":{"schemas":{"Deep":${deep},"Fine":{"type":"string"}}}}`
    const { parseIssues, model } = await parseApi({ text })
    expect(brief(parseIssues)).toEqual([
      { type: 'INVALID_SCHEMA', level: 'error', location: 'components:schemas:Deep' },
    ])
    expect(parseIssues[0]!.message).toMatch(/^Schema nesting exceeds 256 levels/)
    expect(Object.keys(model.components.schemas)).toEqual(['Fine'])
  })
})

describe('JSON Schema 2020-12 applicators (3.1)', () => {
  const str = { type: 'string' }

  it('reads array, object and string keywords onto their nodes', async () => {
    const { parseIssues, model } = await schemas(
      {
        Pair: {
          type: 'array',
          prefixItems: [str, { type: 'integer' }],
          items: false,
          contains: str,
          minContains: 1,
          maxContains: 2,
          unevaluatedItems: false,
        },
        Labels: {
          type: 'object',
          patternProperties: { '^x-': str },
          propertyNames: { type: 'string', maxLength: 20 },
          dependentRequired: { card: ['billing'] },
          dependentSchemas: { card: { type: 'object', required: ['cvc'] } },
          unevaluatedProperties: true,
        },
        Picture: {
          type: 'string',
          contentMediaType: 'image/png',
          contentEncoding: 'base64',
          contentSchema: { type: 'object' },
        },
      },
      '3.1.0',
    )
    expect(parseIssues).toEqual([])
    const { Pair, Labels, Picture } = model.components.schemas
    expect(Pair).toMatchObject({
      kind: 'array',
      items: { kind: 'void' },
      prefixItems: [{ kind: 'string' }, { kind: 'integer' }],
      contains: { kind: 'string' },
      minContains: 1,
      maxContains: 2,
      unevaluatedItems: false,
    })
    expect(Labels).toMatchObject({
      kind: 'object',
      patternProperties: { '^x-': { kind: 'string' } },
      propertyNames: { kind: 'string', maxLength: 20 },
      dependentRequired: { card: ['billing'] },
      dependentSchemas: { card: { kind: 'object', required: ['cvc'] } },
    })
    // `unevaluatedProperties: true` constrains nothing.
    expect(Labels).not.toHaveProperty('unevaluatedProperties')
    expect(Picture).toMatchObject({
      kind: 'string',
      contentMediaType: 'image/png',
      contentEncoding: 'base64',
      contentSchema: { kind: 'object' },
    })
  })

  it('reads not and if/then/else on any schema, typed or not', async () => {
    const { parseIssues, model } = await schemas(
      {
        NotEmpty: { type: 'string', not: { type: 'string', enum: [''] } },
        Anything: { not: { type: 'null' } },
        Shipping: {
          type: 'object',
          if: { properties: { country: { type: 'string', const: 'US' } } },
          then: { required: ['zip'] },
          else: { required: ['postcode'] },
        },
      },
      '3.1.0',
    )
    expect(parseIssues).toEqual([])
    const { NotEmpty, Anything, Shipping } = model.components.schemas
    expect(NotEmpty).toMatchObject({ kind: 'string', not: { kind: 'string', enum: [''] } })
    expect(Anything).toMatchObject({ kind: 'unknown', not: { kind: 'unknown', nullable: true } })
    expect(Shipping).toMatchObject({
      kind: 'object',
      conditions: [
        {
          if: { kind: 'object', properties: { country: { kind: 'string', enum: ['US'] } } },
          then: { kind: 'object', required: ['zip'] },
          else: { kind: 'object', required: ['postcode'] },
        },
      ],
    })
  })

  it('keeps not and if/then/else through allOf and $ref siblings', async () => {
    const { model } = await schemas(
      {
        Base: { type: 'object', not: { required: ['a'] } },
        Both: {
          allOf: [
            { $ref: '#/components/schemas/Base' },
            { type: 'object', not: { required: ['b'] }, if: { required: ['c'] }, then: {} },
          ],
        },
        Sibling: { $ref: '#/components/schemas/Base', if: { required: ['d'] }, then: {} },
      },
      '3.1.0',
    )
    const { Both, Sibling } = model.components.schemas
    expect(Both).toMatchObject({
      kind: 'object',
      not: {
        kind: 'union',
        mode: 'anyOf',
        members: [{ required: ['a'] }, { required: ['b'] }],
      },
      conditions: [{ if: { required: ['c'] } }],
    })
    expect(Sibling).toMatchObject({
      kind: 'object',
      not: { required: ['a'] },
      conditions: [{ if: { required: ['d'] } }],
    })
  })

  it('does not ask for items beside prefixItems', async () => {
    const { parseIssues, model } = await schemas(
      { Pair: { type: 'array', prefixItems: [str] } },
      '3.1.0',
    )
    expect(parseIssues).toEqual([])
    expect(model.components.schemas.Pair).toMatchObject({ items: { kind: 'unknown' } })
  })

  it('reads not in 3.0 too, and reports the 3.1-only keywords there', async () => {
    const { parseIssues, model } = await schemas({
      A: { type: 'string', not: { type: 'string', enum: ['x'] }, contentMediaType: 'text/plain' },
    })
    expect(brief(parseIssues)).toEqual([
      {
        type: 'UNEXPECTED_PROPERTY',
        level: 'warning',
        location: 'components:schemas:A:contentMediaType',
      },
    ])
    expect(model.components.schemas.A).toMatchObject({ not: { enum: ['x'] } })
    expect(model.components.schemas.A).not.toHaveProperty('contentMediaType')
  })

  it.each([
    [{ type: 'array', items: str, prefixItems: {} }, '"prefixItems" must be a non-empty array'],
    [{ type: 'array', items: str, contains: str, minContains: -1 }, '"minContains" must be'],
    [{ type: 'object', patternProperties: [] }, '"patternProperties" must be an object'],
    [{ type: 'object', dependentRequired: { a: 'b' } }, '"dependentRequired" must map'],
    [{ type: 'object', dependentSchemas: 1 }, '"dependentSchemas" must be an object'],
    [{ type: 'string', contentMediaType: 1 }, '"contentMediaType" must be a string'],
    [{ type: 'string', contentEncoding: true }, '"contentEncoding" must be a string'],
  ])('fails the schema on a malformed keyword: %j', async (schema, message) => {
    const { parseIssues, model } = await schemas({ Bad: schema }, '3.1.0')
    expect(brief(parseIssues)).toEqual([
      { type: 'INVALID_SCHEMA', level: 'error', location: 'components:schemas:Bad' },
    ])
    expect(parseIssues[0]!.message).toContain(message)
    expect(model.components.schemas).toEqual({})
  })

  it('names where a malformed subschema is', async () => {
    const { parseIssues } = await schemas(
      { Bad: { type: 'array', items: str, prefixItems: [str, { type: 'file' }] } },
      '3.1.0',
    )
    expect(parseIssues[0]!.message).toBe(
      'Unknown type "file" (at components:schemas:Bad:prefixItems:1).',
    )
  })
})

describe('allOf over JSON Schema 2020-12 keywords', () => {
  it('keeps what each member says', async () => {
    const { parseIssues, model } = await schemas(
      {
        Labels: {
          allOf: [
            {
              type: 'object',
              patternProperties: { '^x-': { type: 'string' } },
              dependentRequired: { a: ['b'] },
            },
            {
              type: 'object',
              patternProperties: {
                '^x-': { type: 'string', maxLength: 5 },
                '^y-': { type: 'integer' },
              },
              dependentRequired: { a: ['c'] },
              unevaluatedProperties: false,
            },
          ],
        },
        Pair: {
          allOf: [
            { type: 'array', prefixItems: [{ type: 'string' }] },
            { type: 'array', items: { type: 'string', maxLength: 3 } },
          ],
        },
      },
      '3.1.0',
    )
    expect(parseIssues).toEqual([])
    expect(model.components.schemas.Labels).toMatchObject({
      patternProperties: {
        '^x-': { kind: 'string', maxLength: 5 },
        '^y-': { kind: 'integer' },
      },
      dependentRequired: { a: ['b', 'c'] },
      unevaluatedProperties: false,
    })
    expect(model.components.schemas.Pair).toMatchObject({
      prefixItems: [{ kind: 'string', maxLength: 3 }],
      items: { kind: 'string', maxLength: 3 },
    })
  })
})

describe('3.1 schemas without a type', () => {
  it('read object keywords as an object, silently, and prefixItems as an array', async () => {
    const { parseIssues, model } = await schemas(
      { Needs: { required: ['a'] }, Pair: { prefixItems: [{ type: 'string' }] } },
      '3.1.0',
    )
    expect(brief(parseIssues)).toEqual([
      { type: 'MISSING_ARRAY_TYPE', level: 'warning', location: 'components:schemas:Pair' },
    ])
    expect(parseIssues[0]!.message).toBe(
      'Schema has "prefixItems" but no type; treated as type "array".',
    )
    expect(model.components.schemas.Needs).toMatchObject({ kind: 'object', required: ['a'] })
    expect(model.components.schemas.Pair).toMatchObject({ kind: 'array' })
  })

  it('stay unknown in 3.0 with only required', async () => {
    const { model } = await schemas({ Needs: { required: ['a'] } })
    expect(model.components.schemas.Needs).toMatchObject({ kind: 'unknown' })
  })
})

describe('keywords the type does not hold, and allOf members without a type', () => {
  it('keeps a keyword of another type, and every one of a schema without a type, unapplied', async () => {
    const { parseIssues, model } = await schemas({
      Text: { type: 'string', minItems: 2, maxLength: 5 },
      Free: { pattern: '^a', minimum: 1, exclusiveMinimum: true },
    })
    expect(parseIssues).toEqual([])
    expect(model.components.schemas.Text).toEqual({
      kind: 'string',
      nullable: false,
      maxLength: 5,
      unapplied: { minItems: 2 },
    })
    expect(model.components.schemas.Free).toEqual({
      kind: 'unknown',
      nullable: false,
      unapplied: { pattern: '^a', exclusiveMinimum: 1 },
    })
  })

  it('gives an allOf member without a type to the type its sibling sets', async () => {
    const { parseIssues, model } = await schemas({
      Name: { type: 'string', maxLength: 10 },
      Short: { allOf: [{ $ref: '#/components/schemas/Name' }, { pattern: '^a', maxLength: 5 }] },
      Pet: { type: 'object', properties: { name: { type: 'string' } } },
      Named: { allOf: [{ $ref: '#/components/schemas/Pet' }, { required: ['name'] }] },
    })
    expect(parseIssues).toEqual([])
    expect(model.components.schemas.Short).toEqual({
      kind: 'string',
      nullable: false,
      pattern: '^a',
      maxLength: 5,
      allOfRefs: ['Name', null],
    })
    expect(model.components.schemas.Named).toMatchObject({ kind: 'object', required: ['name'] })
  })

  it('makes a value match the patterns of both members', async () => {
    const { model } = await schemas({
      Code: { allOf: [{ type: 'string', pattern: '^a' }, { pattern: 'z$' }] },
    })
    const code = model.components.schemas.Code
    const pattern = new RegExp(code?.kind === 'string' ? code.pattern! : '')
    expect(['az', 'abz'].map((value) => pattern.test(value))).toEqual([true, true])
    expect(['ab', 'bz'].map((value) => pattern.test(value))).toEqual([false, false])
  })
})
