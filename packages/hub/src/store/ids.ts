import { randomBytes } from 'node:crypto'

/** A new opaque id such as `tok_3f9c…`; the prefix tells what it names in logs and URLs. */
export function newId(
  prefix:
    | 'usr'
    | 'org'
    | 'tok'
    | 'key'
    | 'stk'
    | 'ver'
    | 'api'
    | 'prj'
    | 'rev'
    | 'whk'
    | 'evt'
    | 'dlv'
    | 'cre'
    | 'lib'
    | 'ses'
    | 'dep'
    | 'run',
): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`
}

export function now(): string {
  return new Date().toISOString()
}

/**
 * Orders text the same on both engines: PostgreSQL's ORDER BY follows the database's collation
 * (`en_US` puts `B` between `a` and `c`), so lists of paths and handles are sorted here instead.
 */
export function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
