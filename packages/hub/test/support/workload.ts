import { expect } from 'vitest'
import type { HubProcess } from './hub-process.js'
import { call, manifest, publishForm, type Reply } from './http.js'
import { oasJson } from './documents.js'

/** What the hub answered one request of a workload, and when. */
export type Outcome = {
  readonly what: 'push' | 'publish'
  readonly status: number | 'no answer'
  readonly code: string | undefined
  readonly retryAfter: string | null
  readonly startedAt: number
  readonly ms: number
}

/** A private API of `admin` (no revision yet). */
export async function createApi(hub: HubProcess, slug: string): Promise<void> {
  const created = await call(`${hub.url}/v1/apis`, {
    method: 'POST',
    token: hub.adminPat,
    json: { owner: 'admin', slug, name: slug, visibility: 'private' },
  })
  expect(created.status, created.text).toBe(201)
}

/** A webhook on `admin/<slug>` to `url`. */
export async function createWebhook(hub: HubProcess, slug: string, url: string): Promise<void> {
  const reply = await call(`${hub.url}/v1/apis/admin/${slug}/webhooks`, {
    method: 'POST',
    token: hub.adminPat,
    json: { url },
  })
  expect(reply.status, reply.text).toBe(201)
}

/** A document whose only operations are `GET /shared` and `GET /only/<tag>`. */
export function taggedDocument(tag: string): string {
  return oasJson(['get /shared', `get /only/${tag}`], 'Pets')
}

export function pushDocument(hub: HubProcess, slug: string, document: string): Promise<Reply> {
  return call(`${hub.url}/v1/apis/admin/${slug}/revisions`, {
    method: 'POST',
    token: hub.adminPat,
    headers: { 'Content-Type': 'application/json' },
    body: document,
  })
}

export function publishVersion(hub: HubProcess, slug: string, version: string): Promise<Reply> {
  return call(`${hub.url}/v1/stacks/admin/${slug}/versions`, {
    method: 'POST',
    token: hub.adminPat,
    body: publishForm({
      version,
      bundle: `export default { fetch() { return new Response(${JSON.stringify(version)}) } }\n`,
      files: [manifest(`@admin/${slug}`, {}, version)],
    }),
  })
}

/** Runs `request` and records its outcome; a request the hub never answered is recorded too. */
export async function outcome(
  what: Outcome['what'],
  request: () => Promise<Reply>,
): Promise<Outcome> {
  const startedAt = Date.now()
  try {
    const reply = await request()
    return {
      what,
      status: reply.status,
      code: (reply.body as { code?: string } | undefined)?.code,
      retryAfter: reply.headers.get('retry-after'),
      startedAt,
      ms: Date.now() - startedAt,
    }
  } catch {
    return { what, status: 'no answer', code: undefined, retryAfter: null, startedAt, ms: 0 }
  }
}

export type RevisionSummary = {
  id: string
  sequence: number
  previousRevisionId: string | null
}

/** Every revision of `admin/<slug>`, oldest first. */
export async function allRevisions(hub: HubProcess, slug: string): Promise<RevisionSummary[]> {
  const revisions: RevisionSummary[] = []
  let cursor: string | undefined
  do {
    const page = await call(
      `${hub.url}/v1/apis/admin/${slug}/revisions?limit=100${cursor ? `&cursor=${cursor}` : ''}`,
      { token: hub.adminPat },
    )
    expect(page.status, page.text).toBe(200)
    revisions.push(...(page.body.revisions as RevisionSummary[]))
    cursor = page.body.nextCursor ?? undefined
  } while (cursor)
  return revisions.sort((a, b) => a.sequence - b.sequence)
}

/**
 * Checks that the revisions of `admin/<slug>` form one chain (1, 2, 3 … each pointing at the one
 * before) and that each changelog is the diff against that predecessor: pushed as
 * {@link taggedDocument}s, revision n removes `/only/<tag of n-1>` and adds `/only/<tag of n>`.
 */
export async function expectConsistentChain(hub: HubProcess, slug: string): Promise<number> {
  const revisions = await allRevisions(hub, slug)
  const tagOf = new Map<string, string>()
  for (const [index, revision] of revisions.entries()) {
    expect(revision.sequence).toBe(index + 1)
    expect(revision.previousRevisionId).toBe(index === 0 ? null : revisions[index - 1]!.id)
    const changes = await call(
      `${hub.url}/v1/apis/admin/${slug}/revisions/${revision.id}/changes`,
      { token: hub.adminPat },
    )
    expect(changes.status, changes.text).toBe(200)
    const list = changes.body.changes as { id: string; operation?: string }[]
    const added = list.filter((c) => c.id === 'endpoint-added').map((c) => c.operation)
    const removed = list.filter((c) => c.id === 'endpoint-removed').map((c) => c.operation)
    if (index === 0) {
      expect(list).toEqual([])
    } else {
      expect(added, `changes of revision ${revision.sequence}`).toHaveLength(1)
      expect(removed, `changes of revision ${revision.sequence}`).toEqual([
        `GET /only/${tagOf.get(revisions[index - 1]!.id)}`,
      ])
    }
    const tag = /^GET \/only\/(.+)$/.exec(added[0] ?? '')?.[1]
    if (tag) tagOf.set(revision.id, tag)
    else {
      const document = await call(
        `${hub.url}/v1/apis/admin/${slug}/revisions/${revision.id}/document`,
        { token: hub.adminPat },
      )
      const paths = Object.keys((JSON.parse(document.text) as { paths: object }).paths)
      tagOf.set(revision.id, paths.find((p) => p.startsWith('/only/'))!.slice('/only/'.length))
    }
  }
  return revisions.length
}
