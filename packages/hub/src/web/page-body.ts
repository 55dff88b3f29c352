import { createMiddleware } from 'hono/factory'
import type { HubConfig } from '../config.js'
import { ApiError } from '../errors/index.js'
import { readLimitedBody } from '../http/limited-body.js'
import { ANONYMOUS_BODY_BYTES } from '../http/request-body.js'
import type { WebContext, WebEnv } from './env.js'
import { errorPage, notFoundPage, signInRedirect } from './responses.js'
import { viewerCanWrite } from './viewer-accounts.js'

/** A form post of a signed-in user. */
const FORM_BYTES = 256 * 1024
/** Room for one part's headers and boundary in an upload of many files. */
const FRAMING_BYTES_PER_FILE = 1024
const BODYLESS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * The pages that take an upload: the account on their path, which the viewer must be able to
 * write before a byte of the upload is read, and how large it may be.
 */
const UPLOADS: readonly { readonly path: RegExp; readonly bytes: (config: HubConfig) => number }[] =
  [
    {
      path: /^\/([^/]+)\/apis\/[^/]+\/revisions\/new$/,
      bytes: (c) => c.documentBytes + FORM_BYTES,
    },
    {
      path: /^\/([^/]+)\/projects\/[^/]+\/base-files$/,
      bytes: (c) =>
        c.baseFiles.sourceBytes + c.baseFiles.files * FRAMING_BYTES_PER_FILE + FORM_BYTES,
    },
  ]

/**
 * Reads a page's body once the request is allowed to send one that large: a signed-out browser
 * at most {@link ANONYMOUS_BODY_BYTES} (the sign-in and sign-up forms), a signed-in user a form,
 * and an upload only to an account the user can write. A refusal is answered before the body is
 * read (the connection then closes), so no request the hub refuses makes it hold more than the
 * anonymous limit. The form is parsed here too: a body that is no form is 400, never a 500.
 */
export const readPageBody = createMiddleware<WebEnv>(async function readPageBody(c, next) {
  const request = c.req.raw
  if (BODYLESS.has(request.method) || !request.body) return next()
  const admitted = await admittedBytes(c)
  if (typeof admitted !== 'number') {
    c.header('Connection', 'close')
    return admitted
  }
  let body: Buffer | undefined
  try {
    body = await readLimitedBody(request, admitted)
  } catch (error) {
    if (!(error instanceof ApiError)) throw error
    if (error.closeConnection) c.header('Connection', 'close')
    if (error.code !== 'payload_too_large') return unreadable(c)
    return errorPage(
      c,
      413,
      'Too large',
      c.get('viewer')
        ? 'This form sent more than the hub takes.'
        : `Signed out, the hub takes forms of at most ${ANONYMOUS_BODY_BYTES / 1024} KiB. Sign in, then send it again.`,
    )
  }
  c.req.raw = new Request(request.url, {
    method: request.method,
    headers: request.headers,
    ...(body ? { body } : {}),
  })
  try {
    // Parsed once here; the pages' own parseBody() calls reuse it.
    await c.req.parseBody()
  } catch {
    return unreadable(c)
  }
  await next()
})

/** How many bytes the request may send, or the answer that refuses it unread. */
async function admittedBytes(c: WebContext): Promise<number | Response> {
  const upload = uploadTo(c.req.path)
  if (!c.get('viewer')) return upload ? signInRedirect(c) : ANONYMOUS_BODY_BYTES
  if (!upload) return FORM_BYTES
  if (upload.account === undefined || !(await viewerCanWrite(c, upload.account))) {
    return notFoundPage(c)
  }
  return upload.bytes(c.get('hub').config)
}

function uploadTo(path: string) {
  for (const upload of UPLOADS) {
    const match = upload.path.exec(path)
    if (match) return { account: decoded(match[1]!), bytes: upload.bytes }
  }
  return undefined
}

function decoded(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment)
  } catch {
    return undefined
  }
}

function unreadable(c: WebContext): Response | Promise<Response> {
  return errorPage(
    c,
    400,
    'Unreadable form',
    'The hub could not read what this form sent. Go back, reload the page and send it again.',
  )
}
