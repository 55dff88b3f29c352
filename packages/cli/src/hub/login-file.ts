import { chmodSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'
import { z } from 'zod'
import { writeFileAtomic } from '../project/write-files.js'

/** What `svc login` stores: the hub's origin and a personal access token. */
export type Login = { readonly host: string; readonly token: string }

const loginSchema = z.object({ host: z.string().min(1), token: z.string().min(1) })

/** `$XDG_CONFIG_HOME/svc/login.json`, by default `~/.config/svc/login.json`. */
export function loginFilePath(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config')
  return join(base, 'svc', 'login.json')
}

/** The stored login; undefined when there is none, or when the file is not one `svc login` wrote. */
export function readLogin(env: NodeJS.ProcessEnv): Login | undefined {
  try {
    const parsed = loginSchema.safeParse(JSON.parse(readFileSync(loginFilePath(env), 'utf8')))
    return parsed.success ? parsed.data : undefined
  } catch {
    return undefined
  }
}

/** Writes the login readable by its owner only (0600, in a 0700 folder). */
export function writeLogin(login: Login, env: NodeJS.ProcessEnv): string {
  const path = loginFilePath(env)
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 })
  writeFileAtomic(path, `${JSON.stringify(login, null, 2)}\n`, 0o600)
  chmodSync(path, 0o600)
  return path
}

/** Removes the stored login; false when there was none. */
export function removeLogin(env: NodeJS.ProcessEnv): boolean {
  const path = loginFilePath(env)
  try {
    readFileSync(path)
  } catch {
    return false
  }
  rmSync(path, { force: true })
  return true
}
