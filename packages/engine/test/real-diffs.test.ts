import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { diffDocuments, diffParsed, parseApi, type DiffSide } from '../src/index.js'

const require = createRequire(import.meta.url)
const generated = join(dirname(require.resolve('@octokit/openapi/package.json')), 'generated')
const readFile = (path: string) => readFileSync(path, 'utf8')

/** A document parsed as `diffDocuments` parses it, for `diffParsed`. */
async function sideOf(path: string): Promise<DiffSide> {
  const text = readFile(path)
  return { parsed: await parseApi({ text, origin: path }, { readFile, positions: false }), text }
}

/*
 * GitHub Enterprise Server 3.18 → 3.19 (@octokit/openapi 23.0.2), every entry read against both
 * documents:
 * - 59 new operations (1,039 − 980), 25 new schemas, 5 new parameter components.
 * - breaking, real narrowing of request bodies: `code_scanning_default_setup_options` of the two
 *   PATCH …/code-security/configurations/{id} became an allOf of the nullable component and a
 *   non-nullable object, which no longer admits null (3.0 `nullable` under allOf).
 * - warning: `selected_repository_ids` of DELETE …/code-security/configurations/detach
 *   gained minItems 1 and maxItems 250, limits set where there were none: a client that sent
 *   an empty list, or more than 250 ids, is refused if the server did not refuse it already.
 * - info: new optional properties in request bodies (sha_pinning_required, code_security,
 *   secret_protection, allow_advanced, create_request …) and responses (assigned_to,
 *   first_location_detected, has_more_locations, sha_pinning_required, the two
 *   enterprise_organization_installation* app permissions, code_scanning_options), and
 *   secret-scanning-alert-webhook, which no operation uses.
 * - documentation (1,529 entries, all info, none of which makes an operation or a schema
 *   "modified"): the `externalDocs` link of 973 operations and of the document moved from
 *   `enterprise-server@3.18` to `@3.19`, as did links in 346 operation descriptions; plus
 *   parameter, response and schema descriptions and 17 examples.
 */
describe('GHES 3.18 → 3.19', () => {
  const ghes = (version: string) => sideOf(join(generated, `ghes-${version}.json`))
  let before: DiffSide
  let after: DiffSide
  beforeAll(async () => {
    before = await ghes('3.18')
    after = await ghes('3.19')
  })

  it('diffs with the counts reviewed by hand', async () => {
    const log = await diffParsed(before, after)
    expect(log.summary).toEqual({
      diff: true,
      details: {
        documentation: { added: 0, deleted: 0, modified: 1529 },
        operations: { added: 59, deleted: 0, modified: 44 },
        parameters: { added: 5, deleted: 0, modified: 0 },
        schemas: { added: 25, deleted: 0, modified: 9 },
      },
    })
    expect(log.counts).toEqual({ breaking: 2, warning: 2, info: 124 + 1529 })
    expect(
      log.changes
        .filter((change) => change.level !== 'info')
        .map((change) => [change.id, change.operation]),
    ).toEqual([
      [
        'request-body-became-not-nullable',
        'PATCH /enterprises/{enterprise}/code-security/configurations/{configuration_id}',
      ],
      [
        'request-body-became-not-nullable',
        'PATCH /orgs/{org}/code-security/configurations/{configuration_id}',
      ],
      ['request-body-max-items-set', 'DELETE /orgs/{org}/code-security/configurations/detach'],
      ['request-body-min-items-set', 'DELETE /orgs/{org}/code-security/configurations/detach'],
    ])
    const ids = new Set(log.changes.map((change) => change.id))
    expect([...ids].sort()).toEqual([
      'component-added',
      'endpoint-added',
      'example-changed',
      'external-docs-changed',
      'operation-description-changed',
      'parameter-description-changed',
      'request-body-became-not-nullable',
      'request-body-max-items-set',
      'request-body-min-items-set',
      'request-body-property-added',
      'response-body-property-added',
      'response-description-changed',
      'schema-added',
      'schema-description-changed',
      'unused-component-changed',
    ])
    // The documentation churn of a release: every operation's docs link moved to the new version.
    const documented = (id: string) => log.changes.filter((change) => change.id === id).length
    expect(documented('external-docs-changed')).toBe(973)
    expect(documented('operation-description-changed')).toBe(346)
    expect(log.changes.find((change) => change.location === '/externalDocs')).toMatchObject({
      id: 'external-docs-changed',
      message: 'The external documentation of the API changed.',
    })
  }, 30_000)

  it('finds nothing between a description and itself', async () => {
    const log = await diffParsed(after, after)
    expect(log.summary).toEqual({ diff: false, details: {} })
    expect(log.changes).toEqual([])
  }, 30_000)
})

/**
 * Every description of @readme/oas-examples against the next one (different APIs, versions and
 * formats side by side) and against itself: the diff never throws, a document never differs from
 * itself, and the counts always add up to the entries.
 */
describe('@readme/oas-examples, pairwise', () => {
  const base = join(dirname(require.resolve('@readme/oas-examples/package.json')))
  const files = ['2.0', '3.0', '3.1'].flatMap((version) =>
    readdirSync(join(base, version, 'json'))
      .filter((name) => name.endsWith('.json'))
      .sort()
      .map((name) => join(base, version, 'json', name)),
  )
  const source = (path: string) => ({ text: readFile(path), origin: path })
  // Each description is diffed against itself and both its neighbours: parse it once.
  const sides = new Map<string, Promise<DiffSide>>()
  const parsed = (path: string) => sides.get(path) ?? sides.set(path, sideOf(path)).get(path)!

  it.each(
    files.map((file, index) => [
      file.slice(base.length + 1),
      file,
      files[(index + 1) % files.length]!,
    ]),
  )('%s', async (_name, file, next) => {
    const same = await diffParsed(await parsed(file), await parsed(file))
    // An item that fails to parse cannot be compared, so even against itself it is listed, as
    // still not parsing; nothing else differs.
    const failing = same.issues?.after.length ?? 0
    expect(same.changes.filter(({ id }) => !id.endsWith('-still-unparsable'))).toEqual([])
    expect(same.changes.length > 0).toBe(failing > 0)
    expect(same.summary.diff).toBe(failing > 0)
    const log = await diffParsed(await parsed(file), await parsed(next))
    expect(log.counts.breaking + log.counts.warning + log.counts.info).toBe(log.changes.length)
    for (const delta of Object.values(log.summary.details))
      expect(delta.added + delta.deleted + delta.modified).toBeGreaterThan(0)
  })

  const twins = files
    .map((file) => [file, file.replace('/json/', '/yaml/').replace(/\.json$/, '.yaml')] as const)
    .filter(([, yaml]) => existsSync(yaml))

  it('finds the YAML twins', () => {
    expect(twins.length).toBeGreaterThan(50)
  })

  /**
   * Twins that really differ: one swaps the methods of two form-data paths; in the others the YAML
   * has lost the long part of an operation's description, or spells a newline of the API
   * description as the two characters `\n`.
   */
  const differences: Record<string, string[]> = {
    '2.0/json/petstore-expanded.json': ['operation-description-changed GET /pets'],
    '3.1/json/train-travel.json': ['api-info-changed undefined'],
    '3.1/json/parameters-style.json': [
      'endpoint-removed GET /anything/form-data/spaceDelimited',
      'endpoint-removed POST /anything/form-data/deepObject',
      'endpoint-added GET /anything/form-data/deepObject',
      'endpoint-added POST /anything/form-data/spaceDelimited',
    ],
  }

  it.each(twins.map(([json, yaml]) => [json.slice(base.length + 1), json, yaml]))(
    '%s equals its YAML twin',
    async (name, json, yaml) => {
      const log = await diffDocuments(source(json), source(yaml), { readFile })
      const found = log.changes
        .filter(({ id }) => !id.endsWith('-still-unparsable'))
        .map((change) => `${change.id} ${change.operation}`)
      expect(found).toEqual(differences[name] ?? [])
    },
  )
})
