import type { ChangeLevel } from '../changelog.js'
import type { RuleDefinition } from '../rules.js'
import { DOCUMENTATION_RULES, type DocumentationRuleId } from './documentation-rules.js'
import { SDK_RULES, type SdkRuleId } from './sdk-rules.js'

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

type KindLevels = {
  readonly in?: ChangeLevel
  readonly out?: ChangeLevel
  /** A level that differs from the direction's in one context (a parameter's default, say). */
  readonly at?: Partial<Record<SchemaContext, ChangeLevel>>
  readonly when: string
}

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
  'format-changed': {
    in: 'breaking',
    out: 'breaking',
    when: 'the format changed (other than int32 → int64 or float → double, judged as a type)',
  },
  'format-added': { in: 'breaking', out: 'info', when: 'a format was added' },
  'format-removed': { in: 'info', out: 'breaking', when: 'the format was removed' },
  'became-nullable': { in: 'info', out: 'breaking', when: 'null became a valid value' },
  'became-not-nullable': { in: 'breaking', out: 'info', when: 'null is no longer a valid value' },
  'enum-value-added': { in: 'info', out: 'warning', when: 'an enum value was added' },
  'enum-value-removed': { in: 'breaking', out: 'info', when: 'an enum value was removed' },
  'became-enum': { in: 'breaking', out: 'info', when: 'values became restricted to an enum' },
  'enum-dropped': { in: 'info', out: 'warning', when: 'the enum restriction was removed' },
  'pattern-added': { in: 'breaking', out: 'info', when: 'a pattern was added' },
  'pattern-changed': { in: 'warning', out: 'warning', when: 'the pattern changed' },
  'pattern-removed': { in: 'info', out: 'breaking', when: 'the pattern was removed' },
  'max-length-decreased': { in: 'breaking', out: 'info', when: 'maxLength was lowered' },
  'max-length-increased': {
    in: 'info',
    out: 'breaking',
    when: 'maxLength was raised or removed',
  },
  'min-length-increased': {
    in: 'breaking',
    out: 'info',
    when: 'minLength was raised or added',
  },
  'min-length-decreased': {
    in: 'info',
    out: 'breaking',
    when: 'minLength was lowered or removed',
  },
  'max-decreased': {
    in: 'breaking',
    out: 'info',
    when: 'the maximum (or exclusive maximum) was lowered',
  },
  'max-increased': {
    in: 'info',
    out: 'breaking',
    when: 'the maximum (or exclusive maximum) was raised or removed',
  },
  'min-increased': {
    in: 'breaking',
    out: 'info',
    when: 'the minimum (or exclusive minimum) was raised',
  },
  'min-decreased': {
    in: 'info',
    out: 'breaking',
    when: 'the minimum (or exclusive minimum) was lowered or removed',
  },
  'multiple-of-changed': {
    in: 'breaking',
    out: 'warning',
    when: 'multipleOf changed to a value neither a multiple nor a divisor of the old',
  },
  'multiple-of-narrowed': {
    in: 'breaking',
    out: 'info',
    when: 'multipleOf was added, or changed to a multiple of the old',
  },
  'multiple-of-widened': {
    in: 'info',
    out: 'warning',
    when: 'multipleOf was removed, or changed to a divisor of the old',
  },
  'max-items-decreased': { in: 'breaking', out: 'info', when: 'maxItems was lowered' },
  'max-items-increased': {
    in: 'info',
    out: 'breaking',
    when: 'maxItems was raised or removed',
  },
  'unique-items-added': { in: 'breaking', out: 'info', when: 'uniqueItems was set' },
  'unique-items-removed': { in: 'info', out: 'warning', when: 'uniqueItems was removed' },
  'min-items-increased': { in: 'breaking', out: 'info', when: 'minItems was raised' },
  'min-items-decreased': {
    in: 'info',
    out: 'breaking',
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
    in: 'breaking',
    out: 'info',
    when: 'a property became readOnly (the server ignores it in requests)',
  },
  'property-became-write-only': {
    in: 'info',
    out: 'breaking',
    when: 'a property became writeOnly (responses no longer carry it)',
  },
  'property-deprecated': { in: 'info', out: 'info', when: 'a property was deprecated' },
  'schema-deprecated': {
    in: 'info',
    out: 'info',
    when: 'the schema itself (not a property) was deprecated',
  },
  'schema-reactivated': {
    in: 'info',
    out: 'info',
    when: 'the schema itself (not a property) is no longer deprecated',
  },
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
    out: 'breaking',
    when: 'a oneOf/anyOf alternative was added',
  },
  'union-member-removed': {
    in: 'breaking',
    out: 'info',
    when: 'a oneOf/anyOf alternative was removed',
  },
  'default-changed': {
    in: 'warning',
    out: 'info',
    at: { 'request-parameter': 'breaking' },
    when: 'the default value changed',
  },
  'max-length-set': {
    in: 'warning',
    out: 'info',
    when: 'maxLength was added where there was none',
  },
  'max-set': {
    in: 'warning',
    out: 'info',
    when: 'a maximum (or exclusive maximum) was added where there was none',
  },
  'min-set': {
    in: 'warning',
    out: 'info',
    when: 'a minimum (or exclusive minimum) was added where there was none',
  },
  'max-items-set': { in: 'warning', out: 'info', when: 'maxItems was added where there was none' },
  'min-items-set': { in: 'warning', out: 'info', when: 'minItems was added where there was none' },
  'const-added': { in: 'breaking', out: 'info', when: 'values became restricted to a const' },
  'const-changed': { in: 'breaking', out: 'breaking', when: 'the const value changed' },
  'const-removed': { in: 'info', out: 'breaking', when: 'the const restriction was removed' },
  'default-added': {
    in: 'info',
    out: 'info',
    at: { 'request-parameter': 'breaking' },
    when: 'a default value was added',
  },
  'default-removed': {
    in: 'warning',
    out: 'info',
    at: { 'request-parameter': 'breaking' },
    when: 'the default value was removed',
  },
  'property-no-longer-read-only': {
    in: 'info',
    out: 'info',
    when: 'a property is no longer readOnly (a required one becomes required in requests)',
  },
  'property-no-longer-write-only': {
    in: 'info',
    out: 'info',
    when: 'a property is no longer writeOnly (responses may carry it)',
  },
  'property-reactivated': { in: 'info', out: 'info', when: 'a property is no longer deprecated' },
  'extensible-enum-value-added': {
    in: 'info',
    out: 'info',
    when: 'an `x-extensible-enum` value was added (the enum is open: clients expect new values)',
  },
  'extensible-enum-value-removed': {
    in: 'breaking',
    out: 'info',
    when: 'an `x-extensible-enum` value was removed',
  },
  'discriminator-added': { in: 'info', out: 'info', when: 'a discriminator was added' },
  'discriminator-removed': { in: 'info', out: 'breaking', when: 'the discriminator was removed' },
  'discriminator-property-changed': {
    in: 'breaking',
    out: 'breaking',
    when: 'the discriminator property changed',
  },
  'discriminator-mapping-added': {
    in: 'info',
    out: 'info',
    when: 'a discriminator mapping entry was added',
  },
  'discriminator-mapping-removed': {
    in: 'breaking',
    out: 'info',
    when: 'a discriminator mapping entry was removed',
  },
  'discriminator-mapping-changed': {
    in: 'breaking',
    out: 'breaking',
    when: 'a discriminator value now maps to another schema',
  },
  'wrapped-in-union': {
    in: 'info',
    out: 'breaking',
    when: 'the schema became one alternative of a oneOf/anyOf whose other alternatives cannot match the same values',
  },
  'one-of-overlap-added': {
    in: 'breaking',
    out: 'breaking',
    when: 'a oneOf gained an alternative (or wrapped the schema beside one) that may match the same values as another, so a value matching both is rejected',
  },
  'any-of-became-one-of': {
    in: 'breaking',
    out: 'info',
    when: 'an anyOf whose alternatives may overlap became a oneOf (a value matching two is rejected)',
  },
  'one-of-became-any-of': {
    in: 'info',
    out: 'warning',
    when: 'a oneOf whose alternatives may overlap became an anyOf (a value may match two)',
  },
  // JSON Schema 2020-12 applicators
  'prefix-item-added': {
    in: 'info',
    out: 'breaking',
    when: 'a tuple closed by items: false got one more prefixItems position',
  },
  'prefix-item-removed': {
    in: 'breaking',
    out: 'info',
    when: 'a tuple closed by items: false lost a prefixItems position',
  },
  'contains-added': { in: 'breaking', out: 'info', when: 'contains was added' },
  'contains-removed': { in: 'info', out: 'breaking', when: 'contains was removed' },
  'min-contains-increased': { in: 'breaking', out: 'info', when: 'minContains was raised' },
  'min-contains-decreased': { in: 'info', out: 'breaking', when: 'minContains was lowered' },
  'max-contains-decreased': {
    in: 'breaking',
    out: 'info',
    when: 'maxContains was lowered or added',
  },
  'max-contains-increased': {
    in: 'info',
    out: 'breaking',
    when: 'maxContains was raised or removed',
  },
  'unevaluated-items-closed': {
    in: 'breaking',
    out: 'info',
    when: 'unevaluatedItems was added or became false',
  },
  'unevaluated-items-opened': {
    in: 'info',
    out: 'breaking',
    when: 'unevaluatedItems was removed or is no longer false',
  },
  'pattern-property-added': {
    in: 'breaking',
    out: 'info',
    when: 'a patternProperties entry was added',
  },
  'pattern-property-removed': {
    in: 'info',
    out: 'breaking',
    when: 'a patternProperties entry was removed',
  },
  'property-names-added': { in: 'breaking', out: 'info', when: 'propertyNames was added' },
  'property-names-removed': { in: 'info', out: 'breaking', when: 'propertyNames was removed' },
  'dependent-required-added': {
    in: 'breaking',
    out: 'info',
    when: 'a property became required when another is present (dependentRequired)',
  },
  'dependent-required-removed': {
    in: 'info',
    out: 'breaking',
    when: 'a property is no longer required when another is present (dependentRequired)',
  },
  'dependent-schema-added': {
    in: 'breaking',
    out: 'info',
    when: 'a dependentSchemas entry was added',
  },
  'dependent-schema-removed': {
    in: 'info',
    out: 'breaking',
    when: 'a dependentSchemas entry was removed',
  },
  'unevaluated-properties-closed': {
    in: 'breaking',
    out: 'info',
    when: 'unevaluatedProperties was added or became false',
  },
  'unevaluated-properties-opened': {
    in: 'info',
    out: 'breaking',
    when: 'unevaluatedProperties was removed or is no longer false',
  },
  'content-media-type-changed': {
    in: 'breaking',
    out: 'breaking',
    when: 'contentMediaType was added, removed or changed',
  },
  'content-encoding-changed': {
    in: 'breaking',
    out: 'breaking',
    when: 'contentEncoding was added, removed or changed',
  },
  'content-schema-added': { in: 'breaking', out: 'info', when: 'contentSchema was added' },
  'content-schema-removed': { in: 'info', out: 'breaking', when: 'contentSchema was removed' },
  'not-schema-added': {
    in: 'breaking',
    out: 'info',
    when: 'a not schema was added (values matching it are rejected)',
  },
  'not-schema-removed': { in: 'info', out: 'breaking', when: 'the not schema was removed' },
  'not-schema-changed': { in: 'breaking', out: 'breaking', when: 'the not schema changed' },
  'conditional-added': {
    in: 'breaking',
    out: 'info',
    when: 'an if/then/else condition, or a then or else branch, was added',
  },
  'conditional-removed': {
    in: 'info',
    out: 'breaking',
    when: 'an if/then/else condition, or a then or else branch, was removed',
  },
  'conditional-changed': {
    in: 'breaking',
    out: 'breaking',
    when: 'the if schema of an if/then/else condition changed',
  },
  'max-properties-decreased': { in: 'breaking', out: 'info', when: 'maxProperties was lowered' },
  'max-properties-increased': {
    in: 'info',
    out: 'breaking',
    when: 'maxProperties was raised or removed',
  },
  'max-properties-set': {
    in: 'warning',
    out: 'info',
    when: 'maxProperties was added where there was none',
  },
  'min-properties-increased': { in: 'breaking', out: 'info', when: 'minProperties was raised' },
  'min-properties-decreased': {
    in: 'info',
    out: 'breaking',
    when: 'minProperties was lowered or removed',
  },
  'min-properties-set': {
    in: 'warning',
    out: 'info',
    when: 'minProperties was added where there was none',
  },
  'inapplicable-keyword-changed': {
    in: 'info',
    out: 'info',
    when: 'a keyword that does not apply to the type (minItems on a string, maxLength on an integer) was added, removed or changed: validators ignore it',
  },
  'all-of-member-added': {
    in: 'info',
    out: 'info',
    when: 'an allOf got a `$ref` member (what it adds to the merged schema has rules of its own)',
  },
  'all-of-member-removed': {
    in: 'info',
    out: 'info',
    when: 'an allOf lost a `$ref` member (what it took from the merged schema has rules of its own)',
  },
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
  'deprecated-endpoint-removed': rule('info', 'operations', 'a deprecated operation was removed'),
  'endpoint-deprecated': rule('info', 'operations', 'an operation was deprecated'),
  'endpoint-reactivated': rule('info', 'operations', 'an operation is no longer deprecated'),
  'operation-id-added': rule('info', 'operations', 'an operation got an operationId'),
  'operation-id-changed': rule(
    'info',
    'operations',
    'the operationId changed (the wire is the same; `--profile sdk` judges generated clients)',
  ),
  'operation-id-removed': rule('info', 'operations', 'the operationId was removed'),
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
  'request-parameter-deprecated': rule('info', 'operations', 'a parameter was deprecated'),
  'request-parameter-reactivated': rule(
    'info',
    'operations',
    'a parameter is no longer deprecated',
  ),
  'deprecated-request-parameter-removed': rule(
    'info',
    'operations',
    'a deprecated parameter was removed',
  ),
  'request-parameter-style-changed': rule(
    'breaking',
    'operations',
    'how a parameter is serialised (style, explode) changed',
  ),
  'request-parameter-explode-changed': rule(
    'info',
    'operations',
    'explode of a parameter changed where it cannot change the request (a scalar value, or an array in style `simple`)',
  ),
  'request-parameter-allow-reserved-set': rule(
    'info',
    'operations',
    'a query parameter now accepts reserved characters without percent-encoding (`allowReserved`)',
  ),
  'request-parameter-allow-reserved-cleared': rule(
    'breaking',
    'operations',
    'a query parameter no longer accepts reserved characters without percent-encoding (`allowReserved` cleared)',
  ),
  'request-parameter-media-type-changed': rule(
    'breaking',
    'operations',
    "the media type of a parameter's `content` changed",
  ),

  'new-required-request-body': rule('breaking', 'operations', 'a required request body was added'),
  'new-optional-request-body': rule('info', 'operations', 'an optional request body was added'),
  'request-body-removed': rule(
    'breaking',
    'operations',
    'the request body was removed (a server that does not expect one may reject it)',
  ),
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
  'request-body-media-type-schema-added': rule(
    'breaking',
    'operations',
    'a request media type that accepted any value got a schema',
  ),
  'request-body-media-type-schema-removed': rule(
    'info',
    'operations',
    'a request media type lost its schema (any value is accepted)',
  ),

  'response-status-added': rule('info', 'operations', 'a response status was added'),
  'response-success-status-removed': rule(
    'breaking',
    'operations',
    'a 1XX/2XX/3XX response status was removed',
  ),
  'response-non-success-status-removed': rule(
    'info',
    'operations',
    'a 4XX/5XX or default response was removed',
  ),
  'response-media-type-added': rule('info', 'operations', 'a response media type was added'),
  'response-media-type-removed': rule(
    'breaking',
    'operations',
    'a response media type was removed',
  ),
  'response-media-type-narrowed': rule(
    'info',
    'operations',
    'a response media type became a narrower one (`application/json` to `application/problem+json`, or a parameter such as `charset` added)',
  ),
  'response-media-type-widened': rule(
    'breaking',
    'operations',
    'a response media type became a wider one (`application/problem+json` to `application/json`, or a parameter removed)',
  ),
  'response-media-type-parameter-changed': rule(
    'breaking',
    'operations',
    'a parameter of a response media type changed its value (`charset=utf-8` to `charset=utf-16`)',
  ),
  'response-media-type-changed': rule(
    'warning',
    'operations',
    'a response media type changed its name and parameters in ways that neither narrow nor widen it',
  ),
  'response-media-type-schema-added': rule(
    'info',
    'operations',
    'a response media type that could hold any value got a schema',
  ),
  'response-media-type-schema-removed': rule(
    'breaking',
    'operations',
    'a response media type lost its schema (it may now hold any value)',
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
  'response-header-deprecated': rule('info', 'operations', 'a response header was deprecated'),
  'response-header-reactivated': rule(
    'info',
    'operations',
    'a response header is no longer deprecated',
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
  'endpoint-security-alternative-relaxed': rule(
    'info',
    'operations',
    'a security requirement now asks for part of what it asked (fewer schemes or scopes)',
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
  // The document-level `security`, as the operations without their own inherit it.
  'api-security-added': rule(
    'warning',
    'operations',
    'the document-level security now requires authentication where it required none (operations without their own `security`)',
  ),
  'api-security-removed': rule(
    'info',
    'operations',
    'the document-level security now allows anonymous calls',
  ),
  'api-security-alternative-added': rule(
    'info',
    'operations',
    'a way to authenticate was added to the document-level security',
  ),
  'api-security-alternative-relaxed': rule(
    'info',
    'operations',
    'a document-level security requirement now asks for part of what it asked (fewer schemes or scopes)',
  ),
  'api-security-alternative-removed': rule(
    'breaking',
    'operations',
    'a way to authenticate was removed from the document-level security',
  ),
  'api-security-scope-added': rule(
    'breaking',
    'operations',
    'a document-level security requirement needs an additional scope',
  ),
  'api-security-scope-removed': rule(
    'info',
    'operations',
    'a document-level security requirement needs one scope less',
  ),

  'webhook-added': rule('info', 'webhooks', 'a webhook was added'),
  'webhook-removed': rule(
    'breaking',
    'webhooks',
    'a webhook that was not deprecated was removed (receivers stop getting it)',
  ),
  'deprecated-webhook-removed': rule('info', 'webhooks', 'a deprecated webhook was removed'),
  'webhook-deprecated': rule('info', 'webhooks', 'a webhook was deprecated'),
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
  'webhook-payload-media-type-schema-added': rule(
    'info',
    'webhooks',
    'a webhook payload media type that could hold any value got a schema',
  ),
  'webhook-payload-media-type-schema-removed': rule(
    'warning',
    'webhooks',
    'a webhook payload media type lost its schema (it may now hold any value)',
  ),

  'security-scheme-added': rule('info', 'securitySchemes', 'a security scheme was added'),
  'security-scheme-removed': rule('info', 'securitySchemes', 'a security scheme was removed'),
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
  'security-scheme-bearer-format-changed': rule(
    'warning',
    'securitySchemes',
    'the bearer token format of an HTTP bearer scheme changed',
  ),
  'security-scheme-url-changed': rule(
    'breaking',
    'securitySchemes',
    'an OAuth or OpenID Connect URL changed',
  ),
  'oauth-flow-added': rule('info', 'securitySchemes', 'an OAuth flow was added'),
  'oauth-flow-removed': rule('breaking', 'securitySchemes', 'an OAuth flow was removed'),
  'oauth-scope-added': rule('info', 'securitySchemes', 'an OAuth scope was added'),
  'oauth-scope-removed': rule('warning', 'securitySchemes', 'an OAuth scope was removed'),
  'oauth-scope-description-changed': rule(
    'info',
    'securitySchemes',
    'the description of an OAuth scope changed',
  ),

  // What an operation's `x-sunset` and `x-stability-level` promise.
  'endpoint-sunset-removed': rule(
    'breaking',
    'operations',
    'a deprecated operation lost its `x-sunset` date',
  ),
  'endpoint-sunset-moved-earlier': rule(
    'breaking',
    'operations',
    'the `x-sunset` date of a deprecated operation moved earlier',
  ),
  'endpoint-removed-before-sunset': rule(
    'breaking',
    'operations',
    'a deprecated operation was removed before its `x-sunset` date',
  ),
  'endpoint-stability-decreased': rule(
    'breaking',
    'operations',
    'the `x-stability-level` of an operation decreased (stable → beta → alpha → draft)',
  ),
  'endpoint-stability-increased': rule(
    'info',
    'operations',
    'the `x-stability-level` of an operation increased',
  ),
  'unstable-endpoint-removed': rule(
    'info',
    'operations',
    'an operation whose `x-stability-level` is draft or alpha was removed',
  ),
  'request-parameter-removed-before-sunset': rule(
    'breaking',
    'operations',
    'a deprecated parameter was removed before its `x-sunset` date',
  ),
  'request-parameter-sunset-removed': rule(
    'breaking',
    'operations',
    'a deprecated parameter lost its `x-sunset` date',
  ),
  'request-parameter-sunset-moved-earlier': rule(
    'breaking',
    'operations',
    'the `x-sunset` date of a deprecated parameter moved earlier',
  ),
  'request-parameter-sunset-in-past': rule(
    'breaking',
    'operations',
    'a parameter was deprecated with an `x-sunset` date that has already passed',
  ),
  'endpoint-sunset-in-past': rule(
    'breaking',
    'operations',
    'an operation was deprecated with an `x-sunset` date that has already passed',
  ),
  // Rules that only a policy turns on (DiffOptions.policies, `svc diff --policy`).
  'request-parameter-deprecated-without-sunset': rule(
    'breaking',
    'operations',
    'a parameter was deprecated without an `x-sunset` date',
  ),
  'request-parameter-sunset-invalid': rule(
    'breaking',
    'operations',
    'the `x-sunset` of a deprecated parameter is not a date (YYYY-MM-DD)',
  ),
  'endpoint-deprecated-without-sunset': rule(
    'breaking',
    'operations',
    'an operation was deprecated without an `x-sunset` date',
  ),
  'endpoint-sunset-invalid': rule(
    'breaking',
    'operations',
    'the `x-sunset` of a deprecated operation is not a date (YYYY-MM-DD)',
  ),
  'endpoint-stability-invalid': rule(
    'breaking',
    'operations',
    'the `x-stability-level` of an operation is not draft, alpha, beta or stable',
  ),
  'api-version-not-bumped': rule(
    'warning',
    'api',
    'the document has breaking changes and `info.version` did not change',
  ),
  'api-major-version-not-bumped': rule(
    'warning',
    'api',
    'the document has breaking changes and `info.version` rose without a major (semver) bump',
  ),
  'api-version-decreased': rule(
    'warning',
    'api',
    'the document has breaking changes and `info.version` went down (semver)',
  ),

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
  'request-parameter-allow-empty-value-set': rule(
    'info',
    'operations',
    'a query parameter may now be sent with an empty value (`allowEmptyValue`)',
  ),
  'request-parameter-allow-empty-value-cleared': rule(
    'breaking',
    'operations',
    'a query parameter may no longer be sent with an empty value (`allowEmptyValue` cleared)',
  ),
  'response-header-style-changed': rule(
    'breaking',
    'operations',
    'how a response header is serialised changed (style, a Swagger 2.0 collectionFormat, or explode of a value that may be an object)',
  ),
  'response-header-explode-changed': rule(
    'info',
    'operations',
    'explode of a response header changed where the value cannot be an object (`simple` writes scalars and arrays alike)',
  ),
} as const satisfies Record<string, RuleDefinition>

export type FixedOasRuleId = keyof typeof FIXED_RULES
export type OasRuleId = FixedOasRuleId | SchemaRuleId | DocumentationRuleId | SdkRuleId

function schemaRules(): Record<SchemaRuleId, RuleDefinition> {
  const rules: Record<string, RuleDefinition> = {}
  for (const [context, { direction, section, what }] of Object.entries(SCHEMA_CONTEXTS))
    for (const [kind, levels] of Object.entries(SCHEMA_KINDS) as [string, KindLevels][]) {
      const level = levels.at?.[context as SchemaContext] ?? levels[direction]
      if (level) rules[`${context}-${kind}`] = rule(level, section, `${what}: ${levels.when}`)
    }
  return rules
}

export const OAS_RULES: Readonly<Record<OasRuleId, RuleDefinition>> = {
  ...FIXED_RULES,
  ...schemaRules(),
  ...DOCUMENTATION_RULES,
  ...SDK_RULES,
}
