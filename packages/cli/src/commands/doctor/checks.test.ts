import { describe, expect, it } from 'vitest'
import { nodeCheck, worst } from './checks.js'

describe('doctor checks', () => {
  it('fails a Node.js older than 20.19 with the fix, and passes 20.19, 22 and 24', () => {
    expect(nodeCheck('18.20.4')).toEqual({
      id: 'node-version',
      status: 'error',
      message: 'Node.js 18.20.4 is older than svc supports (20.19 or later)',
      hint: 'install Node.js 20.19 or later (22 and 24 work too)',
    })
    expect(nodeCheck('20.18.3').status).toBe('error')
    for (const version of ['20.19.0', '22.11.0', '24.0.1'])
      expect(nodeCheck(version).status).toBe('ok')
  })

  it('summarises by the worst status', () => {
    const check = (status: 'ok' | 'warning' | 'error' | 'skipped') => ({
      id: status,
      status,
      message: '',
    })
    expect(worst([])).toBe('ok')
    expect(worst([check('ok'), check('skipped')])).toBe('skipped')
    expect(worst([check('warning'), check('ok')])).toBe('warning')
    expect(worst([check('warning'), check('error'), check('skipped')])).toBe('error')
  })
})
