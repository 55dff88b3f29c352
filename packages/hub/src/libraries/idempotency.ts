import { createHash } from 'node:crypto'
import { createMiddleware } from 'hono/factory'
import { ApiError } from '../errors/index.js'
import type { HubEnv } from '../http/env.js'
import type { IdempotencyKeyId } from '../store/idempotency-repo.js'
import { byCodeUnits, now } from '../store/ids.js'
import type { Repos, Store } from '../store/store.js'

/** How long a key is remembered: after that it may be used again. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000

/**
 * How long a claim may stay in flight before another request with the same key and body may
 * take it over: a request whose process died must not hold its key for a day.
 */
export const IN_FLIGHT_LEASE_MS = 60_000

/** What a client may send: 1 to 255 printable ASCII characters, no spaces (a UUID fits). */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/

/** A response as it was sent, so that a replay sends the same bytes. */
export type StoredResponse = { readonly status: number; readonly body: string }

export type Outcome =
  | { readonly kind: 'first' | 'replay'; readonly response: StoredResponse }
  /** Another request holds the key and has not answered yet. */
  | { readonly kind: 'in_flight' }

/**
 * Route middleware: 400 `idempotency_key_required` unless the request has a usable
 * `Idempotency-Key`. It runs before the body is read, like the credential checks.
 */
export const requireIdempotencyKey = createMiddleware<HubEnv>(
  async function requireIdempotencyKey(c, next) {
    idempotencyKey(c.req.header('idempotency-key'))
    await next()
  },
)

/** The `Idempotency-Key` header value, or 400 `idempotency_key_required`. */
export function idempotencyKey(header: string | undefined): string {
  if (header !== undefined && IDEMPOTENCY_KEY_PATTERN.test(header)) return header
  throw new ApiError(
    'idempotency_key_required',
    header === undefined
      ? 'This request needs an `Idempotency-Key` header: a unique value per operation, such as a UUID.'
      : 'The `Idempotency-Key` header must be 1 to 255 printable ASCII characters without spaces.',
  )
}

/** SHA-256 (hex) of `value` as canonical JSON: object keys sorted, so key order never matters. */
export function requestHash(value: unknown): string {
  const canonical = JSON.stringify(value, (_key, node: unknown) =>
    typeof node === 'object' && node !== null && !Array.isArray(node)
      ? Object.fromEntries(Object.entries(node).sort(([a], [b]) => byCodeUnits(a, b)))
      : node,
  )
  return createHash('sha256').update(canonical, 'utf8').digest('hex')
}

/**
 * Runs `work` once per key and request: the first request with `id` claims it (one INSERT that
 * the key's primary key lets through once, committed on its own), then runs `work` in a
 * transaction that also stores its response, so the effect and the response to replay land
 * together or not at all. A later request with the same key and hash gets that response back;
 * with another hash it is 422 `idempotency_conflict`; while the first is still working it is
 * `in_flight`. If `work` fails, the key is freed and nothing is remembered.
 */
export async function runOnce(
  store: Store,
  id: IdempotencyKeyId,
  hash: string,
  work: (tx: Repos) => Promise<StoredResponse>,
): Promise<Outcome> {
  const at = now()
  await store.idempotency.sweep(at)
  const claim = await store.idempotency.claim(id, {
    requestHash: hash,
    at,
    expiresAt: new Date(Date.parse(at) + IDEMPOTENCY_KEY_TTL_MS).toISOString(),
  })
  let token: string
  if (claim.claimed) {
    token = claim.token
  } else {
    const { row } = claim
    if (row.request_hash !== hash) throw conflict(id.key)
    if (row.state === 'done') {
      return {
        kind: 'replay',
        response: { status: row.response_status!, body: row.response_body! },
      }
    }
    const stale = Date.parse(row.claimed_at) + IN_FLIGHT_LEASE_MS <= Date.parse(at)
    const taken = stale ? await store.idempotency.takeOver(id, row.claim_token, at) : undefined
    if (!taken) return { kind: 'in_flight' }
    token = taken
  }

  try {
    const response = await store.transaction(async (tx) => {
      const response = await work(tx)
      if (!(await tx.idempotency.complete(id, token, response))) throw new ClaimLost()
      return response
    })
    return { kind: 'first', response }
  } catch (error) {
    // Taken over after the lease ran out: the request that took it answers instead.
    if (error instanceof ClaimLost) return { kind: 'in_flight' }
    // If even this fails, the claim is left in flight until its lease runs out.
    await store.idempotency.release(id, token).catch(() => undefined)
    throw error
  }
}

/** 409 `idempotency_in_flight`, for a client to retry after a moment. */
export function inFlight(key: string): ApiError {
  return new ApiError(
    'idempotency_in_flight',
    'A request with this Idempotency-Key is still in progress; retry it shortly to get its response.',
    { idempotencyKey: key },
  )
}

function conflict(key: string): ApiError {
  return new ApiError(
    'idempotency_conflict',
    'This Idempotency-Key was used in the last 24 hours for a different request; use a new key for a new request.',
    { idempotencyKey: key },
  )
}

class ClaimLost extends Error {
  override readonly name = 'ClaimLost'
}
