import { createRequire } from 'node:module'
import { Command, Option } from 'commander'
import pc from 'picocolors'
import { loadConfig } from './config.js'
import { registerAdminCommands } from './admin/commands.js'
import { EXIT_FAILURE, exitCodeFor } from './exit-code.js'
import { closeInheritedDescriptors, logClosedDescriptors } from './runs/inherited-descriptors.js'

// First thing: a descriptor the hub inherited without close-on-exec would be open in every
// process it starts, runs included.
const inherited = closeInheritedDescriptors()

const { version } = createRequire(import.meta.url)('../package.json') as { version: string }

const program = new Command('svc-hub')
  .description('The svc hub: stores APIs, stacks and projects and serves them over HTTP')
  .version(version)
  .exitOverride()
  .configureOutput({ writeErr: (s) => process.stderr.write(s) })
  .showHelpAfterError()

program
  .command('serve')
  .description('Start the hub (HTTP API on PORT; SQLite under SVC_HUB_DATA, or DATABASE_URL)')
  .addOption(new Option('--port <port>', 'port to listen on (overrides PORT)').env('PORT'))
  .option('--no-dispatcher', 'do not deliver webhooks in this process (run `svc-hub worker`s)')
  .action(async (options: { port?: string; dispatcher: boolean }) => {
    const config = loadConfig({ ...process.env, ...(options.port ? { PORT: options.port } : {}) })
    // Loaded here, not at the top: the admin commands need neither the HTTP app nor its deps.
    const { createLogger, startHub } = await import('./server.js')
    const log = createLogger(config)
    logClosedDescriptors(inherited, log)
    const hub = await startHub(
      config,
      log,
      (pat, publicUrl) => {
        process.stderr.write(
          [
            '',
            pc.bold(
              'svc hub: first start. Created the user `admin` and a personal access token with every scope.',
            ),
            'It is shown only this once; store it now:',
            '',
            `  ${pc.green(pat)}`,
            '',
            `Try: curl -H "Authorization: Bearer ${pat}" ${publicUrl}/v1/user`,
            '',
          ].join('\n'),
        )
      },
      { dispatcher: options.dispatcher },
    )
    stopOnSignal(hub, log)
  })

program
  .command('worker')
  .description('Deliver webhooks only (no HTTP); run any number beside hubs on one PostgreSQL')
  .action(async () => {
    const config = loadConfig(process.env, { listens: false })
    const [{ createLogger }, { startWorker }] = await Promise.all([
      import('./server.js'),
      import('./worker.js'),
    ])
    const log = createLogger(config)
    logClosedDescriptors(inherited, log)
    stopOnSignal(await startWorker(config, log), log)
  })

registerAdminCommands(program)

/** SIGINT or SIGTERM: finish what is in flight, then exit. */
function stopOnSignal(
  running: { stop(): Promise<void> },
  log: { error(o: object, m: string): void },
) {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      running.stop().then(
        () => process.exit(0),
        (error: unknown) => {
          log.error({ err: error }, 'shutdown failed')
          process.exit(EXIT_FAILURE)
        },
      )
    })
  }
}

try {
  await program.parseAsync(process.argv)
} catch (error) {
  process.exitCode = exitCodeFor(error, (text) => void process.stderr.write(text))
}
