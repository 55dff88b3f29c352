/**
 * The fixed fields of each OpenAPI object, per dialect. A key outside its object's set (and not an
 * `x-` extension) is reported as UNEXPECTED_PROPERTY and ignored.
 */
const set = (...keys: string[]) => new Set(keys)

const SCHEMA_30 = [
  'title', 'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'maxLength',
  'minLength', 'pattern', 'maxItems', 'minItems', 'uniqueItems', 'maxProperties', 'minProperties',
  'required', 'enum', 'type', 'allOf', 'oneOf', 'anyOf', 'not', 'items', 'properties',
  'additionalProperties', 'description', 'format', 'default', 'nullable', 'discriminator', 'readOnly',
  'writeOnly', 'xml', 'externalDocs', 'example', 'deprecated',
]

/** JSON Schema 2020-12 keywords (core, applicator, validation, metadata, format, content) plus OAS 3.1's. */
const SCHEMA_31 = [
  ...SCHEMA_30.filter((key) => key !== 'nullable'),
  '$schema', '$id', '$anchor', '$dynamicAnchor', '$dynamicRef', '$vocabulary', '$comment', '$defs',
  'definitions', 'const', 'examples', 'prefixItems', 'contains', 'minContains', 'maxContains',
  'patternProperties', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties', 'if', 'then',
  'else', 'dependentSchemas', 'dependentRequired', 'contentMediaType', 'contentEncoding',
  'contentSchema',
]

const PATH_ITEM_30 = ['$ref', 'summary', 'description', 'get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace', 'servers', 'parameters']
const PARAMETER = ['name', 'in', 'description', 'required', 'deprecated', 'allowEmptyValue', 'style', 'explode', 'allowReserved', 'schema', 'example', 'examples', 'content']

export type ObjectKind = keyof typeof KEYS_30

const KEYS_30 = {
  document: set('openapi', 'info', 'servers', 'paths', 'components', 'security', 'tags', 'externalDocs'),
  info: set('title', 'description', 'termsOfService', 'contact', 'license', 'version'),
  contact: set('name', 'url', 'email'),
  license: set('name', 'url'),
  server: set('url', 'description', 'variables'),
  serverVariable: set('enum', 'default', 'description'),
  components: set('schemas', 'responses', 'parameters', 'examples', 'requestBodies', 'headers', 'securitySchemes', 'links', 'callbacks'),
  pathItem: set(...PATH_ITEM_30),
  operation: set('tags', 'summary', 'description', 'externalDocs', 'operationId', 'parameters', 'requestBody', 'responses', 'callbacks', 'deprecated', 'security', 'servers'),
  externalDocs: set('description', 'url'),
  parameter: set(...PARAMETER),
  requestBody: set('description', 'content', 'required'),
  mediaType: set('schema', 'example', 'examples', 'encoding'),
  encoding: set('contentType', 'headers', 'style', 'explode', 'allowReserved'),
  response: set('description', 'headers', 'content', 'links'),
  example: set('summary', 'description', 'value', 'externalValue'),
  header: set(...PARAMETER.filter((key) => key !== 'name' && key !== 'in')),
  tag: set('name', 'description', 'externalDocs'),
  reference: set('$ref'),
  schema: set(...SCHEMA_30),
  discriminator: set('propertyName', 'mapping'),
  xml: set('name', 'namespace', 'prefix', 'attribute', 'wrapped'),
  securityScheme: set('type', 'description', 'name', 'in', 'scheme', 'bearerFormat', 'flows', 'openIdConnectUrl'),
  oauthFlows: set('implicit', 'password', 'clientCredentials', 'authorizationCode'),
  oauthFlow: set('authorizationUrl', 'tokenUrl', 'refreshUrl', 'scopes'),
}

const KEYS_31: Record<ObjectKind, Set<string>> = {
  ...KEYS_30,
  document: set('openapi', 'info', 'jsonSchemaDialect', 'servers', 'paths', 'webhooks', 'components', 'security', 'tags', 'externalDocs'),
  info: set('title', 'summary', 'description', 'termsOfService', 'contact', 'license', 'version'),
  license: set('name', 'identifier', 'url'),
  components: set('schemas', 'responses', 'parameters', 'examples', 'requestBodies', 'headers', 'securitySchemes', 'links', 'callbacks', 'pathItems'),
  reference: set('$ref', 'summary', 'description'),
  schema: set(...SCHEMA_31),
}

export type Dialect = '3.0' | '3.1'

export function knownKeys(dialect: Dialect, kind: ObjectKind): ReadonlySet<string> {
  return dialect === '3.0' ? KEYS_30[kind] : KEYS_31[kind]
}
