import { describe, expect, it } from 'vitest'
import { writeLater } from './bookkeeping.js'

describe('writeLater', () => {
  it('returns before the write ends, makes one write per key at a time, and logs a failure', async () => {
    const warnings: string[] = []
    const log = { warn: (_: unknown, message: string) => void warnings.push(message) }
    let finish!: (error?: Error) => void
    let writes = 0
    const write = () =>
      new Promise<void>((resolve, reject) => {
        writes++
        finish = (error) => (error ? reject(error) : resolve())
      })
    writeLater('session:a', write, log, 'session use')
    writeLater('session:a', write, log, 'session use')
    expect(writes).toBe(1)
    finish(new Error('SQLITE_FULL'))
    await new Promise((resolve) => setImmediate(resolve))
    expect(warnings).toEqual(['session use not recorded'])
    writeLater('session:a', write, log, 'session use')
    expect(writes).toBe(2)
    finish()
  })
})
