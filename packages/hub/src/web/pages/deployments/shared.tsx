import { ProjectDetailSchema, type Run } from '@svc/hub-api'
import { Badge } from '../../components.js'
import type { WebContext } from '../../env.js'
import { projectHref } from '../projects/shared.js'

/** How often a page with a run still going reloads itself. */
export const REFRESH_SECONDS = 2

export const seg = encodeURIComponent

/** A URL the API answered, as a path on this site (the same origin serves both). */
export function pathOf(url: string): string {
  try {
    const parsed = new URL(url)
    return `${parsed.pathname}${parsed.search}`
  } catch {
    return url
  }
}

export function runHref(account: string, slug: string, id: string): string {
  return `${projectHref(account, slug)}/runs/${seg(id)}`
}

export function duration(ms: number | null): string {
  if (ms === null) return '—'
  if (ms < 1000) return `${ms} ms`
  return `${(ms / 1000).toFixed(1)} s`
}

/**
 * The API revision a run generated from, `#3`, linked to its page; a run that had no revision
 * (the API had none, so it failed at once) says so.
 */
export function RunRevision({ revision }: { revision: Run['revision'] }) {
  if (!revision) return <span class="muted">none: the API had no revision</span>
  return (
    <a href={pathOf(revision.url)} title={revision.id}>
      #{revision.sequence}
    </a>
  )
}

export function StatusBadge({ status }: { status: Run['status'] }) {
  return <Badge kind={status}>{status}</Badge>
}

/** The project of the URL and the v1 path of its routes; a page answer when it cannot be read. */
export async function readProject(c: WebContext) {
  const { account, slug } = c.req.param() as { account: string; slug: string }
  const v1 = `/projects/${seg(account)}/${seg(slug)}`
  const answer = await c.get('api').get(ProjectDetailSchema, v1)
  return { answer, v1 }
}

/** A refused write of a project the viewer can read: 403 is told on the page, the rest is 404. */
export function refusedWrite(status: number): boolean {
  return status === 401 || status === 404
}

/** The message of a refused call, with its first issue when it names one. */
export function issueText(error: { message?: string; details?: unknown }): string {
  const issues = (error.details as { issues?: { message: string }[] } | undefined)?.issues
  const first = issues?.[0]?.message
  return first ? `${capitalise(first)}.` : (error.message ?? 'The hub refused this.')
}

export function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}
