import {
  closeSync,
  fstatSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect } from 'vitest'
import { outcomeBundle } from './stack-bundles.js'

/** The descriptor a process is given open for appending to the host file, and the secret's. */
export const HOST_FD = 200
export const SECRET_FD = 201

/** The secret file's text: a run must never answer it. */
export const SECRET = 'the-secret-the-sandbox-must-not-read'

/**
 * A bundle that tries every descriptor from 3 to 300: it writes to {@link HOST_FD}, reads
 * {@link SECRET_FD}, and answers in `outcome.json` what each attempt gave (the error code, or
 * what it read) and the device and inode of every descriptor open in it.
 */
export const DESCRIPTOR_BUNDLE = outcomeBundle(`
  const fs = require('node:fs')
  const open = {}
  for (let fd = 3; fd <= 300; fd++) {
    try {
      const stat = fs.fstatSync(fd)
      open[fd] = { dev: stat.dev, ino: stat.ino }
    } catch {}
  }
  const read = (fd) => {
    try { return fs.readFileSync(fd, 'utf8') } catch (error) { return error.code }
  }
  return {
    open,
    write: code(() => fs.writeSync(${HOST_FD}, 'written from the sandbox\\n')),
    read: read(${SECRET_FD}),
  }
`)

/** What {@link DESCRIPTOR_BUNDLE} answers. */
export type DescriptorOutcome = {
  readonly open: Record<string, { dev: number; ino: number }>
  readonly write: string
  readonly read: string
}

/**
 * A host file (empty) and a secret file in a new temp dir, open in this process, to hand to a
 * child at {@link HOST_FD} and {@link SECRET_FD}; `expectUntouched` checks an outcome and the
 * files; `close` closes and removes them.
 */
export function hostFiles() {
  const dir = mkdtempSync(join(tmpdir(), 'svc-hub-fds-'))
  const hostPath = join(dir, 'host-file')
  const secretPath = join(dir, 'secret-file')
  writeFileSync(hostPath, '')
  writeFileSync(secretPath, SECRET)
  const host = openSync(hostPath, 'a')
  const secret = openSync(secretPath, 'r')
  const identities = [fstatSync(host), fstatSync(secret)].map((s) => `${s.dev}:${s.ino}`)
  return {
    descriptors: { [HOST_FD]: host, [SECRET_FD]: secret },
    /** Neither file is open in the run, written or read, whatever else `text` says. */
    expectUntouched(outcome: DescriptorOutcome, text: string) {
      expect(outcome.write).toBe('EBADF')
      expect(outcome.read).toBe('EBADF')
      const seen = Object.values(outcome.open).map((s) => `${s.dev}:${s.ino}`)
      for (const identity of identities) expect(seen).not.toContain(identity)
      expect(text).not.toContain(SECRET)
      expect(readFileSync(hostPath, 'utf8')).toBe('')
    },
    close() {
      closeSync(host)
      closeSync(secret)
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
