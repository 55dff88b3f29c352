import type { AnyGeneratorEntry } from '@svc/engine/generate'
import type { SafeFetch } from '@svc/safe-fetch'
import type { SourceLimits } from './source/fetch-source.js'

/** Who the server is: the stack and version it was published as. */
export type StackIdentity = { readonly name: string; readonly version: string }

/** What every route of one server shares. */
export type ServerDeps = {
  readonly generators: readonly AnyGeneratorEntry[]
  readonly identity: StackIdentity
  readonly fetch: SafeFetch
  readonly limits: SourceLimits
}
