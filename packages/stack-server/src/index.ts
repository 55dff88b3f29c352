/**
 * @module @svc/stack-server: what a published stack runs. `createServer` gives the Hono app,
 * `startStackServer` runs it the way a bundled `server.js` does.
 */
export { createServer, DEFAULT_MAX_BODY_BYTES, type CreateServerOptions } from './server.js'
export { startStackServer, type StartOptions } from './listen.js'
export type { StackIdentity } from './deps.js'
export { ERROR_STATUS, StackError, type ErrorCode } from './errors.js'
export { SOURCE_LIMITS, type SourceLimits } from './source/fetch-source.js'
