import type { ChangeLevel } from '../changelog.js'
import type { RuleDefinition } from '../rules.js'

/** The generators of svc whose output the SDK rules judge (the ids a project's config names). */
export const SVC_GENERATORS = [
  '@svc/gen-typescript',
  '@svc/gen-zod',
  '@svc/gen-fetch-client',
  '@svc/gen-tanstack-query',
] as const

/**
 * Generators outside svc (openapi-generator, AutoRest, …): any generator id a project names that
 * is not one of {@link SVC_GENERATORS}. Some of what they emit, svc's generators do not.
 */
export const OTHER_GENERATORS = 'other'

type SdkGenerator = (typeof SVC_GENERATORS)[number] | typeof OTHER_GENERATORS

type SdkRule = RuleDefinition & {
  /** The generators whose code the change breaks: the rule is silent for a project using none. */
  readonly generators: readonly SdkGenerator[]
}

function rule(
  level: ChangeLevel,
  section: RuleDefinition['section'],
  summary: string,
  generators: readonly SdkGenerator[],
): SdkRule {
  return { level, protocol: 'oas', section, summary, generators }
}

const TYPES = ['@svc/gen-typescript', '@svc/gen-zod', '@svc/gen-fetch-client'] as const
const CLIENT = ['@svc/gen-fetch-client', '@svc/gen-tanstack-query'] as const

/**
 * Changes harmless on the wire that break code generated from the description. `svc diff
 * --profile sdk` adds them (docs/diff-rules.md, "SDK profile"); the wire profile never reports
 * them.
 */
export const SDK_RULES = {
  'sdk-operation-renamed': rule(
    'breaking',
    'operations',
    "the name of an operation's generated function changed: its operationId changed, was added or was removed",
    [...CLIENT, OTHER_GENERATORS],
  ),
  'sdk-schema-renamed': rule(
    'breaking',
    'schemas',
    'a component schema was renamed with the same body: its generated type and zod schema are renamed',
    [...TYPES, OTHER_GENERATORS],
  ),
  'sdk-schema-removed': rule(
    'breaking',
    'schemas',
    'a component schema was removed: its generated type and zod schema are gone',
    [...TYPES, OTHER_GENERATORS],
  ),
  'sdk-schema-left-hierarchy': rule(
    'breaking',
    'schemas',
    'a component schema that extended a discriminated base (allOf) no longer does: its generated tag is no longer a literal',
    ['@svc/gen-typescript', '@svc/gen-fetch-client', OTHER_GENERATORS],
  ),
  'sdk-schema-base-removed': rule(
    'breaking',
    'schemas',
    'a component schema no longer names a component in its `allOf`: generators that make it a base class drop the base',
    [OTHER_GENERATORS],
  ),
  'sdk-enum-names-changed': rule(
    'breaking',
    'schemas',
    'the names an enum is generated with (`x-enum-varnames`, `x-ms-enum`) were added, changed or removed',
    [OTHER_GENERATORS],
  ),
  'sdk-parameter-order-changed': rule(
    'breaking',
    'operations',
    "the order of an operation's parameters changed (positional arguments of generated methods)",
    [OTHER_GENERATORS],
  ),
  'sdk-operation-kind-changed': rule(
    'breaking',
    'operations',
    'an operation became or stopped being long-running or pageable (`x-ms-long-running-operation`, `x-ms-pageable`), or changed how: its generated method returns a poller or a pager, or no longer does',
    [OTHER_GENERATORS],
  ),
  'sdk-optional-parameter-added': rule(
    'warning',
    'operations',
    'an optional parameter was added: generators with positional arguments add one to the generated method',
    [OTHER_GENERATORS],
  ),
  'sdk-client-parameter-changed': rule(
    'breaking',
    'operations',
    'a parameter became a property of the generated client or stopped being one (`x-ms-parameter-location`, a shared parameter)',
    [OTHER_GENERATORS],
  ),
  'sdk-body-model-changed': rule(
    'breaking',
    'operations',
    'a request or response body names another model than before, both in the document (`$ref` redirected): its class changes in generators with nominal types',
    [OTHER_GENERATORS],
  ),
  'sdk-parameter-location-changed': rule(
    'breaking',
    'operations',
    'a parameter moved to another location (`query` → `header`): its generated argument moves to another group',
    [...CLIENT, OTHER_GENERATORS],
  ),
  'sdk-success-status-changed': rule(
    'breaking',
    'operations',
    "the response an operation's generated `<Operation>Response` type describes changed (the lowest 2XX status)",
    ['@svc/gen-fetch-client', OTHER_GENERATORS],
  ),
  'sdk-response-status-added': rule(
    'warning',
    'operations',
    'a response status with a body or headers of its own was added: the generated result union gains a member',
    ['@svc/gen-fetch-client', OTHER_GENERATORS],
  ),
  'sdk-success-data-widened': rule(
    'breaking',
    'operations',
    'a 2XX status with another body type was added: the data a generated query resolves to becomes a union',
    ['@svc/gen-tanstack-query', OTHER_GENERATORS],
  ),
  'sdk-response-status-removed': rule(
    'breaking',
    'operations',
    'a 4XX/5XX status with a body or headers of its own was removed: the generated result union loses its member',
    ['@svc/gen-fetch-client', OTHER_GENERATORS],
  ),
  'sdk-property-became-required': rule(
    'warning',
    'schemas',
    'a property or response header only received became required: its generated type is no longer optional',
    [...TYPES, OTHER_GENERATORS],
  ),
  'sdk-property-became-optional': rule(
    'warning',
    'schemas',
    'a property only sent became optional: its generated type is now optional',
    [...TYPES, OTHER_GENERATORS],
  ),
} as const satisfies Record<string, SdkRule>

export type SdkRuleId = keyof typeof SDK_RULES
