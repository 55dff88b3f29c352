const turns = new Map<string, Promise<unknown>>()

/**
 * Runs `work` once every earlier call with the same `key` in this process has settled: the
 * pushes to one API queue here instead of racing to the store and diffing again on losing.
 */
export async function oneAtATime<T>(key: string, work: () => Promise<T>): Promise<T> {
  const before = turns.get(key) ?? Promise.resolve()
  const mine = before.then(work)
  const settled = mine.then(
    () => {},
    () => {},
  )
  turns.set(key, settled)
  try {
    return await mine
  } finally {
    if (turns.get(key) === settled) turns.delete(key)
  }
}
