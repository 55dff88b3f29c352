import type { RuleDefinition } from './rules.js'

/**
 * Items the diff cannot compare because a side has error-level parse issues on them. What the new
 * document fails to describe is what its consumers lose, so it is breaking; what only the old one
 * failed to describe cannot be judged, and is a warning for a human to review.
 */
export const PARSE_FAILURE_RULES = {
  'operation-unparsable': {
    level: 'breaking',
    protocol: 'oas',
    section: 'operations',
    summary:
      'an operation of the old document has error-level parse issues in the new one (in both, when its text changed); it cannot be compared',
  },
  'operation-was-unparsable': {
    level: 'warning',
    protocol: 'oas',
    section: 'operations',
    summary:
      'an operation had error-level parse issues in the old document and parses in the new one; it cannot be compared',
  },
  'operation-still-unparsable': {
    level: 'warning',
    protocol: 'oas',
    section: 'operations',
    summary:
      'an operation has error-level parse issues in both documents and its text is unchanged',
  },
  'operation-added-unparsable': {
    level: 'warning',
    protocol: 'oas',
    section: 'operations',
    summary:
      'an operation the old document did not have was added with error-level parse issues; it cannot be read',
  },
  'webhook-unparsable': {
    level: 'breaking',
    protocol: 'oas',
    section: 'webhooks',
    summary:
      'a webhook of the old document has error-level parse issues in the new one (in both, when its text changed); it cannot be compared',
  },
  'webhook-was-unparsable': {
    level: 'warning',
    protocol: 'oas',
    section: 'webhooks',
    summary:
      'a webhook had error-level parse issues in the old document and parses in the new one; it cannot be compared',
  },
  'webhook-still-unparsable': {
    level: 'warning',
    protocol: 'oas',
    section: 'webhooks',
    summary: 'a webhook has error-level parse issues in both documents and its text is unchanged',
  },
  'webhook-added-unparsable': {
    level: 'warning',
    protocol: 'oas',
    section: 'webhooks',
    summary:
      'a webhook the old document did not have was added with error-level parse issues; it cannot be read',
  },
  'component-unparsable': {
    level: 'breaking',
    protocol: 'oas',
    section: 'schemas',
    summary:
      'a component of the old document has error-level parse issues in the new one (in both, when its text changed); it cannot be compared',
  },
  'component-was-unparsable': {
    level: 'warning',
    protocol: 'oas',
    section: 'schemas',
    summary:
      'a component had error-level parse issues in the old document and parses in the new one; it cannot be compared',
  },
  'component-still-unparsable': {
    level: 'warning',
    protocol: 'oas',
    section: 'schemas',
    summary: 'a component has error-level parse issues in both documents and its text is unchanged',
  },
  'component-added-unparsable': {
    level: 'warning',
    protocol: 'oas',
    section: 'schemas',
    summary:
      'a component the old document did not have was added with error-level parse issues; it cannot be read',
  },
  'document-unparsable': {
    level: 'breaking',
    protocol: 'oas',
    section: 'api',
    summary:
      'a part of the new document outside operations, webhooks and components has error-level parse issues (in both, when its text changed)',
  },
  'document-was-unparsable': {
    level: 'warning',
    protocol: 'oas',
    section: 'api',
    summary:
      'a part of the old document outside operations, webhooks and components had error-level parse issues',
  },
  'document-still-unparsable': {
    level: 'warning',
    protocol: 'oas',
    section: 'api',
    summary:
      'a part of both documents outside operations, webhooks and components has error-level parse issues and its text is unchanged',
  },
  'definition-unparsable': {
    level: 'breaking',
    protocol: 'gql',
    section: 'types',
    summary:
      'a type or directive definition of the old schema has error-level parse issues in the new one and had none before',
  },
  'definition-was-unparsable': {
    level: 'warning',
    protocol: 'gql',
    section: 'types',
    summary:
      'a type or directive definition had error-level parse issues in the old schema and has none in the new one',
  },
  'definition-still-unparsable': {
    level: 'warning',
    protocol: 'gql',
    section: 'types',
    summary: 'a type or directive definition has error-level parse issues in both schemas',
  },
  'definition-added-unparsable': {
    level: 'warning',
    protocol: 'gql',
    section: 'types',
    summary:
      'a type or directive definition the old schema did not have was added with error-level parse issues; it cannot be read',
  },
} as const satisfies Record<string, RuleDefinition>

export type ParseFailureRuleId = keyof typeof PARSE_FAILURE_RULES
