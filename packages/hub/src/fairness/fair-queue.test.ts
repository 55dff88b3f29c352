import { describe, expect, it } from 'vitest'
import { FairQueue, QueueFull } from './fair-queue.js'

/** A task the test ends by hand, recording when it started. */
function gate(log: string[], name: string) {
  let open!: () => void
  let fail!: (error: Error) => void
  const done = new Promise<string>((resolve, reject) => {
    open = () => resolve(name)
    fail = reject
  })
  return {
    task: (signal: AbortSignal) => {
      log.push(name)
      signal.addEventListener('abort', () => fail(new Error(`${name} aborted`)))
      return done
    },
    open,
  }
}

const tick = () => new Promise((resolve) => setImmediate(resolve))

describe('FairQueue', () => {
  it("serves another key's first item as soon as one running item ends, however long the flood", async () => {
    const queue = new FairQueue({ concurrency: 1, maxPerKey: 100 })
    const started: string[] = []
    const flood = Array.from({ length: 20 }, (_, i) => gate(started, `a${i}`))
    const results = flood.map((g) => queue.run('a', g.task))
    const b = gate(started, 'b0')
    const bResult = queue.run('b', b.task)
    await tick()
    expect(started).toEqual(['a0'])
    flood[0]!.open()
    await tick()
    expect(started).toEqual(['a0', 'b0'])
    b.open()
    await expect(bResult).resolves.toBe('b0')
    for (const g of flood.slice(1)) g.open()
    await Promise.all(results)
    expect(started.slice(2)).toEqual(flood.slice(1).map((_, i) => `a${i + 1}`))
  })

  it('takes turns between keys that both have a backlog', async () => {
    const queue = new FairQueue({ concurrency: 1, maxPerKey: 10 })
    const started: string[] = []
    const gates = new Map<string, ReturnType<typeof gate>>()
    const all: Promise<string>[] = []
    for (const name of ['a0', 'a1', 'a2', 'b0', 'b1', 'b2']) {
      const g = gate(started, name)
      gates.set(name, g)
      all.push(queue.run(name[0]!, g.task))
    }
    for (let i = 0; i < gates.size; i++) {
      await tick()
      // End whichever item is running.
      gates.get(started.at(-1)!)!.open()
    }
    await Promise.all(all)
    expect(started).toEqual(['a0', 'b0', 'a1', 'b1', 'a2', 'b2'])
  })

  it('refuses a key that has maxPerKey items waiting or running, and only that key', async () => {
    const queue = new FairQueue({ concurrency: 1, maxPerKey: 2 })
    const started: string[] = []
    const a = [gate(started, 'a0'), gate(started, 'a1')]
    const running = a.map((g) => queue.run('a', g.task))
    const refused = queue.run('a', gate(started, 'a2').task)
    await expect(refused).rejects.toBeInstanceOf(QueueFull)
    await expect(refused).rejects.toMatchObject({ key: 'a', limit: 2 })
    const b = gate(started, 'b0')
    const bResult = queue.run('b', b.task)
    expect(queue.size('a')).toBe(2)
    expect(queue.size('b')).toBe(1)
    a[0]!.open()
    await tick()
    b.open()
    a[1]!.open()
    await Promise.all([...running, bResult])
    expect(queue.size('a')).toBe(0)
    expect(queue.running + queue.waiting).toBe(0)
  })

  it('drops a waiting item whose signal aborts, without running it', async () => {
    const queue = new FairQueue({ concurrency: 1, maxPerKey: 5 })
    const started: string[] = []
    const first = gate(started, 'a0')
    const running = queue.run('a', first.task)
    const controller = new AbortController()
    const waiting = queue.run('a', gate(started, 'a1').task, { signal: controller.signal })
    controller.abort(new Error('client went away'))
    await expect(waiting).rejects.toThrow('client went away')
    expect(queue.size('a')).toBe(1)
    first.open()
    await running
    expect(started).toEqual(['a0'])
  })

  it("aborts a running item's signal when the caller's does, and frees its slot when it ends", async () => {
    const queue = new FairQueue({ concurrency: 1, maxPerKey: 5 })
    const started: string[] = []
    const controller = new AbortController()
    const running = queue.run('a', gate(started, 'a0').task, { signal: controller.signal })
    const next = gate(started, 'b0')
    const nextResult = queue.run('b', next.task)
    await tick()
    controller.abort()
    await expect(running).rejects.toThrow('a0 aborted')
    await tick()
    expect(started).toEqual(['a0', 'b0'])
    next.open()
    await expect(nextResult).resolves.toBe('b0')
  })

  it('keeps a key to maxRunningPerKey slots while another key waits', async () => {
    const queue = new FairQueue({ concurrency: 2, maxPerKey: 10, maxRunningPerKey: 1 })
    const started: string[] = []
    const a = [gate(started, 'a0'), gate(started, 'a1')]
    const results = a.map((g) => queue.run('a', g.task))
    await tick()
    expect(started).toEqual(['a0'])
    expect(queue.running).toBe(1)
    const b = gate(started, 'b0')
    results.push(queue.run('b', b.task))
    await tick()
    expect(started).toEqual(['a0', 'b0'])
    a[0]!.open()
    b.open()
    await tick()
    a[1]!.open()
    await Promise.all(results)
    expect(started).toEqual(['a0', 'b0', 'a1'])
  })

  it('rejects every waiting item on clear, and a task that throws rejects its own call only', async () => {
    const queue = new FairQueue({ concurrency: 1, maxPerKey: 5 })
    const started: string[] = []
    const first = gate(started, 'a0')
    const running = queue.run('a', first.task)
    const waiting = queue.run('b', gate(started, 'b0').task)
    queue.clear(new Error('stopping'))
    await expect(waiting).rejects.toThrow('stopping')
    first.open()
    await running
    await expect(
      queue.run('c', () => {
        throw new Error('sync failure')
      }),
    ).rejects.toThrow('sync failure')
    await expect(queue.run('c', async () => 'fine')).resolves.toBe('fine')
  })
})
