import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { Option, type Command } from 'commander'

/**
 * A few invocations per command, by its path (`check`, `api push`): the `Examples:` block of its
 * `--help`, and the first one the `Example:` line of its usage errors. Every command has some
 * (help.test.ts checks), so a new command is one entry here.
 */
export const EXAMPLES: Readonly<Record<string, readonly string[]>> = {
  check: ['svc check openapi.yaml', 'svc check https://example.com/openapi.json --json'],
  'to-v3-json': [
    'svc to-v3-json swagger.json -o openapi.json',
    'cat swagger.yaml | svc to-v3-json -',
  ],
  diff: [
    'svc diff old.yaml new.yaml',
    'svc diff old.yaml new.yaml --fail-on breaking --policy sunset',
    'svc diff old.yaml new.yaml --profile sdk --fail-on breaking',
  ],
  init: ['svc init demo', 'svc init demo --name @acme/demo --base-path src/api'],
  install: ['svc install gen-typescript gen-zod', 'svc install --list'],
  clone: ['svc clone --generator gen-zod', 'svc clone demo --generator gen-typescript'],
  remove: ['svc remove gen-zod', 'svc remove gen-zod --project demo --force'],
  bundle: ['svc bundle', 'svc bundle demo --server'],
  generate: ['svc generate demo openapi.yaml', 'svc generate --no-input'],
  doctor: ['svc doctor', 'svc doctor --project demo --json'],
  login: [
    'svc login --origin https://hub.example.com',
    'echo "$SVC_HUB_TOKEN" | svc login --origin https://hub.example.com --with-token',
  ],
  logout: ['svc logout'],
  whoami: ['svc whoami', 'svc whoami --origin https://hub.example.com --json'],
  publish: ['svc publish demo --version 1.0.0', 'svc publish demo --json'],
  push: ['svc push demo --project @acme/billing', 'svc push --base-files --force'],
  pull: ['svc pull demo --project @acme/billing', 'svc pull --force'],
  completion: ['svc completion bash', 'svc completion zsh > ~/.zfunc/_svc'],
}

/** Examples and docs pages declared beside a command in program.ts, over the tables here. */
const DECLARED = new WeakMap<Command, { examples: readonly string[]; docs?: string }>()

/** Declares a command's examples and, when it is not `docs/commands/<command>.md`, its page. */
export function declareHelp(command: Command, examples: readonly string[], docs?: string): Command {
  DECLARED.set(command, { examples, ...(docs === undefined ? {} : { docs }) })
  return command
}

/** Commands documented on another command's page. */
const DOCS_PAGE: Readonly<Record<string, string>> = { logout: 'login', whoami: 'login' }

/**
 * The checkout the CLI runs from (its dist/ or src/, beside docs/), or undefined for a CLI
 * installed from its tarball, three folders below a project's node_modules/: the docs are then
 * named in the svc repository, never as a path that happens to exist there.
 */
function repoDir(): string | undefined {
  const dir = fileURLToPath(new URL('../../../', import.meta.url))
  return existsSync(`${dir}packages/cli/package.json`) && existsSync(`${dir}docs/`)
    ? dir
    : undefined
}

/** A command's path below `svc`: `check`, `api push`. */
export function commandPath(command: Command): string {
  const names: string[] = []
  for (let at: Command | null = command; at?.parent; at = at.parent) names.unshift(at.name())
  return names.join(' ')
}

/**
 * The page of `docs/commands/` for a command (its top-level command's, for a subcommand): the
 * file in this checkout when it is there, so it opens from a terminal; otherwise its path in the
 * svc repository.
 */
export function docsLink(path: string, declared?: string): string {
  const top = path.split(' ')[0]!
  const page = declared ?? `docs/commands/${DOCS_PAGE[top] ?? top}.md`
  const repo = repoDir()
  return repo !== undefined && existsSync(`${repo}${page}`)
    ? `${repo}${page}`
    : `${page} in the svc repository`
}

export function examplesOf(command: Command): readonly string[] {
  return DECLARED.get(command)?.examples ?? EXAMPLES[commandPath(command)] ?? []
}

/** `--no-input`: every command takes it (finishCommands adds it where a command does not). */
export const noInput = () =>
  new Option('--no-input', 'never prompt; refuse what would need an answer (strict mode)')

/**
 * What every command has, applied once over the whole tree after it is declared: `--no-input`
 * (harmless where nothing prompts, so scripts can pass it to any command), and the `Examples:`
 * block and `Docs:` line after its help.
 */
export function finishCommands(program: Command): Command {
  for (const command of program.commands) finish(command)
  program.addHelpText(
    'after',
    () =>
      `\nExamples:\n${['svc check openapi.yaml', 'svc init demo', 'svc doctor']
        .map((line) => `  $ ${line}`)
        .join('\n')}\n\nDocs: ${docsLink('', 'docs/commands/')}\n`,
  )
  return program
}

function finish(command: Command): void {
  if (command.commands.length > 0) command.commands.forEach(finish)
  else if (!command.options.some((option) => option.long === '--no-input'))
    command.addOption(noInput())
  const path = commandPath(command)
  command.addHelpText('after', () => {
    const examples = examplesOf(command)
    const block =
      examples.length > 0 ? `\nExamples:\n${examples.map((e) => `  $ ${e}`).join('\n')}\n` : ''
    return `${block}\nDocs: ${docsLink(path, DECLARED.get(command)?.docs)}\n`
  })
}
