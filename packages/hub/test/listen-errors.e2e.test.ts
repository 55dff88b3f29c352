import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import net from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { assertBuildFresh } from './support/fresh-build.js'
import { HUB_BIN, runNode, type CommandRun } from './support/hub-process.js'

let dataDir: string
beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'svc-hub-listen-'))
})
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

/** The hub's environment: SQLite in `dataDir` (where it listens is the subject, not the store). */
function hubEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = {
    ...process.env,
    NO_COLOR: '1',
    SVC_HUB_LOG_FORMAT: 'json',
    SVC_HUB_DATA: dataDir,
  }
  delete base.DATABASE_URL
  delete base.PORT
  delete base.HOST
  return { ...base, ...env }
}

/** A server of another program on a free loopback port; it answers every connection `held`. */
async function holdPort(): Promise<{ port: number; close(): Promise<void> }> {
  const server = net.createServer((socket) => socket.end('held\n'))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as net.AddressInfo
  return { port, close: () => new Promise((resolve) => server.close(() => resolve())) }
}

function readFrom(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = ''
    net
      .connect(port, '127.0.0.1')
      .on('data', (chunk) => (text += chunk.toString('utf8')))
      .on('end', () => resolve(text))
      .on('error', reject)
  })
}

describe('svc-hub serve where it cannot listen: one line naming PORT or HOST, exit 1', () => {
  it('a port another program holds (EADDRINUSE), from PORT or --port', async () => {
    const holder = await holdPort()
    try {
      const { port } = holder
      const line = `error: 127.0.0.1:${port} is in use by another program; start the hub on another port with PORT=${port + 1} (or HOST=… to listen elsewhere).\n`
      const fromEnv = await runNode([HUB_BIN, 'serve'], hubEnv({ PORT: String(port) }))
      expect(fromEnv.code, fromEnv.stderr).toBe(1)
      expect(fromEnv.stderr).toBe(line)
      const fromFlag = await runNode([HUB_BIN, 'serve', '--port', String(port)], hubEnv({}))
      expect(fromFlag.code, fromFlag.stderr).toBe(1)
      expect(fromFlag.stderr).toBe(line)
      // Nothing of the hub reached the holder, which still has its port.
      expect(await readFrom(port)).toBe('held\n')
    } finally {
      await holder.close()
    }
  })

  it('a HOST that is not an address of this machine (EADDRNOTAVAIL)', async () => {
    // 192.0.2.0/24 is TEST-NET-1 (RFC 5737): no machine has it.
    const run = await runNode([HUB_BIN, 'serve'], hubEnv({ HOST: '192.0.2.1', PORT: '8080' }))
    expect(run.code, run.stderr).toBe(1)
    expect(run.stderr).toBe(
      'error: cannot listen on 192.0.2.1:8080: HOST=192.0.2.1 is not an address of this machine; set HOST to one of its addresses (HOST=0.0.0.0 listens on all of them, the default 127.0.0.1 on this machine only).\n',
    )
  })

  it('a HOST that is a name nothing resolves (ENOTFOUND)', async () => {
    // .invalid never resolves (RFC 2606).
    const run = await runNode([HUB_BIN, 'serve'], hubEnv({ HOST: 'hub.invalid', PORT: '8080' }))
    expect(run.code, run.stderr).toBe(1)
    expect(run.stderr).toBe(
      'error: cannot listen on hub.invalid:8080: HOST=hub.invalid is not a name this machine can resolve; set HOST to one of its addresses (HOST=0.0.0.0 listens on all of them, the default 127.0.0.1 on this machine only).\n',
    )
  })

  // Root may listen below 1024; in a user namespace of its own (util-linux unshare) it may not.
  const runner = process.getuid?.() === 0 ? ['unshare', '-r'] : []
  const refused = (() => {
    const probe = `require('net').createServer().listen(80, '127.0.0.1').on('error', (e) => { console.log(e.code); process.exit() }).on('listening', () => process.exit())`
    const [command, ...args] = [...runner, process.execPath, '-e', probe]
    return spawnSync(command, args, { encoding: 'utf8' }).stdout?.trim() === 'EACCES'
  })()
  if (!refused && process.env.CI === 'true')
    throw new Error('CI=true but port 80 is not refused here, even in a user namespace')
  if (!refused)
    console.warn('[hub tests] skipping the privileged-port test: this process may listen on 80')

  it.skipIf(!refused)('a privileged port (EACCES)', async () => {
    const run = await runUnder(runner, [HUB_BIN, 'serve'], hubEnv({ PORT: '80' }))
    expect(run.code, run.stderr).toBe(1)
    expect(run.stderr).toBe(
      'error: this process may not listen on 127.0.0.1:80: ports below 1024 need privileges; start the hub on another port with PORT=8080 (a reverse proxy in front of it can take port 80).\n',
    )
  })
})

/** `node <args>` under `runner` (e.g. `unshare -r`), with its output. */
function runUnder(
  runner: readonly string[],
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<CommandRun> {
  if (runner.length === 0) return runNode(args, env)
  assertBuildFresh()
  return new Promise((resolve, reject) => {
    const [command, ...rest] = [...runner, process.execPath, ...args]
    const child = spawn(command!, rest, { env, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}
