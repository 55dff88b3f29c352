import type { ChangeLevel } from '../changelog.js'
import type { RuleDefinition } from '../rules.js'
import { DOCUMENTATION_RULES, type DocumentationRuleId } from './documentation-rules.js'

/**
 * Where a schema sits decides how bad a change to it is: a client sends what is `in` a request
 * and receives what is `out` (responses, response headers, and webhook payloads, which the API
 * sends to the receiver).
 */
export const SCHEMA_CONTEXTS = {
  'request-parameter': { direction: 'in', section: 'operations', what: 'request parameter' },
  'request-body': { direction: 'in', section: 'operations', what: 'request body' },
  'response-body': { direction: 'out', section: 'operations', what: 'response body' },
  'response-header': { direction: 'out', section: 'operations', what: 'response header' },
  'webhook-payload': { direction: 'out', section: 'webhooks', what: 'webhook payload' },
} as const

export type SchemaContext = keyof typeof SCHEMA_CONTEXTS
export type Direction = 'in' | 'out'

type KindLevels = { readonly in?: ChangeLevel; readonly out?: ChangeLevel; readonly when: string }

/**
 * What can change inside a schema, with its level where a client sends the value (`in`) and where
 * it receives it (`out`). A kind with one direction only is reported under another kind in the
 * other direction (a new required property is `required-property-added` in a request and
 * `property-added` in a response).
 */
export const SCHEMA_KINDS = {
  'type-changed': { in: 'breaking', out: 'breaking', when: 'the type changed' },
  'type-generalized': {
    in: 'info',
    when: 'the type widened so that every old value is still accepted (integer → number, any value)',
  },
  'type-narrowed': {
    out: 'info',
    when: 'the type narrowed so that every new value was already possible (number → integer, any value → a type, a oneOf/anyOf down to one of its scalar alternatives)',
  },
  'format-changed': { in: 'warning', out: 'warning', when: 'the format changed' },
  'became-nullable': { in: 'info', out: 'breaking', when: 'null became a valid value' },
  'became-not-nullable': { in: 'breaking', out: 'info', when: 'null is no longer a valid value' },
  'enum-value-added': { in: 'info', out: 'warning', when: 'an enum value was added' },
  'enum-value-removed': { in: 'breaking', out: 'info', when: 'an enum value was removed' },
  'became-enum': { in: 'breaking', out: 'info', when: 'values became restricted to an enum' },
  'enum-dropped': { in: 'info', out: 'warning', when: 'the enum restriction was removed' },
  'pattern-added': { in: 'warning', out: 'info', when: 'a pattern was added' },
  'pattern-changed': { in: 'warning', out: 'warning', when: 'the pattern changed' },
  'pattern-removed': { in: 'info', out: 'warning', when: 'the pattern was removed' },
  'max-length-decreased': {
    in: 'breaking',
    out: 'info',
    when: 'maxLength was lowered or added',
  },
  'max-length-increased': {
    in: 'info',
    out: 'warning',
    when: 'maxLength was raised or removed',
  },
  'min-length-increased': {
    in: 'breaking',
    out: 'info',
    when: 'minLength was raised or added',
  },
  'min-length-decreased': {
    in: 'info',
    out: 'warning',
    when: 'minLength was lowered or removed',
  },
  'max-decreased': {
    in: 'breaking',
    out: 'info',
    when: 'the maximum (or exclusive maximum) was lowered or added',
  },
  'max-increased': {
    in: 'info',
    out: 'warning',
    when: 'the maximum (or exclusive maximum) was raised or removed',
  },
  'min-increased': {
    in: 'breaking',
    out: 'info',
    when: 'the minimum (or exclusive minimum) was raised or added',
  },
  'min-decreased': {
    in: 'info',
    out: 'warning',
    when: 'the minimum (or exclusive minimum) was lowered or removed',
  },
  'multiple-of-changed': { in: 'breaking', out: 'warning', when: 'multipleOf changed' },
  'max-items-decreased': {
    in: 'breaking',
    out: 'info',
    when: 'maxItems was lowered or added',
  },
  'max-items-increased': {
    in: 'info',
    out: 'warning',
    when: 'maxItems was raised or removed',
  },
  'min-items-increased': {
    in: 'breaking',
    out: 'info',
    when: 'minItems was raised or added',
  },
  'min-items-decreased': {
    in: 'info',
    out: 'warning',
    when: 'minItems was lowered or removed',
  },
  'property-added': { in: 'info', out: 'info', when: 'an optional property was added' },
  'required-property-added': { in: 'breaking', when: 'a required property was added' },
  'property-removed': { in: 'warning', out: 'warning', when: 'an optional property was removed' },
  'required-property-removed': { out: 'breaking', when: 'a required property was removed' },
  'property-became-required': {
    in: 'breaking',
    out: 'info',
    when: 'an optional property became required',
  },
  'property-became-optional': {
    in: 'info',
    out: 'breaking',
    when: 'a required property became optional',
  },
  'property-became-read-only': {
    in: 'warning',
    out: 'info',
    when: 'a property became readOnly (the server ignores it in requests)',
  },
  'property-became-write-only': {
    in: 'info',
    out: 'breaking',
    when: 'a property became writeOnly (responses no longer carry it)',
  },
  'property-deprecated': { in: 'warning', out: 'warning', when: 'a property was deprecated' },
  'additional-properties-closed': {
    in: 'breaking',
    out: 'info',
    when: 'additionalProperties became false',
  },
  'additional-properties-opened': {
    in: 'info',
    out: 'warning',
    when: 'additionalProperties is no longer false',
  },
  'union-member-added': {
    in: 'info',
    out: 'warning',
    when: 'a oneOf/anyOf alternative was added',
  },
  'union-member-removed': {
    in: 'breaking',
    out: 'info',
    when: 'a oneOf/anyOf alternative was removed',
  },
  'discriminator-changed': {
    in: 'breaking',
    out: 'breaking',
    when: 'the discriminator property or its mapping changed',
  },
  'default-changed': { in: 'warning', out: 'info', when: 'the default value changed' },
} as const satisfies Record<string, KindLevels>

export type SchemaKind = keyof typeof SCHEMA_KINDS

type DirectionOf<C extends SchemaContext> = (typeof SCHEMA_CONTEXTS)[C]['direction']
type KindsFor<D extends Direction> = {
  [K in SchemaKind]: (typeof SCHEMA_KINDS)[K] extends { readonly [P in D]: ChangeLevel } ? K : never
}[SchemaKind]

/** `request-body-enum-value-removed`, `response-body-became-nullable`, … */
export type SchemaRuleId = {
  [C in SchemaContext]: `${C}-${KindsFor<DirectionOf<C>>}`
}[SchemaContext]

function rule(level: ChangeLevel, section: RuleDefinition['section'], summary: string) {
  return { level, protocol: 'oas', section, summary } as const
}

const FIXED_RULES = {
  'endpoint-added': rule('info', 'operations', 'an operation was added'),
  'endpoint-removed': rule(
    'breaking',
    'operations',
    'an operation that was not deprecated was removed',
  ),
  'deprecated-endpoint-removed': rule(
    'warning',
    'operations',
    'a deprecated operation was removed',
  ),
  'endpoint-deprecated': rule('warning', 'operations', 'an operation was deprecated'),
  'endpoint-reactivated': rule('info', 'operations', 'an operation is no longer deprecated'),
  'operation-id-added': rule('info', 'operations', 'an operation got an operationId'),
  'operation-id-changed': rule(
    'warning',
    'operations',
    'the operationId changed (generated clients rename the function)',
  ),
  'operation-id-removed': rule('warning', 'operations', 'the operationId was removed'),
  'operation-tag-added': rule('info', 'operations', 'an operation got a tag'),
  'operation-tag-removed': rule('info', 'operations', 'an operation lost a tag'),

  'new-required-request-parameter': rule(
    'breaking',
    'operations',
    'a required parameter was added',
  ),
  'new-optional-request-parameter': rule('info', 'operations', 'an optional parameter was added'),
  'request-parameter-removed': rule('warning', 'operations', 'a parameter was removed'),
  'request-parameter-became-required': rule(
    'breaking',
    'operations',
    'an optional parameter became required',
  ),
  'request-parameter-became-optional': rule(
    'info',
    'operations',
    'a required parameter became optional',
  ),
  'request-parameter-deprecated': rule('warning', 'operations', 'a parameter was deprecated'),
  'request-parameter-style-changed': rule(
    'breaking',
    'operations',
    'how a parameter is serialised (style, explode) changed',
  ),
  'request-parameter-media-type-changed': rule(
    'breaking',
    'operations',
    "the media type of a parameter's `content` changed",
  ),

  'new-required-request-body': rule('breaking', 'operations', 'a required request body was added'),
  'new-optional-request-body': rule('info', 'operations', 'an optional request body was added'),
  'request-body-removed': rule('warning', 'operations', 'the request body was removed'),
  'request-body-became-required': rule(
    'breaking',
    'operations',
    'the request body became required',
  ),
  'request-body-became-optional': rule('info', 'operations', 'the request body became optional'),
  'request-body-media-type-added': rule('info', 'operations', 'a request media type was added'),
  'request-body-media-type-removed': rule(
    'breaking',
    'operations',
    'a request media type was removed',
  ),

  'response-status-added': rule('info', 'operations', 'a response status was added'),
  'response-success-status-removed': rule(
    'breaking',
    'operations',
    'a 1XX/2XX/3XX response status was removed',
  ),
  'response-non-success-status-removed': rule(
    'warning',
    'operations',
    'a 4XX/5XX or default response was removed',
  ),
  'response-media-type-added': rule('info', 'operations', 'a response media type was added'),
  'response-media-type-removed': rule(
    'breaking',
    'operations',
    'a response media type was removed',
  ),
  'response-header-added': rule('info', 'operations', 'a response header was added'),
  'response-required-header-removed': rule(
    'breaking',
    'operations',
    'a required response header was removed',
  ),
  'response-optional-header-removed': rule(
    'warning',
    'operations',
    'an optional response header was removed',
  ),
  'response-header-became-optional': rule(
    'breaking',
    'operations',
    'a required response header became optional',
  ),
  'response-header-became-required': rule(
    'info',
    'operations',
    'an optional response header became required',
  ),

  'endpoint-security-added': rule(
    'breaking',
    'operations',
    'an operation that allowed anonymous calls now requires authentication',
  ),
  'endpoint-security-removed': rule(
    'info',
    'operations',
    'an operation now allows anonymous calls',
  ),
  'endpoint-security-alternative-added': rule(
    'info',
    'operations',
    'a new way to authenticate (security requirement) was added',
  ),
  'endpoint-security-alternative-removed': rule(
    'breaking',
    'operations',
    'a way to authenticate (security requirement) was removed',
  ),
  'endpoint-security-scope-added': rule(
    'breaking',
    'operations',
    'a security requirement needs an additional scope',
  ),
  'endpoint-security-scope-removed': rule(
    'info',
    'operations',
    'a security requirement needs one scope less',
  ),

  'webhook-added': rule('info', 'webhooks', 'a webhook was added'),
  'webhook-removed': rule(
    'warning',
    'webhooks',
    'a webhook was removed (receivers stop getting it)',
  ),
  'webhook-deprecated': rule('warning', 'webhooks', 'a webhook was deprecated'),
  'webhook-payload-added': rule('info', 'webhooks', 'a webhook now carries a payload'),
  'webhook-payload-removed': rule('warning', 'webhooks', 'a webhook no longer carries a payload'),
  'webhook-payload-media-type-added': rule(
    'info',
    'webhooks',
    'a webhook payload media type was added',
  ),
  'webhook-payload-media-type-removed': rule(
    'warning',
    'webhooks',
    'a webhook payload media type was removed',
  ),

  'security-scheme-added': rule('info', 'securitySchemes', 'a security scheme was added'),
  'security-scheme-removed': rule('warning', 'securitySchemes', 'a security scheme was removed'),
  'security-scheme-type-changed': rule(
    'breaking',
    'securitySchemes',
    'the type of a security scheme (or its HTTP scheme) changed',
  ),
  'security-scheme-api-key-changed': rule(
    'breaking',
    'securitySchemes',
    'the name or location of an API key changed',
  ),
  'security-scheme-url-changed': rule(
    'warning',
    'securitySchemes',
    'an OAuth or OpenID Connect URL changed',
  ),
  'oauth-flow-added': rule('info', 'securitySchemes', 'an OAuth flow was added'),
  'oauth-flow-removed': rule('breaking', 'securitySchemes', 'an OAuth flow was removed'),
  'oauth-scope-added': rule('info', 'securitySchemes', 'an OAuth scope was added'),
  'oauth-scope-removed': rule('warning', 'securitySchemes', 'an OAuth scope was removed'),

  'server-added': rule('info', 'servers', 'a server was added'),
  'server-removed': rule('warning', 'servers', 'a server was removed'),
  'tag-added': rule('info', 'tags', 'a tag was added'),
  'tag-removed': rule('info', 'tags', 'a tag was removed'),

  'schema-added': rule('info', 'schemas', 'a component schema was added'),
  'schema-removed': rule('info', 'schemas', 'a component schema was removed'),
  'component-added': rule(
    'info',
    'parameters',
    'a component parameter, request body, response or header was added',
  ),
  'component-removed': rule(
    'info',
    'parameters',
    'a component parameter, request body, response or header was removed',
  ),
  'unused-component-changed': rule(
    'info',
    'schemas',
    'a component that no operation uses changed (one entry per component)',
  ),
} as const satisfies Record<string, RuleDefinition>

export type FixedOasRuleId = keyof typeof FIXED_RULES
export type OasRuleId = FixedOasRuleId | SchemaRuleId | DocumentationRuleId

function schemaRules(): Record<SchemaRuleId, RuleDefinition> {
  const rules: Record<string, RuleDefinition> = {}
  for (const [context, { direction, section, what }] of Object.entries(SCHEMA_CONTEXTS))
    for (const [kind, levels] of Object.entries(SCHEMA_KINDS) as [string, KindLevels][]) {
      const level = levels[direction]
      if (level) rules[`${context}-${kind}`] = rule(level, section, `${what}: ${levels.when}`)
    }
  return rules
}

export const OAS_RULES: Readonly<Record<OasRuleId, RuleDefinition>> = {
  ...FIXED_RULES,
  ...schemaRules(),
  ...DOCUMENTATION_RULES,
}
