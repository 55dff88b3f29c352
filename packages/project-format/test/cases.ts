import { expect } from 'vitest'

/** Names and whether `@account/slug` accepts them: the one rule of the CLI and the hub. */
export const NAMES: readonly (readonly [string, boolean])[] = [
  ['@acme/billing', true],
  ['@acme/billing.v2', true],
  ['@acme/billing_api', true],
  ['@a/b', true],
  ['@0/9', true],
  [`@${'a'.repeat(39)}/x`, true],
  [`@acme/${'s'.repeat(64)}`, true],
  ['@acme-corp/billing-stack', true],
  ['@acme/a..b', true],
  [`@${'a'.repeat(40)}/x`, false],
  [`@acme/${'s'.repeat(65)}`, false],
  ['@acme.corp/billing', false],
  ['@acme_corp/billing', false],
  ['@-acme/billing', false],
  ['@acme-/billing', false],
  ['@acme/.billing', false],
  ['@acme/billing.', false],
  ['@acme/-billing', false],
  ['@acme/billing_', false],
  ['@Acme/billing', false],
  ['@acme/Billing', false],
  ['@acme/bil ling', false],
  ['acme/billing', false],
  ['@acme', false],
  ['@acme/', false],
  ['@/billing', false],
  ['@acme/billing/x', false],
  ['@@acme/billing', false],
  ['', false],
]

/**
 * Root manifests read with a version given beside them (a publish), and the problems of each:
 * `[]` when accepted.
 */
export const MANIFESTS: readonly (readonly [string, string, readonly string[]])[] = [
  ['a complete manifest', '{"name":"@acme/billing","version":"1.0.0","imports":{}}', []],
  ['a slug with a dot', '{"name":"@acme/billing.v2","version":"1.0.0"}', []],
  ['a slug with an underscore', '{"name":"@acme/billing_api"}', []],
  ['no version', '{"name":"@acme/billing","imports":{"gen-zod":"jsr:@svc/gen-zod@^1"}}', []],
  ['a prerelease', '{"name":"@acme/billing","version":"2.0.0-rc.1"}', []],
  ['other keys', '{"name":"@acme/billing","tasks":{"dev":"x"},"lock":false}', []],
  ['not JSON', '{name:', [expect.stringMatching(/^it is not JSON \(.+\)$/)]],
  ['an array', '[]', ['it is not an object']],
  ['null', 'null', ['it is not an object']],
  ['no name', '{"version":"1.0.0"}', ["it has no 'name'"]],
  ['a name that is a number', '{"name":42}', ["its 'name' is not a string"]],
  [
    'an unscoped name',
    '{"name":"billing"}',
    ["its name 'billing' is not scoped as '@account/slug'"],
  ],
  [
    'an account with a dot',
    '{"name":"@acme.corp/billing"}',
    [
      "its name '@acme.corp/billing' is not scoped as '@account/slug': 'acme.corp' is not a handle (1 to 39 lowercase letters, digits or inner hyphens)",
    ],
  ],
  [
    'an uppercase slug',
    '{"name":"@acme/Billing"}',
    [expect.stringContaining("'Billing' is not a slug (1 to 64 lowercase letters")],
  ],
  [
    'a version with a v',
    '{"name":"@acme/billing","version":"v1.2.0"}',
    ["its version 'v1.2.0' is not a semver version such as 1.2.0"],
  ],
  [
    'a version with build metadata',
    '{"name":"@acme/billing","version":"1.2.0+build"}',
    ["its version '1.2.0+build' is not a semver version such as 1.2.0"],
  ],
  ['a numeric version', '{"name":"@acme/billing","version":1}', ["its 'version' is not a string"]],
  [
    'imports that are a list',
    '{"name":"@acme/billing","imports":[]}',
    ["its 'imports' is not an object"],
  ],
  [
    'an import that is not a string',
    '{"name":"@acme/billing","imports":{"gen-x":1}}',
    ["its import 'gen-x' is not a string"],
  ],
  ['an empty import', '{"name":"@acme/billing","imports":{"x":""}}', ["its import 'x' is empty"]],
  [
    'several problems at once',
    '{"name":"acme","version":"one","imports":{"a":null}}',
    [
      "its name 'acme' is not scoped as '@account/slug'",
      "its version 'one' is not a semver version such as 1.2.0",
      "its import 'a' is not a string",
    ],
  ],
]
