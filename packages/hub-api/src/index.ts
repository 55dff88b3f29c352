/**
 * The svc hub's `/v1` answers (and the request bodies clients build) as zod schemas: the hub's
 * routes declare them, so `/v1/openapi.json` describes them, and the web app and the CLI parse
 * what the hub answers with the same schemas.
 *
 * @example
 * ```ts
 * import { StackVersionSchema, type StackVersion } from '@svc/hub-api'
 * const version: StackVersion = StackVersionSchema.parse(await response.json())
 * ```
 */
export * from './apis.js'
export * from './deployments.js'
export * from './health.js'
export * from './no-content.js'
export * from './projects.js'
export * from './rate-limits.js'
export * from './revisions.js'
export * from './stacks.js'
export * from './usage.js'
export * from './user.js'
export * from './webhook-events.js'
export * from './webhooks.js'
