import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunSettings } from '../config.js'
import { findSandbox, probeSandbox, runToEnd } from './sandbox-probe.js'
import { makeRunDir, MAX_TASKS, OFF_HEAP_MB, sandboxCommand, TEMP_BYTES } from './sandbox.js'

const SETTINGS: RunSettings = {
  timeoutMs: 20_000,
  memoryMb: 64,
  maxOutputBytes: 1024 * 1024,
  sandbox: 'bwrap',
}

/**
 * Escape attempts made with Node's permission model off, so that only the sandbox stands in the
 * way. Each answers what it got: an error code, or what it saw.
 */
function attempts(hubPid: number, port: number, hubFile: string): string {
  return `
const fs = require('node:fs')
const net = require('node:net')
const { spawn } = require('node:child_process')
const code = (run) => { try { run(); return 'allowed' } catch (error) { return error.code ?? error.name } }
const connect = (options) => new Promise((resolve) => {
  const socket = net.connect(options)
  socket.on('connect', () => { socket.destroy(); resolve('connected') })
  socket.on('error', (error) => resolve(error.code))
})
const children = async (count) => {
  const started = []
  for (let i = 0; i < count; i++) {
    const child = spawn('/usr/bin/sleep', ['5'])
    const outcome = await new Promise((resolve) => {
      child.on('spawn', () => resolve('spawned'))
      child.on('error', (error) => resolve(error.code))
    })
    if (outcome !== 'spawned') return { started: started.length, error: outcome }
    started.push(child)
  }
  return { started: started.length }
}
const memory = () => {
  const kept = []
  try { for (;;) kept.push(Buffer.alloc(32 * 1024 * 1024, 1)) }
  catch (error) { return { mb: kept.length * 32, error: error.message } }
}
;(async () => {
  const outcome = {
    pid: process.pid,
    uid: process.getuid(),
    processes: fs.readdirSync('/proc').filter((name) => /^\\d+$/.test(name)),
    killHub: code(() => process.kill(${hubPid}, 'SIGKILL')),
    killAll: code(() => process.kill(-1, 'SIGKILL')),
    stopParent: code(() => process.kill(process.ppid, 'SIGSTOP')),
    tcp: await connect({ host: '127.0.0.1', port: ${port} }),
    postgres: await connect({ host: '127.0.0.1', port: 5432 }),
    postgresSocket: await connect({ path: '/var/run/postgresql/.s.PGSQL.5432' }),
    passwd: code(() => fs.readFileSync('/etc/passwd')),
    hubFile: code(() => fs.readFileSync(${JSON.stringify(hubFile)})),
    writeBundle: code(() => fs.writeFileSync('/bundle/x', 'x')),
    writeUsr: code(() => fs.writeFileSync('/usr/x', 'x')),
    writeTemp: code(() => fs.writeFileSync('/tmp/x', 'x')),
    fillTemp: code(() => fs.writeFileSync('/tmp/big', Buffer.alloc(${TEMP_BYTES} + 1))),
    children: await children(${MAX_TASKS} * 2),
    memory: memory(),
  }
  process.stdout.write(JSON.stringify(outcome))
  process.exit(0)
})()
`
}

describe('the bubblewrap sandbox on its own (Node permission model off)', () => {
  let listener: Server
  let connections = 0
  let hubFile: string

  beforeAll(async () => {
    listener = createServer((socket) => {
      connections++
      socket.destroy()
    })
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve))
    hubFile = join(mkdtempSync(join(tmpdir(), 'svc-sandbox-test-')), 'hub.db')
    writeFileSync(hubFile, 'the hub store')
  })
  afterAll(async () => {
    await new Promise((resolve) => listener.close(resolve))
    rmSync(dirname(hubFile), { recursive: true, force: true })
  })

  it('holds each escape attempt: processes, network, files, tasks and memory', async () => {
    const found = await findSandbox(SETTINGS)
    if (!found.ok) throw new Error(`runs need bubblewrap here: ${found.reason}`)
    const port = (listener.address() as { port: number }).port
    const dir = await makeRunDir(
      found.sandbox,
      new TextEncoder().encode(attempts(process.pid, port, hubFile)),
    )
    try {
      const command = sandboxCommand(found.sandbox, dir, SETTINGS, ['/bundle/server.js'])
      const run = await runToEnd(command, dir)
      expect(run.code, run.stderr).toBe(0)
      const outcome = JSON.parse(run.stdout)
      expect(outcome).toMatchObject({
        // Its own PID namespace: bwrap's init is 1, the run is 2, the hub is not there.
        pid: 2,
        processes: ['1', '2'],
        uid: 65534,
        killHub: 'ESRCH',
        killAll: 'ESRCH',
        // The parent it sees is the sandbox's init, which ignores signals it has no handler for.
        stopParent: 'allowed',
        tcp: 'ECONNREFUSED',
        postgres: 'ECONNREFUSED',
        postgresSocket: 'ENOENT',
        passwd: 'ENOENT',
        hubFile: 'ENOENT',
        writeBundle: 'EROFS',
        writeUsr: 'EROFS',
        writeTemp: 'allowed',
        fillTemp: expect.stringMatching(/^(ENOSPC|EFBIG)$/),
        children: { error: 'EAGAIN' },
      })
      expect(outcome.children.started).toBeLessThan(MAX_TASKS)
      expect(outcome.memory.error).toBe('Array buffer allocation failed')
      expect(outcome.memory.mb).toBeLessThan(SETTINGS.memoryMb + OFF_HEAP_MB)
      expect(connections).toBe(0)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 30_000)

  it('is unavailable, and says why, when bwrap is not on PATH', async () => {
    expect(await probeSandbox(SETTINGS, '/nonexistent')).toEqual({
      ok: false,
      reason: 'bwrap is not on PATH',
    })
    expect(await probeSandbox({ ...SETTINGS, sandbox: 'unsafe-none' }, '/nonexistent')).toEqual({
      ok: true,
      sandbox: { kind: 'none' },
    })
  })
})
