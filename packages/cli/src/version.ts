import { readFileSync } from 'node:fs'

/**
 * The CLI's version: its package.json's, one folder above this module whether it runs from src/,
 * from dist/ or from the bundle in dist/ (in this checkout and in the installed tarball alike).
 */
export const CLI_VERSION: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string
  }
).version
