import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fixtureDir, REPO_ROOT, runSvc } from '../../cli/test/support/run-svc.js'
import { storeKinds } from './support/databases.js'
import { seedPeople, type People } from './support/fixtures.js'
import { startHub, type HubProcess } from './support/hub-process.js'
import { call } from './support/http.js'

const require = createRequire(import.meta.url)
const fixtures = join(REPO_ROOT, 'packages/cli/test/fixtures/diff')
const ghes = join(dirname(require.resolve('@octokit/openapi/package.json')), 'generated')

/**
 * Pairs pushed to the hub one after the other, and given to `svc diff` as files. A `large` pair
 * runs on one store only (the last of storeKinds): its cost is the diff, the same on every store.
 */
const oas = (responses: unknown) =>
  JSON.stringify({
    openapi: '3.0.3',
    info: { title: 't', version: '1' },
    paths: { '/pets': { post: { responses } } },
  })
/** Pairs whose new side has parse errors: the changelog then carries `issues`. */
const broken = fixtureDir({
  'ok.json': oas({ '200': { description: 'ok' } }),
  'broken.json': oas(null),
  'ok.graphql': 'type Query { pet: Pet }\ntype Pet { name: String }\n',
  'broken.graphql': 'type Query { pet: Pet }\ntype Pet { name: String name: Int }\n',
})
afterAll(() => broken.dispose())

const PAIRS = [
  {
    name: 'petstore (YAML)',
    old: join(fixtures, 'petstore-v1.yaml'),
    new: join(fixtures, 'petstore-v2.yaml'),
    type: 'application/yaml',
  },
  {
    name: 'a GraphQL schema',
    old: join(fixtures, 'schema-v1.graphql'),
    new: join(fixtures, 'schema-v2.graphql'),
    type: 'application/graphql',
  },
  {
    name: 'an operation that no longer parses',
    old: join(broken.dir, 'ok.json'),
    new: join(broken.dir, 'broken.json'),
    type: 'application/json',
  },
  {
    name: 'a GraphQL type that no longer parses',
    old: join(broken.dir, 'ok.graphql'),
    new: join(broken.dir, 'broken.graphql'),
    type: 'application/graphql',
  },
  {
    name: 'GitHub Enterprise Server 3.18 → 3.19',
    old: join(ghes, 'ghes-3.18.json'),
    new: join(ghes, 'ghes-3.19.json'),
    type: 'application/json',
    large: true,
  },
]

const kinds = await storeKinds()

for (const kind of kinds) {
  const pairs = PAIRS.filter((pair) => !('large' in pair) || kind === kinds.at(-1))
  describe(`the changes endpoint and svc diff (${kind})`, () => {
    let hub: HubProcess
    let people: People

    beforeAll(async () => {
      hub = await startHub(kind)
      people = await seedPeople(hub)
    })
    afterAll(() => hub?.dispose())

    it.each(pairs.map((pair, index) => ({ ...pair, slug: `pair-${index}` })))(
      'agree on $name',
      async ({ slug, old, new: next, type }) => {
        const created = await call(`${hub.url}/v1/apis`, {
          method: 'POST',
          token: people.alice,
          json: { owner: 'acme', slug, name: slug, visibility: 'public' },
        })
        expect(created.status, created.text).toBe(201)
        for (const file of [old, next]) {
          const pushed = await call(`${hub.url}/v1/apis/acme/${slug}/revisions`, {
            method: 'POST',
            token: people.alice,
            headers: { 'content-type': type },
            body: readFileSync(file),
          })
          expect(pushed.status, pushed.text).toBe(201)
        }
        const served = await call(`${hub.url}/v1/apis/acme/${slug}/revisions/latest/changes`)
        expect(served.status, served.text).toBe(200)

        const cli = await runSvc(['diff', old, next, '--json'])
        expect(cli.code, cli.stderr).toBe(0)
        // svc diff adds where each change and issue is in its files (it has them; the hub keeps
        // the places the parse gave): compared without them.
        const placeless = (text: string) =>
          JSON.parse(text, (_key, value: unknown) =>
            value !== null && typeof value === 'object' && !Array.isArray(value)
              ? withoutPlace(value as Record<string, unknown>)
              : value,
          )
        const printed = placeless(cli.stdout)
        const { summary, counts, changes, issues } = placeless(served.text)
        expect({ summary, counts, changes, ...(issues ? { issues } : {}) }).toEqual(printed)
        expect(printed.summary.diff).toBe(true)
        expect(printed.changes.length).toBeGreaterThan(0)
      },
      60_000,
    )
  })
}

/** An entry of `changes` or `issues` without the `line`, `column` and `file` svc diff adds. */
function withoutPlace(value: Record<string, unknown>): Record<string, unknown> {
  if (!('location' in value)) return value
  const { line: _line, column: _column, file: _file, ...rest } = value
  return rest
}
