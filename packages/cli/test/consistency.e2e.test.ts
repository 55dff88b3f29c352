import { execFileSync, spawnSync } from 'node:child_process'
import { copyFileSync, existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createProject, PETSTORE } from './support/app-root.js'
import { createHome, oneJson, startTestHub, type Home, type TestHub } from './support/hub.js'
import {
  assertBuilt,
  recipeLines,
  REPO_ROOT,
  runSvc,
  SVC_BIN,
  type RunOptions,
} from './support/run-svc.js'

/** The commands `svc --help` lists, read from its Commands: section. */
async function commands(): Promise<string[]> {
  const help = (await runSvc(['--help'])).stdout
  const section = help.slice(help.indexOf('Commands:'))
  return [...section.matchAll(/^ {2}([a-z][\w-]*)/gm)].map((m) => m[1]!).filter((c) => c !== 'help')
}

describe('svc --help: examples and a docs link for every command', () => {
  it('every command has an Examples: block of its own invocations and a Docs: line to its page', async () => {
    const names = await commands()
    expect(names).toEqual(expect.arrayContaining(['check', 'push', 'completion', 'doctor']))
    for (const name of names) {
      const run = await runSvc([name, '--help'])
      expect(run.code, name).toBe(0)
      const examples = run.stdout.slice(run.stdout.indexOf('\nExamples:\n'))
      expect(examples, name).toMatch(new RegExp(`^Examples:\\n {2}\\$ .*svc ${name}\\b`, 'm'))
      const docs = /^Docs: (.+)$/m.exec(run.stdout)?.[1]
      expect(docs, name).toBeDefined()
      expect(docs!.startsWith(join(REPO_ROOT, 'docs/commands/')), docs).toBe(true)
      expect(existsSync(docs!), docs).toBe(true)
      // A group of subcommands (svc api …) has none of its own; each subcommand has it.
      if (!run.stdout.includes('\nCommands:\n')) expect(run.stdout, name).toContain('--no-input')
    }
  })

  it('shows [project] as optional and says it defaults to the only one', async () => {
    for (const name of ['bundle', 'generate', 'clone', 'pull']) {
      const run = await runSvc([name, '--help'])
      expect(run.stdout, name).toMatch(
        /^ {2}project +the project under \.svc\/ \(default: the only one\)$/m,
      )
    }
    // publish and push need it in strict mode (SPEC 4.9).
    for (const name of ['publish', 'push']) {
      const run = await runSvc([name, '--help'])
      expect(run.stdout.replace(/\s+/g, ' '), name).toContain(
        ' project the project under .svc/ (default: the only one; needed with --json or --no-input) ',
      )
    }
  })
})

describe('usage errors: exit 2 with the whole recipe (SPEC 7.8)', () => {
  it('an unknown option: the problem with a did-you-mean, usage, example and the help to read', async () => {
    const run = await runSvc(['check', PETSTORE, '--jsno'])
    expect(run.code).toBe(2)
    expect(run.stdout).toBe('')
    expect(recipeLines(run.stderr)).toEqual({
      error: "error: unknown option '--jsno' (did you mean --json?)",
      usage: 'Usage: svc check [options] [input]',
      example: 'Example: svc check openapi.yaml',
      discover: 'Discover: svc check --help',
    })
    expect(run.stderr).toMatch(/\nRun 'svc check --help' for usage\.\n$/)
  })

  it('an unknown command and an extra argument, also under --json', async () => {
    const unknown = await runSvc(['pus', 'demo'])
    expect(unknown.code).toBe(2)
    expect(recipeLines(unknown.stderr).error).toBe(
      "error: unknown command 'pus' (did you mean push?)",
    )
    expect(recipeLines(unknown.stderr).discover).toBe('Discover: svc --help')
    const extra = await runSvc(['push', 'alice/petstore', 'openapi.yaml', '--json'])
    expect(extra.code).toBe(2)
    expect(recipeLines(extra.stderr)).toMatchObject({
      error: "error: too many arguments for 'push'. Expected 1 argument but got 2.",
      usage: 'Usage: svc push [options] [project]',
      example: 'Example: svc push demo --project @acme/billing',
    })
    expect(oneJson(extra)).toEqual({
      type: 'error',
      code: 'usage',
      exitCode: 2,
      message: "too many arguments for 'push'. Expected 1 argument but got 2.",
    })
  })

  it('--no-input is accepted by every command, even where nothing prompts', async () => {
    const check = await runSvc(['check', PETSTORE, '--no-input'])
    expect(check.code, check.stderr).toBe(0)
    const diff = await runSvc(['diff', PETSTORE, PETSTORE, '--no-input'])
    expect(diff.code, diff.stderr).toBe(0)
    const completion = await runSvc(['completion', 'fish', '--no-input'])
    expect(completion.code, completion.stderr).toBe(0)
  })
})

describe('project inference: the same in every command', () => {
  let t: TestHub
  let h: Home
  beforeAll(async () => {
    t = await startTestHub()
    h = createHome()
  })
  afterAll(async () => {
    await t?.dispose()
    h?.dispose()
  })
  const hub = (options: RunOptions = {}): RunOptions => ({
    ...options,
    env: { ...h.env, SVC_API_ORIGIN: t.url, ...options.env },
  })

  /** One project, named for an account of the test hub (not svc init's `@local` placeholder). */
  async function acmeProject() {
    const root = await createProject(['gen-typescript'])
    const manifest = root.json('.svc/demo/deno.json')
    writeFileSync(
      join(root.dir, '.svc/demo/deno.json'),
      JSON.stringify({ ...manifest, name: '@acme/demo' }),
    )
    return root
  }

  it('with one project, every command that takes [project] uses it', async () => {
    const root = await acmeProject()
    const bundle = await root.svc(['bundle', '--json'])
    expect(bundle.code, bundle.stderr).toBe(0)
    expect(oneJson(bundle)).toMatchObject({ projectName: 'demo' })
    const generate = await root.svc(['generate', PETSTORE, '--json'])
    expect(generate.code, generate.stderr).toBe(0)
    expect(oneJson(generate)).toMatchObject({ type: 'generated', projectName: 'demo' })
    const clone = await root.svc(['clone', '-g', 'gen-typescript', '--json'])
    expect(clone.code, clone.stderr).toBe(0)
    // publish, push and pull get as far as the hub, which refuses the token. publish and push
    // only outside strict mode (SPEC 4.9: --json and --no-input need the project named).
    const token = ['--token', `svc_pat_${'x'.repeat(43)}`]
    const publish = await root.svc(['publish', '--version', '1.0.0', ...token], hub())
    expect(publish.code).toBe(1)
    expect(publish.stderr).toMatch(/^Publishing demo failed at stage publish:\n/)
    const push = await root.svc(['push', '--project', '@alice/demo', ...token], hub())
    expect(push.code).toBe(1)
    expect(push.stderr).toMatch(/^Pushing demo failed at stage push:\n/)
    const pull = await root.svc(['pull', '--project', '@alice/demo', '--json', ...token], hub())
    expect(pull.code).toBe(1)
    expect(oneJson(pull).message).toMatch(/^cannot pull @alice\/demo: the hub refused the token/)
  })

  it('with several, the same recipe error from every command, listing them', async () => {
    const root = await createProject(['gen-typescript'], 'one')
    expect((await root.svc(['init', 'two'])).code).toBe(0)
    for (const args of [
      ['bundle'],
      ['generate', PETSTORE],
      ['clone', '-g', 'gen-zod'],
      ['publish'],
      ['push'],
      ['pull'],
      ['install', 'gen-zod'],
      ['remove', 'gen-typescript'],
    ]) {
      const run = await root.svc([...args, '--no-input'], hub({ env: { SVC_HUB_TOKEN: 'x' } }))
      expect(run.code, args.join(' ')).toBe(2)
      const recipe = recipeLines(run.stderr)
      expect(recipe.error, args.join(' ')).toBe(
        'error: Name the project: this app root has one, two.',
      )
      expect(recipe.usage).toMatch(new RegExp(`^Usage: svc ${args[0]} `))
      expect(recipe.discover).toBe('Discover: svc doctor (lists the projects of this app root)')
    }
  })

  it('a wrong token gets the same advice from publish, whoami and push; a malformed one says what is wrong', async () => {
    const root = await acmeProject()
    const wrong = ['--token', `svc_pat_${'x'.repeat(43)}`]
    const advice = /the hub refused the token \(.*401.*\); run svc login again or pass --token/
    const publish = await root.svc(
      ['publish', 'demo', '--version', '1.0.0', '--json', ...wrong],
      hub(),
    )
    expect(oneJson(publish).reason).toMatch(advice)
    const whoami = await root.svc(['whoami', ...wrong], hub())
    expect(whoami.code).toBe(1)
    expect(whoami.stderr).toMatch(advice)
    const push = await root.svc(['push', 'demo', '--project', '@acme/x', '--json', ...wrong], hub())
    expect(oneJson(push).reason).toMatch(advice)
    const malformed = await root.svc(['whoami', '--token', 'svc_pat_abc'], hub())
    expect(malformed.code).toBe(1)
    expect(malformed.stderr).toBe(
      'error: the hub refused the token (HTTP 401: the token starts with svc_pat_ but has 3 characters after svc_pat_ where a personal access token has 43: was it copied whole?); run svc login again or pass --token\n',
    )
    expect(malformed.stderr).not.toContain('is not a personal access token')
  })
})

describe('svc generate in strict mode', () => {
  it('builds a bundle that is not there yet instead of failing: nothing can be out of sync', async () => {
    const root = await createProject(['gen-typescript'])
    copyFileSync(PETSTORE, join(root.dir, 'petstore.json'))
    for (const strict of [['--json'], ['--no-input']]) {
      const run = await root.svc(['generate', 'petstore.json', ...strict])
      expect(run.code, run.stderr).toBe(0)
      expect(existsSync(join(root.dir, '.svc/demo/bundle.js'))).toBe(true)
    }
    expect(root.files('generated/demo')).toEqual(['types.ts'])
  })
})

describe('svc completion', () => {
  beforeAll(() => assertBuilt())

  /** What bash completes for `line` (a trailing space starts a new word), through `_svc`. */
  function complete(line: string): string[] {
    const words = line.split(' ')
    const script = `source <(${JSON.stringify(process.execPath)} ${JSON.stringify(SVC_BIN)} completion bash)
COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _svc
printf '%s\\n' "\${COMPREPLY[@]}"`
    return execFileSync('bash', ['-c', script], { encoding: 'utf8', cwd: REPO_ROOT })
      .split('\n')
      .filter(Boolean)
  }

  it('bash: commands, options, option choices and argument choices, from the command tree', () => {
    expect(complete('svc pu')).toEqual(['publish', 'push', 'pull'])
    expect(complete('svc com')).toEqual(['completion'])
    expect(complete('svc check --j')).toEqual(['--json'])
    expect(complete('svc push demo --base')).toEqual(['--base-files', '--base-files-only'])
    expect(complete('svc diff a.yaml b.yaml --fail-on ')).toEqual(['breaking', 'warning'])
    expect(complete('svc completion ')).toEqual(['bash', 'zsh', 'fish'])
    expect(complete('svc check --no')).toEqual(['--no-input'])
  })

  it('zsh and fish: well-formed scripts that cover every command', async () => {
    const names = await commands()
    const zsh = await runSvc(['completion', 'zsh'])
    expect(zsh.code).toBe(0)
    expect(zsh.stdout).toMatch(/^#compdef svc\n/)
    expect(zsh.stdout).toContain('bashcompinit')
    expect(zsh.stdout).toContain('complete -o default -F _svc svc')
    const fish = await runSvc(['completion', 'fish'])
    expect(fish.code).toBe(0)
    const lines = fish.stdout.trimEnd().split('\n')
    expect(lines.every((line) => line.startsWith('#') || line.startsWith('complete -c svc'))).toBe(
      true,
    )
    for (const name of names) expect(fish.stdout, name).toContain(`-a '${name}'`)
    expect(fish.stdout).toContain(
      "complete -c svc -n '__fish_seen_subcommand_from diff' -l fail-on -x -a 'breaking warning'",
    )
    for (const [shell, text] of [
      ['zsh', zsh.stdout],
      ['fish', fish.stdout],
    ] as const) {
      // Only where the shell is installed: its own syntax check.
      if (spawnSync(shell, ['--version']).error) continue
      const check = spawnSync(shell, ['-n'], { input: text, encoding: 'utf8' })
      expect(check.status, check.stderr).toBe(0)
    }
  })

  it('an unknown shell is a usage error with the choices', async () => {
    const run = await runSvc(['completion', 'tcsh'])
    expect(run.code).toBe(2)
    expect(recipeLines(run.stderr).error).toMatch(
      /'tcsh' is invalid for argument 'shell'\. Allowed choices are bash, zsh, fish\./,
    )
  })
})
