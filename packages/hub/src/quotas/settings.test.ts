import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../config.js'
import { DEFAULT_RETENTION, readQuotaSettings } from './settings.js'
import { DEFAULT_QUOTAS } from './table.js'

const RUNNING_MD = fileURLToPath(new URL('../../../../docs/hub/running.md', import.meta.url))

describe('quota, retention and run queue settings', () => {
  it('unset: the table of defaults, 3 runs per account and 20 waiting, 10 runs and 30 days', () => {
    const settings = readQuotaSettings({})
    expect(settings.storage).toEqual(
      Object.fromEntries(DEFAULT_QUOTAS.map((row) => [row.id, row.defaultLimit])),
    )
    expect(settings.runQueue).toEqual({ perAccount: 3, maxWaiting: 20 })
    expect(settings.retention).toEqual(DEFAULT_RETENTION)
    expect(loadConfig({}).quotas).toEqual(settings)
  })

  it('each variable sets its value; 0 turns a quota or a retention rule off', () => {
    const settings = readQuotaSettings({
      SVC_HUB_QUOTA_REVISIONS: '0',
      SVC_HUB_QUOTA_RUN_ARTIFACT_BYTES: '1048576',
      SVC_HUB_RUN_QUEUE_PER_ACCOUNT: '1',
      SVC_HUB_RUN_QUEUE_MAX: '7',
      SVC_HUB_RUN_ARTIFACTS_KEEP_RUNS: '0',
      SVC_HUB_RUN_ARTIFACTS_MAX_AGE_DAYS: '90',
      SVC_HUB_RUN_ARTIFACTS_SWEEP_SECONDS: '5',
    })
    expect(settings.storage.revisions).toBe(0)
    expect(settings.storage.runArtifactBytes).toBe(1048576)
    expect(settings.runQueue).toEqual({ perAccount: 1, maxWaiting: 7 })
    expect(settings.retention).toEqual({ keepRuns: 0, maxAgeDays: 90, intervalMs: 5000 })
  })

  it('a bad value stops the hub with ConfigError naming the variable', () => {
    const bad: [string, string, RegExp][] = [
      [
        'SVC_HUB_QUOTA_STACK_VERSION_BYTES',
        '1e9',
        /SVC_HUB_QUOTA_STACK_VERSION_BYTES must be a non-negative integer, got '1e9'/,
      ],
      ['SVC_HUB_QUOTA_BASE_FILES', '-1', /SVC_HUB_QUOTA_BASE_FILES must be a non-negative integer/],
      [
        'SVC_HUB_RUN_QUEUE_PER_ACCOUNT',
        '0',
        /SVC_HUB_RUN_QUEUE_PER_ACCOUNT must be at least 1, got '0'/,
      ],
      ['SVC_HUB_RUN_QUEUE_MAX', 'many', /SVC_HUB_RUN_QUEUE_MAX must be a non-negative integer/],
      ['SVC_HUB_RUN_ARTIFACTS_KEEP_RUNS', '2.5', /SVC_HUB_RUN_ARTIFACTS_KEEP_RUNS must be/],
      [
        'SVC_HUB_RUN_ARTIFACTS_SWEEP_SECONDS',
        '0',
        /SVC_HUB_RUN_ARTIFACTS_SWEEP_SECONDS must be at least 1/,
      ],
      [
        'SVC_HUB_RUN_ARTIFACTS_SWEEP_SECONDS',
        '86401',
        /SVC_HUB_RUN_ARTIFACTS_SWEEP_SECONDS must be at most 86400, got '86401'/,
      ],
    ]
    for (const [name, value, message] of bad) {
      expect(() => loadConfig({ [name]: value }), name).toThrow(ConfigError)
      expect(() => loadConfig({ [name]: value }), name).toThrow(message)
    }
  })

  it('docs/hub/running.md lists every quota of the table with its default, in the table order', () => {
    const text = readFileSync(RUNNING_MD, 'utf8')
    const section = text.slice(text.indexOf('## Quotas'))
    const rows = [...section.matchAll(/^\| `(\w+)` \| `(SVC_HUB_QUOTA_\w+)` \| `(\d+)`/gm)]
    expect(rows.map(([, id, setting, limit]) => [id, setting, Number(limit)])).toEqual(
      DEFAULT_QUOTAS.map((row) => [row.id, row.setting, row.defaultLimit]),
    )
    for (const row of DEFAULT_QUOTAS) {
      expect(text, row.setting).toMatch(new RegExp(`^\\| \`${row.setting}\` \\|`, 'm'))
    }
  })
})
