import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../config.js'
import { DEFAULT_ANALYSIS, defaultThreads, readAnalysisSettings } from './analysis-settings.js'

describe('readAnalysisSettings', () => {
  it('has the documented defaults, and the hub config carries them', () => {
    const expected = { threads: defaultThreads(), ...DEFAULT_ANALYSIS }
    expect(readAnalysisSettings({})).toEqual(expected)
    expect(expected).toMatchObject({
      timeoutMs: 30_000,
      memoryMb: 1024,
      maxNodes: 5_000_000,
      queuePerAccount: 8,
      queueMax: 32,
    })
    expect(loadConfig({}).analysis).toEqual(expected)
  })

  it('reads every variable', () => {
    expect(
      readAnalysisSettings({
        SVC_HUB_ANALYSIS_THREADS: '3',
        SVC_HUB_ANALYSIS_TIMEOUT_MS: '2500',
        SVC_HUB_ANALYSIS_MEMORY_MB: '256',
        SVC_HUB_ANALYSIS_MAX_NODES: '1000000',
        SVC_HUB_ANALYSIS_QUEUE_PER_ACCOUNT: '1',
        SVC_HUB_ANALYSIS_QUEUE_MAX: '4',
      }),
    ).toEqual({
      threads: 3,
      timeoutMs: 2500,
      memoryMb: 256,
      maxNodes: 1_000_000,
      queuePerAccount: 1,
      queueMax: 4,
    })
  })

  it.each([
    ['SVC_HUB_ANALYSIS_THREADS', '0', 'must be at least 1'],
    ['SVC_HUB_ANALYSIS_TIMEOUT_MS', '50', 'must be at least 100'],
    ['SVC_HUB_ANALYSIS_TIMEOUT_MS', '30s', 'must be a non-negative integer'],
    ['SVC_HUB_ANALYSIS_MEMORY_MB', '16', 'must be at least 32'],
    ['SVC_HUB_ANALYSIS_MAX_NODES', '-1', 'must be a non-negative integer'],
    ['SVC_HUB_ANALYSIS_QUEUE_PER_ACCOUNT', '0', 'must be at least 1'],
    ['SVC_HUB_ANALYSIS_QUEUE_MAX', '0', 'must be at least 1'],
  ])('refuses %s=%s, naming it', (name, value, problem) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError)
    expect(() => readAnalysisSettings({ [name]: value })).toThrow(
      `${name} ${problem}, got '${value}'`,
    )
  })
})
