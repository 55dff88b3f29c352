import { describe, expect, it } from 'vitest'
import { parse as parseYaml } from 'yaml'
import type { ApiSource } from '../../parse-api.js'
import { diffDocuments } from '../diff-documents.js'
import { locateChanges, type ChangePosition } from './locate-changes.js'

/** The text at a position: the rest of its line from its column. */
function at(
  sides: { before?: ApiSource; after?: ApiSource },
  position: ChangePosition | undefined,
) {
  if (!position) return undefined
  const text = position.side === 'before' ? sides.before!.text : sides.after!.text
  return text.split('\n')[position.line - 1]!.slice(position.column - 1)
}

/** Diffs, locates, and answers `id location → side:text at the position` for every change. */
async function located(before: ApiSource, after: ApiSource, sides = { before, after }) {
  const changelog = await diffDocuments(before, after)
  const { changes } = await locateChanges(changelog, sides)
  return Object.fromEntries(
    changelog.changes.map((change, index) => {
      const position = changes[index]
      const where = position
        ? `${position.side}${position.exact ? '' : '~'}:${at(sides, position)}`
        : undefined
      return [`${change.id} ${change.location}`, where]
    }),
  )
}

const V1 = `openapi: 3.0.3
info:
  title: Pets
  version: 1.0.0
paths:
  /pets/{id}:
    parameters:
      - name: id
        in: path
        required: true
        schema: { type: string }
      - name: X-Trace
        in: header
        schema: { type: string }
    get:
      parameters:
        - $ref: '#/components/parameters/Limit'
        - name: sort
          in: query
          schema: { type: string }
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/Pet'
    delete:
      responses:
        '204': { description: gone }
components:
  parameters:
    Limit:
      name: limit
      in: query
      schema: { type: integer }
  schemas:
    Pet:
      type: object
      properties:
        name: { type: string }
        age: { type: integer }
`

/** V1 with: `sort` required, the header `x-trace` deprecated, `limit` made a string, `age` and DELETE removed. */
const V2 = `openapi: 3.0.3
info:
  title: Pets
  version: 1.0.0
paths:
  /pets/{id}:
    parameters:
      - name: id
        in: path
        required: true
        schema: { type: string }
      - name: x-trace
        in: header
        deprecated: true
        schema: { type: string }
    get:
      parameters:
        - name: sort
          in: query
          required: true
          schema: { type: string }
        - $ref: '#/components/parameters/Limit'
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/Pet'
components:
  parameters:
    Limit:
      name: limit
      in: query
      schema: { type: string }
  schemas:
    Pet:
      type: object
      properties:
        name: { type: string }
`

describe('locateChanges: OpenAPI', () => {
  it('finds parameters by location and name (operation, path item, $ref, header case), removals in the old document', async () => {
    const before = { text: V1 }
    const after = { text: V2 }
    expect(await located(before, after)).toEqual({
      'endpoint-removed /paths/~1pets~1{id}/delete': 'before:delete:',
      'request-parameter-became-required /paths/~1pets~1{id}/get/parameters/query/sort':
        'after:name: sort',
      'request-parameter-type-changed /components/parameters/Limit/schema':
        'after:schema: { type: string }',
      'response-body-property-removed /components/schemas/Pet/properties/age':
        'before:age: { type: integer }',
      'request-parameter-deprecated /paths/~1pets~1{id}/get/parameters/header/x-trace':
        'after:name: x-trace',
    })
  })

  it('without the old document, a removal is at the nearest place the new one still has', async () => {
    const changelog = await diffDocuments({ text: V1 }, { text: V2 })
    const { changes } = await locateChanges(changelog, { after: { text: V2 } })
    const index = changelog.changes.findIndex((change) => change.id === 'endpoint-removed')
    expect(changes[index]).toMatchObject({ side: 'after', exact: false })
    expect(at({ after: { text: V2 } }, changes[index])).toBe('/pets/{id}:')
    const age = changelog.changes.findIndex((change) => change.location.endsWith('/age'))
    expect(at({ after: { text: V2 } }, changes[age])).toBe('properties:')
  })

  it('finds the same places in JSON', async () => {
    const json = (yaml: string) => JSON.stringify(parseYaml(yaml), null, 2)
    const before = { text: json(V1) }
    const after = { text: json(V2) }
    expect(await located(before, after)).toEqual({
      'endpoint-removed /paths/~1pets~1{id}/delete': 'before:"delete": {',
      'request-parameter-became-required /paths/~1pets~1{id}/get/parameters/query/sort': 'after:{',
      'request-parameter-type-changed /components/parameters/Limit/schema': 'after:"schema": {',
      'response-body-property-removed /components/schemas/Pet/properties/age': 'before:"age": {',
      'request-parameter-deprecated /paths/~1pets~1{id}/get/parameters/header/x-trace': 'after:{',
    })
  })

  it('maps OpenAPI 3 locations back into a Swagger 2.0 document', async () => {
    const swagger = (required: boolean, name: string) => `swagger: '2.0'
info: { title: Pets, version: 1.0.0 }
paths:
  /pets:
    post:
      parameters:
        - name: limit
          in: query
          type: integer
        - name: body
          in: body
          schema:
            type: object
            required: [${required ? 'name' : ''}]
            properties:
              name: { type: string }
      responses:
        '200':
          description: ok
          schema:
            $ref: '#/definitions/${name}'
definitions:
  ${name}:
    type: object
    properties:
      id: { type: integer }
`
    const before = { text: swagger(false, 'Pet') }
    const after = { text: swagger(true, 'Animal') }
    const result = await located(before, after)
    expect(result).toEqual({
      'request-body-property-became-required /paths/~1pets/post/requestBody/content/application~1json/schema/properties/name':
        'after:name: { type: string }',
      'schema-added /components/schemas/Animal': 'after:Animal:',
      'schema-removed /components/schemas/Pet': 'before:Pet:',
    })
  })

  it('locates content a relative $ref brought in from another file, naming the file', async () => {
    const files: Record<string, string> = {
      '/api/v1/pet.yaml':
        'type: object\nproperties:\n  name: { type: string }\n  tag: { type: string }\n',
      '/api/v2/pet.yaml': 'type: object\nproperties:\n  name: { type: string }\n',
    }
    const doc = (file: string) => `openapi: 3.0.3
info: { title: Pets, version: 1.0.0 }
paths:
  /pets:
    get:
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                $ref: './${file}'
`
    const options = { readFile: (path: string) => files[path]! }
    const before = { text: doc('pet.yaml'), origin: '/api/v1/openapi.yaml' }
    const after = { text: doc('pet.yaml'), origin: '/api/v2/openapi.yaml' }
    const changelog = await diffDocuments(before, after, options)
    const { changes } = await locateChanges(changelog, { before, after }, options)
    const tag = changelog.changes.findIndex((change) => change.location.endsWith('/tag'))
    expect(changes[tag]).toEqual({
      side: 'before',
      file: '/api/v1/pet.yaml',
      line: 4,
      column: 3,
      exact: true,
    })
  })

  it('gives the line of each parse issue that has none, in its own side; an unreadable side gives none', async () => {
    const broken = V2.replace(
      'components:',
      '  /broken:\n    post:\n      responses: null\ncomponents:',
    )
    const changelog = await diffDocuments({ text: V1 }, { text: broken })
    expect(changelog.issues?.after.length).toBeGreaterThan(0)
    expect(changelog.issues?.after[0]?.line).toBeUndefined()
    const { issues } = await locateChanges(changelog, {
      before: { text: V1 },
      after: { text: broken },
    })
    const line = broken.split('\n')[issues.after[0]!.line - 1]
    expect(line).toBe('    post:')

    const none = await locateChanges(changelog, { after: { text: 'not: [an, api' } })
    expect(none.changes.every((position) => position === undefined)).toBe(true)
  })
})

describe('locateChanges: GraphQL', () => {
  const before = {
    text: `type Query {
  user(id: ID!, verbose: Boolean): User
}
type User { id: ID! name: String }
enum Role { ADMIN USER }
directive @auth(role: Role) on FIELD_DEFINITION
`,
  }
  const after = {
    text: `type Query {
  user(id: ID!): User
}
type User { id: ID! }
extend type User { email: String }
enum Role { ADMIN }
directive @auth(role: Role, scope: String) on FIELD_DEFINITION
`,
  }

  it('locates schema coordinates: arguments, fields of extensions, enum values, directive arguments', async () => {
    expect(await located(before, after)).toEqual({
      'argument-removed Query.user(verbose:)': 'before:verbose: Boolean): User',
      'field-removed User.name': 'before:name: String }',
      'enum-value-removed Role.USER': 'before:USER }',
      'field-added User.email': 'after:email: String }',
      'directive-optional-argument-added @auth(scope:)': 'after:scope: String) on FIELD_DEFINITION',
    })
  })

  it('without the old schema, a removed argument is at its field', async () => {
    const result = await located(before, after, { after } as never)
    expect(result['argument-removed Query.user(verbose:)']).toBe('after~:user(id: ID!): User')
    expect(result['enum-value-removed Role.USER']).toBe('after~:Role { ADMIN }')
  })
})
