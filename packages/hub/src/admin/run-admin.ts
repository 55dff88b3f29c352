import { Command } from 'commander'
import { exitCodeFor } from '../exit-code.js'
import { registerAdminCommands, type AdminIo } from './commands.js'

export type RunAdminIo = AdminIo & { readonly stderr: (text: string) => void }

/**
 * `svc-hub admin <argv>` in this process: the same commands, output and exit codes as the
 * binary, with the environment, input and output of `io`. Answers the exit code.
 *
 * @example
 * const code = await runAdmin(['create-user', 'alice', '--json'], {
 *   env: process.env,
 *   stdin: process.stdin,
 *   stdout: (text) => void process.stdout.write(text),
 *   stderr: (text) => void process.stderr.write(text),
 * })
 */
export async function runAdmin(argv: readonly string[], io: RunAdminIo): Promise<number> {
  const program = new Command('svc-hub')
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .showHelpAfterError()
  registerAdminCommands(program, io)
  try {
    await program.parseAsync(['admin', ...argv], { from: 'user' })
    return 0
  } catch (error) {
    return exitCodeFor(error, io.stderr)
  }
}
