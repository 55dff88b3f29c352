import { randomBytes } from 'node:crypto'

/** A new opaque id such as `tok_3f9c…`; the prefix tells what it names in logs and URLs. */
export function newId(
  prefix: 'usr' | 'org' | 'tok' | 'key' | 'stk' | 'ver' | 'api' | 'prj',
): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`
}

export function now(): string {
  return new Date().toISOString()
}
