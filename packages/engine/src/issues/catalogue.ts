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
  | 'MISSING_RESPONSES'

export type GqlIssueType =
  | 'INVALID_TYPE_DEFINITION'
  | 'INVALID_DEPENDENCY_REF'
  | 'SKIPPED_FIELD_ARGUMENTS'
  | 'NESTED_LIST_LOSSY'
  | 'DROPPED_DIRECTIVE'
  | 'UNKNOWN_TYPE_KIND'
  | 'SKIPPED_FEATURE'

export type IssueType = OasIssueType | GqlIssueType

/** One row of the catalogue; docs/parse-issues.md says when each fires and what it does. */
export type IssueKind<P extends IssueProtocol = IssueProtocol> = {
  readonly protocol: P
  readonly type: P extends 'oas' ? OasIssueType : GqlIssueType
  readonly level: IssueLevel
}

function oas(type: OasIssueType, level: IssueLevel) {
  return Object.freeze({ protocol: 'oas', type, level }) satisfies IssueKind<'oas'>
}
function gql(type: GqlIssueType, level: IssueLevel) {
  return Object.freeze({ protocol: 'gql', type, level }) satisfies IssueKind<'gql'>
}

/** Issue kinds the OpenAPI parser emits, keyed by what happened. */
export const OAS_ISSUES = Object.freeze({
  invalidSchema: oas('INVALID_SCHEMA', 'error'),
  arrayWithoutItems: oas('INVALID_SCHEMA', 'warning'),
  invalidDependencyRef: oas('INVALID_DEPENDENCY_REF', 'error'),
  missingObjectType: oas('MISSING_OBJECT_TYPE', 'debug'),
  missingArrayType: oas('MISSING_ARRAY_TYPE', 'warning'),
  missingBooleanType: oas('MISSING_BOOLEAN_TYPE', 'warning'),
  missingStringType: oas('MISSING_STRING_TYPE', 'warning'),
  unexpectedProperty: oas('UNEXPECTED_PROPERTY', 'warning'),
  invalidOperation: oas('INVALID_OPERATION', 'error'),
  invalidParameter: oas('INVALID_PARAMETER', 'error'),
  invalidResponse: oas('INVALID_RESPONSE', 'error'),
  invalidSecurityScheme: oas('INVALID_SECURITY_SCHEME', 'error'),
  invalidExample: oas('INVALID_EXAMPLE', 'warning'),
  invalidDefault: oas('INVALID_DEFAULT', 'warning'),
  invalidFormat: oas('INVALID_FORMAT', 'debug'),
  invalidNullable: oas('INVALID_NULLABLE', 'warning'),
  exampleAndExamples: oas('EXAMPLE_AND_EXAMPLES_DEFINED', 'warning'),
  invalidEnum: oas('INVALID_ENUM', 'warning'),
  missingResponses: oas('MISSING_RESPONSES', 'warning'),
})

/** Issue kinds the GraphQL parser emits. */
export const GQL_ISSUES = Object.freeze({
  invalidTypeDefinition: gql('INVALID_TYPE_DEFINITION', 'error'),
  invalidDependencyRef: gql('INVALID_DEPENDENCY_REF', 'error'),
  nestedListLossy: gql('NESTED_LIST_LOSSY', 'warning'),
  droppedDirective: gql('DROPPED_DIRECTIVE', 'warning'),
  unknownTypeKind: gql('UNKNOWN_TYPE_KIND', 'error'),
})

/** Types that are declared for compatibility and never emitted. */
export const RESERVED_ISSUE_TYPES = Object.freeze([
  { protocol: 'oas', type: 'UNEXPECTED_FORMAT' },
  { protocol: 'gql', type: 'SKIPPED_FEATURE' },
  // The arguments of every field are modelled (`GqlModel.fieldArguments`): none is dropped.
  { protocol: 'gql', type: 'SKIPPED_FIELD_ARGUMENTS' },
] as const)

/** Every emitted kind, for documentation and tests. */
export const ISSUE_CATALOGUE: readonly IssueKind[] = Object.freeze([
  ...Object.values(OAS_ISSUES),
  ...Object.values(GQL_ISSUES),
])
