import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createAppRoot, PETSTORE, typecheckFolder } from './support/app-root.js'
import { REPO_ROOT } from './support/run-svc.js'

const GUIDE = readFileSync(join(REPO_ROOT, 'docs/authoring-generators.md'), 'utf8')

/** The fenced block that follows `after` in the guide. */
function blockAfter(after: string): string {
  const start = GUIDE.indexOf(after)
  expect(start, after).toBeGreaterThanOrEqual(0)
  const match = /```\w*\n([\s\S]*?)```/.exec(GUIDE.slice(start + after.length))
  return match![1]!
}

describe('docs/authoring-generators.md', () => {
  it("runs the worked example as written and gives the page's output", async () => {
    const root = createAppRoot()
    await root.svc(['init', 'demo'])
    await root.svc(['install', 'gen-typescript'])
    const mod = blockAfter('in the project as `.svc/demo/gen-routes/mod.ts`:')
    mkdirSync(join(root.dir, '.svc/demo/gen-routes'))
    writeFileSync(join(root.dir, '.svc/demo/gen-routes/mod.ts'), mod)
    writeFileSync(
      join(root.dir, '.svc/demo/deno.json'),
      blockAfter('what makes it a *cloned* generator, one the project owns):'),
    )
    const run = await root.svc(['generate', 'demo', PETSTORE])
    expect(run.code, run.stderr).toBe(0)
    const report = blockAfter('runs it, and reports per generator:').split('\n')
    expect(run.stdout.split('\n').slice(0, 2)).toEqual(report.slice(0, 2))
    expect(root.read('generated/demo/routes.ts')).toBe(blockAfter('`generated/demo/routes.ts`:'))
    expect(typecheckFolder(join(root.dir, 'generated/demo'))).toEqual({ status: 0, output: '' })

    writeFileSync(
      join(root.dir, '.svc/demo/.settings/client.json'),
      blockAfter('`.svc/demo/.settings/client.json`:'),
    )
    expect((await root.svc(['generate', 'demo', PETSTORE])).code).toBe(0)
    const routes = root.read('generated/demo/routes.ts')
    expect(routes).toContain(
      "export const petRoute: Route<Pet> = { method: 'GET', path: '/pet/{petId}'",
    )
    expect(routes).not.toContain('getUserByName')
  })
})
