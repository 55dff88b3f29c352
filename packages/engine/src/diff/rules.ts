import type { ChangeLevel, ChangeSection } from './changelog.js'
import { GQL_RULES } from './gql/rules.js'
import { OAS_RULES, type OasRuleId } from './oas/rules.js'
import { PARSE_FAILURE_RULES, type ParseFailureRuleId } from './parse-failure-rules.js'

/** One entry of the rule catalogue (docs/diff-rules.md lists every one). */
export type RuleDefinition = {
  readonly level: ChangeLevel
  readonly protocol: 'oas' | 'gql' | 'any'
  /** The section whose counts the rule's changes belong to. */
  readonly section: ChangeSection | 'api'
  /** One line for the catalogue: when the rule fires. */
  readonly summary: string
}

export type RuleId =
  OasRuleId | keyof typeof GQL_RULES | keyof typeof COMMON_RULES | ParseFailureRuleId

const COMMON_RULES = {
  'api-protocol-changed': {
    level: 'breaking',
    protocol: 'any',
    section: 'api',
    summary: 'the document changed protocol (OpenAPI ↔ GraphQL); every operation is new',
  },
} as const satisfies Record<string, RuleDefinition>

export const RULES: Readonly<Record<RuleId, RuleDefinition>> = {
  ...COMMON_RULES,
  ...OAS_RULES,
  ...GQL_RULES,
  ...PARSE_FAILURE_RULES,
}
