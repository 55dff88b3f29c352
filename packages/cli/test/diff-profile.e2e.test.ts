import { afterAll, describe, expect, it } from 'vitest'
import { expectFailureStdout, fixtureDir, parseJsonStdout, runSvc } from './support/run-svc.js'

/**
 * v2 renames the operationId of `GET /pets` and the schema `Pet` (its use following it): the
 * requests and responses stay the same, the generated `listPets` and `Pet` do not.
 */
const document = (operationId: string, schema: string) =>
  JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'Pets', version: '1.0.0' },
    paths: {
      '/pets': {
        get: {
          operationId,
          responses: {
            '200': {
              description: 'ok',
              content: {
                'application/json': { schema: { $ref: `#/components/schemas/${schema}` } },
              },
            },
          },
        },
      },
    },
    components: {
      schemas: { [schema]: { type: 'object', properties: { id: { type: 'integer' } } } },
    },
  })

const files = fixtureDir({
  'v1.json': document('listPets', 'Pet'),
  'v2.json': document('findPets', 'Animal'),
})
afterAll(() => files.dispose())

const diff = (...args: string[]) =>
  runSvc(['diff', 'v1.json', 'v2.json', ...args], { cwd: files.dir })

async function ids(...args: string[]): Promise<string[]> {
  const run = await diff('--json', ...args)
  expect(run.code, run.stderr).toBe(0)
  const { changes } = parseJsonStdout(run) as { changes: { id: string }[] }
  return changes.map((change) => change.id).sort()
}

const WIRE = ['operation-id-changed', 'schema-added', 'schema-removed']

describe('svc diff --profile', () => {
  it('judges the wire by default and under --profile wire', async () => {
    expect(await ids()).toEqual(WIRE)
    expect(await ids('--profile', 'wire')).toEqual(WIRE)
  })

  it('adds what breaks generated code under --profile sdk', async () => {
    expect(await ids('--profile', 'sdk')).toEqual(
      [...WIRE, 'sdk-operation-renamed', 'sdk-schema-renamed'].sort(),
    )
  })

  it('gates CI on them: --fail-on breaking passes under wire and fails under sdk', async () => {
    expect((await diff('--fail-on', 'breaking')).code).toBe(0)
    const sdk = await diff('--profile', 'sdk', '--fail-on', 'breaking')
    expect(sdk.code).toBe(1)
    expect(sdk.stdout).toContain(
      'components › schemas › Animal\n  breaking  sdk-schema-renamed     The schema `Pet` was renamed `Animal`',
    )
    expect(sdk.stderr).toBe('error: --fail-on breaking: 2 breaking changes.\n')
  })

  it('judges only what breaks the generators named by --generators', async () => {
    // A renamed schema renames zod's schema; a renamed operationId renames only client functions.
    expect(await ids('--profile', 'sdk', '--generators', 'zod')).toEqual(
      [...WIRE, 'sdk-schema-renamed'].sort(),
    )
    expect(await ids('--profile', 'sdk', '--generators', '@svc/gen-zod,gen-typescript')).toEqual(
      [...WIRE, 'sdk-schema-renamed'].sort(),
    )
    expect(await ids('--profile', 'sdk', '--generators', 'gen-tanstack-query')).toEqual(
      [...WIRE, 'sdk-operation-renamed', 'sdk-schema-renamed'].sort(),
    )
  })

  it('judges for the generators a project imports with --project', async () => {
    const app = fixtureDir({
      '.svc/pets/deno.json': JSON.stringify({
        name: '@local/pets',
        version: '0.1.0',
        imports: {
          '@svc/engine': 'jsr:@svc/engine@^0.1.0',
          'gen-typescript': 'jsr:@svc/gen-typescript@^0.1.0',
        },
      }),
      'v1.json': document('listPets', 'Pet'),
      'v2.json': document('findPets', 'Animal'),
    })
    try {
      const run = await runSvc(
        ['diff', 'v1.json', 'v2.json', '--json', '--profile', 'sdk', '--project', 'pets'],
        { cwd: app.dir },
      )
      expect(run.code, run.stderr).toBe(0)
      const { changes } = parseJsonStdout(run) as { changes: { id: string }[] }
      expect(changes.map((change) => change.id).sort()).toEqual(
        [...WIRE, 'sdk-schema-renamed'].sort(),
      )
    } finally {
      app.dispose()
    }
  })

  it('refuses --generators without --profile sdk, and with --project', async () => {
    const alone = await diff('--generators', 'zod')
    expect(alone.code).toBe(2)
    expect(alone.stderr).toContain('add --profile sdk')
    const both = await diff('--profile', 'sdk', '--generators', 'zod', '--project', 'pets')
    expect(both.code).toBe(2)
    expect(both.stderr).toContain('--generators and --project both name the generators')
  })

  it('refuses another profile as a usage error', async () => {
    const args = ['--profile', 'client', '--json']
    const run = await diff(...args)
    expect(run.code).toBe(2)
    expectFailureStdout(run, ['v1.json', 'v2.json', ...args])
    expect(run.stderr).toContain(
      "option '--profile <profile>' argument 'client' is invalid. Allowed choices are wire, sdk.",
    )
  })
})
