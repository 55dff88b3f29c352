import type { Subject } from './enrichments/index.js'
import { ItemContext, generatorKey } from './context.js'
import type { EntryKind } from './entries.js'
import { prepareRun, type GenerateOptions } from './generate.js'
import { itemsOf } from './items.js'

/** One thing a generator would run over, and whether this run would. */
export type SubjectListing = {
  /** The manifest's item key: `GET /pets`, `query viewer`, `model Pet`. */
  readonly key: string
  readonly kind: EntryKind
  readonly route: Subject
  /** `included`, or why not: left out by `skip`/`include`, or refused by the generator. */
  readonly status: 'included' | 'skipped' | 'notSupported'
}

/**
 * What each generator would generate for a description and settings, without generating:
 * generator id → its subjects in document order.
 */
export function listSubjects(
  options: Pick<GenerateOptions, 'parsed' | 'generators' | 'settings'>,
): Record<string, SubjectListing[]> {
  const { state, selected } = prepareRun(options)
  const listing: Record<string, SubjectListing[]> = {}
  for (const entry of options.generators) {
    listing[entry.id] = itemsOf(state.model, entry.kind).map((item) => {
      const probe = new ItemContext(state, entry.id, generatorKey(entry.id, item.route, 'main'))
      const status =
        !selected.generator(entry.id) || !selected.item(item)
          ? 'skipped'
          : entry.isSupported &&
              !entry.isSupported({ context: probe, subject: item.subject as never })
            ? 'notSupported'
            : 'included'
      return { key: item.key, kind: entry.kind, route: item.route, status }
    })
  }
  return listing
}
