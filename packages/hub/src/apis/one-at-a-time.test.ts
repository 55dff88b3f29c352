import { describe, expect, it } from 'vitest'
import { oneAtATime } from './one-at-a-time.js'

describe('oneAtATime', () => {
  it('runs the calls of one key one after the other, in order, and other keys beside them', async () => {
    const events: string[] = []
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    const first = oneAtATime('a', async () => {
      events.push('a1 start')
      await gate
      events.push('a1 end')
      return 1
    })
    const second = oneAtATime('a', async () => {
      events.push('a2 start')
      return 2
    })
    const other = oneAtATime('b', async () => {
      events.push('b1')
      return 3
    })
    expect(await other).toBe(3)
    expect(events).toEqual(['a1 start', 'b1'])
    release()
    expect(await Promise.all([first, second])).toEqual([1, 2])
    expect(events).toEqual(['a1 start', 'b1', 'a1 end', 'a2 start'])
  })

  it('a call that fails does not stop the next one of its key', async () => {
    const failing = oneAtATime('k', () => Promise.reject(new Error('no')))
    const next = oneAtATime('k', async () => 'yes')
    await expect(failing).rejects.toThrow('no')
    expect(await next).toBe('yes')
  })
})
