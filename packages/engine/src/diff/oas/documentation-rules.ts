import type { RuleDefinition } from '../rules.js'

function rule(summary: string) {
  return { level: 'info', protocol: 'oas', section: 'documentation', summary } as const
}

/**
 * Changes to what a reader is told: descriptions, summaries, titles, examples and `externalDocs`.
 * None changes what a client sends or receives, so each is info.
 */
export const DOCUMENTATION_RULES = {
  'api-info-changed': rule(
    'the `info` block changed: its title, summary, description, version, terms of service, contact or license',
  ),
  'operation-summary-changed': rule("an operation's summary was added, changed or removed"),
  'operation-description-changed': rule("an operation's description was added, changed or removed"),
  'parameter-description-changed': rule("a parameter's description was added, changed or removed"),
  'request-body-description-changed': rule(
    "a request body's description was added, changed or removed",
  ),
  'response-description-changed': rule("a response's description was added, changed or removed"),
  'header-description-changed': rule(
    "a response header's description was added, changed or removed",
  ),
  'schema-description-changed': rule(
    'the title or description of a schema or one of its properties was added, changed or removed',
  ),
  'example-changed': rule(
    'an example (`example`, `examples`) of a parameter, header, media type or schema was added, changed or removed',
  ),
  'external-docs-changed': rule(
    'the `externalDocs` of the document, an operation or a tag was added, changed or removed',
  ),
  'tag-description-changed': rule("a tag's description was added, changed or removed"),
  'server-description-changed': rule(
    'the description of a server or of one of its variables was added, changed or removed',
  ),
  'security-scheme-description-changed': rule(
    "a security scheme's description was added, changed or removed",
  ),
} as const satisfies Record<string, RuleDefinition>

export type DocumentationRuleId = keyof typeof DOCUMENTATION_RULES
