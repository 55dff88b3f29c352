import { variantSuffix } from './enrichments/index.js'
import type { EntryKind, GeneratorEntry, SubjectOf } from './entries.js'
import { toIdentifierName } from './render/index.js'

/** The identifier name an item gets when its entry has no naming seam. */
export function defaultName(
  kind: EntryKind,
  subject: SubjectOf[EntryKind],
  variant: string,
): string {
  const suffix = variantSuffix(variant)
  switch (kind) {
    case 'model':
      return toIdentifierName((subject as SubjectOf['model']).name, 'pascal') + suffix
    case 'operation':
      return toIdentifierName((subject as SubjectOf['operation']).name, 'camel') + suffix
    case 'webhook': {
      const webhook = subject as SubjectOf['webhook']
      return toIdentifierName(`${webhook.name} ${webhook.method}`, 'camel') + suffix
    }
    case 'graphql': {
      const field = subject as SubjectOf['graphql']
      return toIdentifierName(`${field.rootKind} ${field.fieldName}`, 'camel') + suffix
    }
  }
}

/** `@svc/gen-typescript` writes to `typescript.ts` unless its export-path seam says otherwise. */
export function defaultExportPath(generatorId: string): string {
  const short = generatorId
    .replace(/^@[^/]*\//, '')
    .replace(/^gen-/, '')
    .replace(/[^A-Za-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '')
  return `${short === '' ? 'generated' : short}.ts`
}

export function nameOf<K extends EntryKind>(
  entry: GeneratorEntry<K, unknown>,
  subject: SubjectOf[K],
  variant: string,
): string {
  return entry.toName ? entry.toName(subject, variant) : defaultName(entry.kind, subject, variant)
}

export function exportPathOf<K extends EntryKind>(
  entry: GeneratorEntry<K, unknown>,
  subject: SubjectOf[K],
): string {
  return entry.toExportPath ? entry.toExportPath(subject) : defaultExportPath(entry.id)
}
