import type { Writable } from 'node:stream'

/**
 * Progress of a long generate on a terminal's stderr; nothing at all anywhere else, where
 * @clack/prompts is not even loaded.
 */
export async function createProgress(stderr: NodeJS.WritableStream, enabled: boolean) {
  if (!enabled) return { update: () => {}, stop: () => {} }
  const { spinner } = await import('@clack/prompts')
  const spin = spinner({
    output: stderr as NodeJS.WritableStream & Writable,
    withGuide: false,
  })
  let started = false
  return {
    update({ generatorId, done, total }: { generatorId: string; done: number; total: number }) {
      const text = `${generatorId}: ${done}/${total}`
      if (started) spin.message(text)
      else {
        spin.start(text)
        started = true
      }
    },
    stop() {
      if (started) spin.clear()
    },
  }
}
