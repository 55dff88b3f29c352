import type { ExternalDocs } from '../model/schema.js'
import { isObject } from './context.js'

/** An `externalDocs` object; undefined when absent or without a string `url`. */
export function readExternalDocs(value: unknown): ExternalDocs | undefined {
  if (!isObject(value) || typeof value.url !== 'string') return undefined
  return Object.freeze(
    typeof value.description === 'string'
      ? { url: value.url, description: value.description }
      : { url: value.url },
  )
}
