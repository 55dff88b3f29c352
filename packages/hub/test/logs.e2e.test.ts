import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { assertBuildFresh } from './support/fresh-build.js'
import { HUB_BIN, runNode } from './support/hub-process.js'

const ANSI = /\u001b\[[0-9;]*m/g
/** A pino-pretty line: time, level, message, then the fields on the same line. */
const PRETTY_LISTENING =
  /^\[\d{2}:\d{2}:\d{2}\.\d{3}\] INFO: listening \{"url":"http:\/\/127\.0\.0\.1:\d+",/m

/**
 * Runs `svc-hub <args>` until `until` shows on its stdout, then SIGTERMs it; answers its stdout
 * (a terminal has stderr on it too). On a terminal, stdout is a pseudo-terminal (`script` of util-linux);
 * otherwise it is a pipe.
 */
async function printed(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  until: string,
  on: 'terminal' | 'pipe',
): Promise<string> {
  assertBuildFresh()
  const command = [process.execPath, HUB_BIN, ...args]
  const child =
    on === 'terminal'
      ? spawn('script', ['-qfec', command.map((a) => `'${a}'`).join(' '), '/dev/null'], {
          env,
          // Its own process group: the signal reaches `script` and the hub under it.
          detached: true,
          stdio: ['ignore', 'pipe', 'pipe'],
        })
      : spawn(command[0]!, command.slice(1), { env, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  let stderr = ''
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8')
      if (output.includes(until)) resolve()
    })
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
    void exited.then(() => reject(new Error(`exited before "${until}":\n${output}${stderr}`)))
  })
  if (on === 'terminal') process.kill(-child.pid!, 'SIGTERM')
  else child.kill('SIGTERM')
  await exited
  return output.replaceAll('\r\n', '\n')
}

describe('hub logs: readable on a terminal, JSON lines otherwise', () => {
  let dataDir: string
  /** A terminal that shows colours, an empty SQLite store, any free port. */
  const env = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      TERM: 'xterm-256color',
      PORT: '0',
      HOST: '127.0.0.1',
      SVC_HUB_DATA: dataDir,
      SVC_HUB_LOG_LEVEL: 'info',
      ...extra,
    }
    for (const name of ['NO_COLOR', 'FORCE_COLOR', 'CI', 'DATABASE_URL']) delete env[name]
    return env
  }
  const jsonMessages = (output: string) =>
    output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => (JSON.parse(line) as { msg: string }).msg)

  /** The start's lines: the stop's may or may not be flushed before the test reads them. */
  const startLines = (output: string) => {
    const messages = jsonMessages(output)
    return messages.slice(0, messages.indexOf('listening') + 1)
  }

  beforeAll(() => void (dataDir = mkdtempSync(join(tmpdir(), 'svc-hub-logs-'))))
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

  it('on a terminal, serve prints one coloured, readable line per entry', async () => {
    const output = await printed(['serve'], env(), 'listening', 'terminal')
    expect(output).toMatch(ANSI)
    const plain = output.replace(ANSI, '')
    expect(plain).toMatch(PRETTY_LISTENING)
    expect(plain).toMatch(/^\[[\d:.]+\] INFO: store ready \{"store":"sqlite /m)
    expect(jsonMessages(plain)).toEqual([])
  })

  it('piped, serve prints JSON lines only', async () => {
    const output = await printed(['serve'], env(), 'listening', 'pipe')
    const lines = output.trim().split('\n')
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ service: 'svc-hub' })
    expect(startLines(output)).toEqual(['store ready', 'outbound guard', 'listening'])
  })

  it('SVC_HUB_LOG_FORMAT=json keeps JSON lines on a terminal', async () => {
    const output = await printed(
      ['serve'],
      env({ SVC_HUB_LOG_FORMAT: 'json' }),
      'listening',
      'terminal',
    )
    expect(startLines(output)).toEqual(['store ready', 'outbound guard', 'listening'])
    expect(output).not.toMatch(ANSI)
  })

  it('SVC_HUB_LOG_FORMAT=pretty makes piped lines readable, without colour', async () => {
    const output = await printed(
      ['serve'],
      env({ SVC_HUB_LOG_FORMAT: 'pretty' }),
      'listening',
      'pipe',
    )
    expect(output).toMatch(PRETTY_LISTENING)
    expect(output).not.toMatch(ANSI)
  })

  it('the worker logs the same way on a terminal', async () => {
    const output = await printed(['worker'], env(), 'webhook worker started', 'terminal')
    expect(output).toMatch(ANSI)
    expect(output.replace(ANSI, '')).toMatch(
      /^\[[\d:.]+\] INFO: webhook worker started \{"store":"sqlite /m,
    )
  })

  it('refuses another SVC_HUB_LOG_FORMAT before it starts: exit 1 and one error line', async () => {
    const run = await runNode([HUB_BIN, 'serve'], env({ SVC_HUB_LOG_FORMAT: 'xml' }))
    expect(run.code, run.stderr).toBe(1)
    expect(run.stderr).toBe("error: SVC_HUB_LOG_FORMAT must be 'json' or 'pretty', got 'xml'\n")
    expect(run.stdout).toBe('')
  })
})
