/**
 * The closed list of parse-issue types (SPEC §7.4, §7.5). A type's level is fixed; the only
 * type with two levels is `INVALID_SCHEMA`, whose warning variant marks an array without `items`.
 */
export type IssueLevel = 'error' | 'warning' | 'debug'
export type IssueProtocol = 'oas' | 'gql'

export type OasIssueType =
  | 'INVALID_SCHEMA'
  | 'INVALID_DEPENDENCY_REF'
  | 'MISSING_OBJECT_TYPE'
  | 'MISSING_ARRAY_TYPE'
  | 'MISSING_BOOLEAN_TYPE'
  | 'MISSING_STRING_TYPE'
  | 'UNEXPECTED_PROPERTY'
  | 'INVALID_OPERATION'
  | 'INVALID_PARAMETER'
  | 'INVALID_RESPONSE'
  | 'INVALID_SECURITY_SCHEME'
  | 'INVALID_EXAMPLE'
  | 'INVALID_DEFAULT'
  | 'INVALID_FORMAT'
  | 'UNEXPECTED_FORMAT'
  | 'INVALID_NULLABLE'
  | 'EXAMPLE_AND_EXAMPLES_DEFINED'
  | 'INVALID_ENUM'

export type GqlIssueType =
  | 'INVALID_TYPE_DEFINITION'
  | 'INVALID_DEPENDENCY_REF'
  | 'SKIPPED_FIELD_ARGUMENTS'
  | 'NESTED_LIST_LOSSY'
  | 'DROPPED_DIRECTIVE'
  | 'UNKNOWN_TYPE_KIND'
  | 'SKIPPED_FEATURE'

export type IssueType = OasIssueType | GqlIssueType

/** One row of the catalogue, as documented in docs/parse-issues.md. */
export type IssueKind<P extends IssueProtocol = IssueProtocol> = {
  readonly protocol: P
  readonly type: P extends 'oas' ? OasIssueType : GqlIssueType
  readonly level: IssueLevel
  readonly firesWhen: string
  readonly effect: string
}

function oas(type: OasIssueType, level: IssueLevel, firesWhen: string, effect: string) {
  return Object.freeze({ protocol: 'oas', type, level, firesWhen, effect }) satisfies IssueKind<'oas'>
}
function gql(type: GqlIssueType, level: IssueLevel, firesWhen: string, effect: string) {
  return Object.freeze({ protocol: 'gql', type, level, firesWhen, effect }) satisfies IssueKind<'gql'>
}

/** Issue kinds the OpenAPI parser emits, keyed by what happened. */
export const OAS_ISSUES = Object.freeze({
  invalidSchema: oas('INVALID_SCHEMA', 'error', 'parsing a schema component threw (conflicting allOf members, empty oneOf/anyOf, cycle in allOf)', 'schema dropped'),
  arrayWithoutItems: oas('INVALID_SCHEMA', 'warning', 'an array schema has no `items`', 'items are treated as unknown values'),
  invalidDependencyRef: oas('INVALID_DEPENDENCY_REF', 'error', 'a `$ref` target failed to parse or does not exist', 'the referencing item is pruned; one hop only'),
  missingObjectType: oas('MISSING_OBJECT_TYPE', 'debug', 'a 3.0 schema has `properties` without `type: object`', 'type inferred as object'),
  missingArrayType: oas('MISSING_ARRAY_TYPE', 'warning', 'a schema has `items` without `type: array`', 'type inferred as array'),
  missingBooleanType: oas('MISSING_BOOLEAN_TYPE', 'warning', 'a boolean default or example without `type: boolean`', 'type inferred as boolean'),
  missingStringType: oas('MISSING_STRING_TYPE', 'warning', 'a string default, example, string-only enum or recognised string format without `type: string`', 'type inferred as string'),
  unexpectedProperty: oas('UNEXPECTED_PROPERTY', 'warning', 'a property that is not part of the OpenAPI 3.0 object at that position', 'property ignored'),
  invalidOperation: oas('INVALID_OPERATION', 'error', 'a path operation (or webhook operation) could not be parsed', 'that (path, method) is dropped'),
  invalidParameter: oas('INVALID_PARAMETER', 'error', 'a reusable parameter under `components.parameters` could not be parsed', 'parameter dropped; referencing operations are pruned'),
  invalidResponse: oas('INVALID_RESPONSE', 'error', 'a response entry could not be parsed', 'that (status, response) pair is dropped'),
  invalidSecurityScheme: oas('INVALID_SECURITY_SCHEME', 'error', 'a scheme under `components.securitySchemes` is not http, apiKey, oauth2 or openIdConnect, or is malformed', 'scheme dropped'),
  invalidExample: oas('INVALID_EXAMPLE', 'warning', 'an example does not conform to its schema', 'example dropped'),
  invalidDefault: oas('INVALID_DEFAULT', 'warning', 'a default does not conform to the declared type', 'default dropped'),
  invalidFormat: oas('INVALID_FORMAT', 'debug', 'a number/integer format is not representable', 'format hint dropped'),
  invalidNullable: oas('INVALID_NULLABLE', 'warning', '`nullable` conflicts with other type constraints (for example no type)', 'nullable is ignored'),
  exampleAndExamples: oas('EXAMPLE_AND_EXAMPLES_DEFINED', 'warning', 'both `example` and `examples` on one node', 'the singular `example` wins'),
  invalidEnum: oas('INVALID_ENUM', 'warning', 'an enum member does not match the declared type (a null member is tolerated when nullable)', 'the whole enum is dropped'),
})

/** Issue kinds the GraphQL parser emits. */
export const GQL_ISSUES = Object.freeze({
  invalidTypeDefinition: gql('INVALID_TYPE_DEFINITION', 'error', 'a type definition is invalid', 'type dropped; its consumers are pruned'),
  invalidDependencyRef: gql('INVALID_DEPENDENCY_REF', 'error', 'a referenced type failed or does not exist', 'the consuming type or root field is pruned'),
  skippedFieldArguments: gql('SKIPPED_FIELD_ARGUMENTS', 'warning', 'a field of a non-root type has arguments', 'field kept, arguments dropped'),
  nestedListLossy: gql('NESTED_LIST_LOSSY', 'warning', 'a nested list type (`[[T]]` or deeper)', 'collapsed to an unknown value; field kept'),
  droppedDirective: gql('DROPPED_DIRECTIVE', 'warning', 'a directive other than `@deprecated` is applied', 'directive dropped'),
  unknownTypeKind: gql('UNKNOWN_TYPE_KIND', 'error', 'a type kind matches no known check (defensive)', 'field falls back to unknown'),
})

/** Types that are declared for compatibility and never emitted. */
export const RESERVED_ISSUE_TYPES = Object.freeze([
  { protocol: 'oas', type: 'UNEXPECTED_FORMAT' },
  { protocol: 'gql', type: 'SKIPPED_FEATURE' },
] as const)

/** Every emitted kind, for documentation and tests. */
export const ISSUE_CATALOGUE: readonly IssueKind[] = Object.freeze([
  ...Object.values(OAS_ISSUES),
  ...Object.values(GQL_ISSUES),
])
