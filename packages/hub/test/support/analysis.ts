import { expect } from 'vitest'
import type { HubProcess } from './hub-process.js'
import { call, type Reply } from './http.js'

let apis = 0

/** Makes new public APIs of the org `acme` (`token` must be able to), answering `acme/<slug>`. */
export function apiCreator(hub: HubProcess, token: string): () => Promise<string> {
  return async () => {
    const slug = `analysed-${++apis}`
    const reply = await call(`${hub.url}/v1/apis`, {
      method: 'POST',
      token,
      json: { owner: 'acme', slug, name: slug, visibility: 'public' },
    })
    expect(reply.status, reply.text).toBe(201)
    return `acme/${slug}`
  }
}

/** Pushes a YAML document to `api` (`acme/<slug>`) as the owner of `token`. */
export function pushTo(
  hub: HubProcess,
  api: string,
  yaml: string,
  token: string,
  signal?: AbortSignal,
): Promise<Reply> {
  return call(`${hub.url}/v1/apis/${api}/revisions`, {
    method: 'POST',
    token,
    headers: { 'content-type': 'application/yaml' },
    body: yaml,
    ...(signal ? { signal } : {}),
  })
}

export type AnalysisMetrics = {
  readonly waiting: number
  readonly running: number
  /** `svc_hub_document_analyses_total` by outcome; outcomes never counted are absent. */
  readonly ended: Readonly<Record<string, number>>
}

/** The hub's analysis queue and outcomes, as its `/metrics` tells them. */
export async function analysisMetrics(hub: HubProcess): Promise<AnalysisMetrics> {
  const text = (await call(`${hub.url}/metrics`)).text
  const gauge = (name: string) => Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(text)?.[1])
  const ended: Record<string, number> = {}
  for (const [, outcome, count] of text.matchAll(
    /^svc_hub_document_analyses_total\{outcome="(\w+)"\} (\d+)$/gm,
  )) {
    ended[outcome!] = Number(count)
  }
  return {
    waiting: gauge('svc_hub_document_analyses_waiting'),
    running: gauge('svc_hub_document_analyses_running'),
    ended,
  }
}
