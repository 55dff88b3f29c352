import { describe, expect, it } from 'vitest'
import { analysisQueueFull, tooComplex } from './analysis-errors.js'
import type { AnalysisSettings } from './analysis-settings.js'

const SETTINGS: AnalysisSettings = {
  threads: 1,
  timeoutMs: 2500,
  memoryMb: 512,
  maxNodes: 1_000_000,
  queuePerAccount: 1,
  queueMax: 32,
}

describe('tooComplex', () => {
  it.each([
    ['expanded_nodes', 1_000_000, 'SVC_HUB_ANALYSIS_MAX_NODES', /more than 1,000,000 nodes/],
    ['time', 2500, 'SVC_HUB_ANALYSIS_TIMEOUT_MS', /took longer than 2500 ms/],
    ['memory', 512, 'SVC_HUB_ANALYSIS_MEMORY_MB', /more than 512 MB of memory/],
  ] as const)('names the %s budget, its value and its setting', (limit, max, setting, message) => {
    const error = tooComplex(limit, SETTINGS)
    expect(error.status).toBe(422)
    expect(error.code).toBe('document_too_complex')
    expect(error.details).toEqual({ limit, max, setting })
    expect(error.message).toMatch(message)
    expect(error.message).toContain(`(${setting}); nothing was stored.`)
  })
})

describe('analysisQueueFull', () => {
  it("says whose queue is full, with Retry-After of one analysis's time", () => {
    const error = analysisQueueFull('walt', 1, SETTINGS)
    expect(error.status).toBe(429)
    expect(error.retryAfterSeconds).toBe(3)
    expect(error.details).toEqual({ queue: 'analysis', limit: 1 })
    expect(error.message).toMatch(/^Your account \(walt\) already has an analysis of documents/)
    expect(analysisQueueFull(undefined, 1, SETTINGS).message).toMatch(
      /^Requests without an account/,
    )
  })

  it('names the fair share when the hub is full and the share is below the account limit', () => {
    const error = analysisQueueFull('walt', 2, { ...SETTINGS, queuePerAccount: 8 })
    expect(error.details).toEqual({ queue: 'analysis', limit: 2 })
    expect(error.message).toContain('its share while the hub is busy (SVC_HUB_ANALYSIS_QUEUE_MAX)')
  })
})
