import { describe, expect, it } from 'vitest'
import { readablePath, readableSegments } from './readable-path.js'

describe('readablePath', () => {
  it.each([
    // Operations: method and path, the path's `~1` and `~0` unescaped.
    ['/paths/~1pets/get', 'GET /pets'],
    ['/paths/~1pets~1{petId}/delete', 'DELETE /pets/{petId}'],
    ['/paths/~1files~1~0backup/put', 'PUT /files/~backup'],
    ['/paths/~1a~01~1b/patch', 'PATCH /a~1/b'],
    ['/paths/~1pets', '/pets'],
    // Parameters, by location and name.
    ['/paths/~1pets/get/parameters/query/limit', 'GET /pets › query parameter limit'],
    ['/paths/~1pets/get/parameters/query/limit/schema', 'GET /pets › query parameter limit'],
    ['/paths/~1pets/get/parameters/query/ids/schema/items', 'GET /pets › query parameter ids › []'],
    [
      '/paths/~1pets/get/parameters/query/filter/schema/properties/owner/properties/name',
      'GET /pets › query parameter filter › owner.name',
    ],
    [
      '/paths/~1pets/get/parameters/query/filter/content/application~1json/schema/properties/a',
      'GET /pets › query parameter filter › a',
    ],
    ['/paths/~1pets/get/parameters/header/X-Trace~1Id', 'GET /pets › header parameter X-Trace/Id'],
    [
      '/paths/~1pets/get/parameters/query/limit/description',
      'GET /pets › query parameter limit › description',
    ],
    // Request bodies: JSON is implied, another media type is named.
    ['/paths/~1pets/post/requestBody', 'POST /pets › request body'],
    [
      '/paths/~1pets/post/requestBody/content/application~1json/schema/properties/tags/items',
      'POST /pets › request body › body.tags[]',
    ],
    [
      '/paths/~1pets/post/requestBody/content/application~1json/schema',
      'POST /pets › request body › body',
    ],
    [
      '/paths/~1pets/post/requestBody/content/application~1xml/schema/properties/name',
      'POST /pets › request body › application/xml › body.name',
    ],
    [
      '/paths/~1pets/post/requestBody/content/application~1xml',
      'POST /pets › request body › application/xml',
    ],
    [
      '/paths/~1pets/post/requestBody/content/application~1json',
      'POST /pets › request body › application/json',
    ],
    // Responses: status, headers, bodies.
    ['/paths/~1pets~1{petId}/get/responses/200', 'GET /pets/{petId} › response 200'],
    ['/paths/~1pets/get/responses/default', 'GET /pets › response default'],
    [
      '/paths/~1pets~1{petId}/get/responses/200/content/application~1json/schema/properties/owner/properties/email',
      'GET /pets/{petId} › response 200 › body.owner.email',
    ],
    ['/paths/~1pets/get/responses/200/headers/X-Rate', 'GET /pets › response 200 › header X-Rate'],
    [
      '/paths/~1pets/get/responses/200/headers/X-Rate/schema',
      'GET /pets › response 200 › header X-Rate',
    ],
    [
      '/paths/~1pets/get/responses/200/headers/X-Ids/schema/items',
      'GET /pets › response 200 › header X-Ids › []',
    ],
    ['/paths/~1pets/get/responses/200/description', 'GET /pets › response 200 › description'],
    // Inside schemas: maps, tuples, alternatives, and allOf members that add to the object.
    [
      '/paths/~1a/get/responses/200/content/application~1json/schema/additionalProperties/properties/id',
      'GET /a › response 200 › body{}.id',
    ],
    [
      '/paths/~1a/get/responses/200/content/application~1json/schema/items/prefixItems/1',
      'GET /a › response 200 › body[][1]',
    ],
    [
      '/paths/~1a/get/responses/200/content/application~1json/schema/properties/pet/oneOf/1/properties/name',
      'GET /a › response 200 › body.pet[oneOf 1].name',
    ],
    [
      '/paths/~1a/get/responses/200/content/application~1json/schema/anyOf/0',
      'GET /a › response 200 › body[anyOf 0]',
    ],
    [
      '/paths/~1a/get/responses/200/content/application~1json/schema/allOf/1/properties/name',
      'GET /a › response 200 › body.name',
    ],
    [
      '/paths/~1a/post/requestBody/content/application~1json/schema/patternProperties/^x-/properties/v',
      'POST /a › request body › body{/^x-/}.v',
    ],
    [
      '/paths/~1a/post/requestBody/content/application~1json/schema/properties/list/contains',
      'POST /a › request body › body.list[contains]',
    ],
    [
      '/paths/~1a/post/requestBody/content/application~1json/schema/then/properties/b',
      'POST /a › request body › body.b',
    ],
    [
      '/paths/~1a/post/requestBody/content/application~1json/schema/properties/a.b/properties/c d',
      'POST /a › request body › body["a.b"]["c d"]',
    ],
    [
      '/paths/~1a/post/requestBody/content/application~1json/schema/properties/items/properties/properties',
      'POST /a › request body › body.items.properties',
    ],
    [
      '/paths/~1a/post/requestBody/content/application~1json/schema/properties/kind/discriminator',
      'POST /a › request body › body.kind › discriminator',
    ],
    // Operation keywords.
    ['/paths/~1pets/get/security', 'GET /pets › security'],
    ['/paths/~1pets/get/x-sunset', 'GET /pets › x-sunset'],
    // Webhooks, named as the changelog's `operation` names them.
    ['/webhooks/petCreated/post', 'webhook petCreated (POST)'],
    [
      '/webhooks/pet~1created/post/requestBody/content/application~1json/schema/properties/id',
      'webhook pet/created (POST) › request body › body.id',
    ],
    // Components of each bucket.
    ['/components/schemas/Pet', 'components › schemas › Pet'],
    ['/components/schemas/Pet/properties/name', 'components › schemas › Pet › name'],
    ['/components/schemas/Pets/items/properties/owner', 'components › schemas › Pets › [].owner'],
    ['/components/schemas/Pet/description', 'components › schemas › Pet › description'],
    ['/components/schemas/a~1b~0c', 'components › schemas › a/b~c'],
    ['/components/parameters/Limit', 'components › parameters › Limit'],
    ['/components/parameters/Limit/schema', 'components › parameters › Limit'],
    ['/components/parameters/Ids/schema/items', 'components › parameters › Ids › []'],
    ['/components/requestBodies/NewPet', 'components › requestBodies › NewPet'],
    [
      '/components/requestBodies/NewPet/content/application~1json/schema/properties/name',
      'components › requestBodies › NewPet › body.name',
    ],
    [
      '/components/responses/NotFound/content/application~1problem+json/schema/properties/title',
      'components › responses › NotFound › application/problem+json › body.title',
    ],
    [
      '/components/responses/Paged/headers/X-Next',
      'components › responses › Paged › header X-Next',
    ],
    ['/components/headers/X-Rate/schema', 'components › headers › X-Rate'],
    [
      '/components/securitySchemes/oauth/flows/implicit',
      'components › securitySchemes › oauth › flows › implicit',
    ],
    // The rest of the document.
    ['/servers/0', 'servers › 0'],
    ['/tags/2/externalDocs', 'tags › 2 › externalDocs'],
    ['/info/version', 'info › version'],
    ['/security', 'security'],
    ['', ''],
    // GraphQL coordinates read well as they are.
    ['Query.user(id:)', 'Query.user(id:)'],
    ['Role.ADMIN', 'Role.ADMIN'],
    ['@auth(role:)', '@auth(role:)'],
  ])('%s → %s', (location, path) => {
    expect(readablePath(location)).toBe(path)
  })

  it('names the endpoint in its first segment, as the change’s operation does', () => {
    expect(readableSegments('/paths/~1pets~1{petId}/get/responses/200')).toEqual([
      'GET /pets/{petId}',
      'response 200',
    ])
    expect(readableSegments('')).toEqual([])
  })
})
