import type { Context } from 'hono'
import type { HubEnv } from '../http/env.js'
import type { ApiClient } from './api-client.js'

/** The signed-in user of a page request. */
export type Viewer = {
  readonly userId: string
  readonly handle: string
  readonly sessionId: string
}

/**
 * A notice shown once on the next page. It is kept in the session row, so it never holds a secret:
 * a new token or signing secret travels beside it, sealed (web/session/sealed-secret.ts).
 */
export type Flash = {
  readonly kind: 'success' | 'error'
  readonly message: string
}

/** A new secret on the one page that shows it; `value` is gone when the browser lost its key. */
export type ShownSecret = { readonly label: string; readonly value: string | undefined }

export type WebEnv = {
  /** The hub's request (its services, log and id), and the socket's bindings for client addresses. */
  Bindings: {
    readonly hub: Context<HubEnv>
  }
  Variables: HubEnv['Variables'] & {
    viewer: Viewer | undefined
    /** The token every form on the page carries (web/session/csrf.ts). */
    csrfToken: string
    /** The notice of the previous action, read (and cleared) when the session was loaded. */
    flash: Flash | undefined
    /** The secret the previous action made, opened with the browser's key along with `flash`. */
    secret: ShownSecret | undefined
    /** The hub's own /v1 API, called in-process as the viewer. */
    api: ApiClient
  }
}

export type WebContext = Context<WebEnv>
