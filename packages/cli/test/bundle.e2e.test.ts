import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from './support/run-svc.js'

/*
 * bin/svc.js runs the esbuild bundle of dist/ that `npm run build` makes (scripts/bundle-cli.js).
 * A bundle can differ from the modules it came from where Node and esbuild load a package
 * differently (a CommonJS package's named exports through a dynamic import(), say), so the
 * commands that load each lazily imported part answer the same from both.
 */
const DIST = join(REPO_ROOT, 'packages/cli/dist')
const BUNDLE = join(DIST, 'svc-bundle.js')
const examples = (path: string) => join(REPO_ROOT, 'node_modules/@readme/oas-examples', path)

const COMMANDS: readonly (readonly string[])[] = [
  ['check', examples('3.0/yaml/schema-types.yaml'), '--json'],
  ['check', examples('2.0/yaml/petstore-with-external-docs.yaml'), '--debug'],
  ['check', examples('3.1/json/readme.json'), '--json'],
  ['check', join(REPO_ROOT, 'node_modules/@octokit/graphql-schema/schema.graphql')],
  ['to-v3-json', examples('2.0/json/petstore.json')],
  ['diff', examples('3.0/json/petstore.json'), examples('3.0/json/petstore-expanded.json')],
  ['--help'],
]

function runEntry(entry: string, args: readonly string[]) {
  const script = `const { main } = await import(${JSON.stringify(pathToFileURL(entry).href)}); await main(${JSON.stringify(args)})`
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
    maxBuffer: 64 * 1024 * 1024,
  })
  return { code: run.status, stdout: run.stdout, stderr: run.stderr }
}

describe.skipIf(!existsSync(BUNDLE))('the bundled CLI', () => {
  const cases = COMMANDS.map((args) => [args.join(' ').replaceAll(REPO_ROOT, ''), args] as const)
  it.each(cases)('svc %s answers as dist/main.js does', (_, args) => {
    const bundled = runEntry(BUNDLE, args)
    expect(bundled).toEqual(runEntry(join(DIST, 'main.js'), args))
    expect(bundled.stderr).not.toMatch(/internal error/)
  })
})
