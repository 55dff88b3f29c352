/**
 * Asks `check` again and again until it answers something other than `undefined`, and answers
 * that; throws after `timeoutMs`, naming `what`. An error `check` throws ends the wait at once.
 * For waiting on a condition instead of sleeping for a fixed time.
 */
export async function eventually<T>(
  check: () => T | undefined | Promise<T | undefined>,
  what: string | (() => string),
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value !== undefined) return value
    if (Date.now() > deadline) {
      throw new Error(`not within ${timeoutMs} ms: ${typeof what === 'string' ? what : what()}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}
