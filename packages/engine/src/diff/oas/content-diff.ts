import type { MediaType } from '../../model/index.js'
import { compareMediaTypeDocs } from './documentation-diff.js'
import { compareSchemas, type Comparison } from './schema-diff.js'
import { nameChange, pairRenamed, type NameChange } from './media-type-names.js'
import { escapePointer, type Scope } from './scope.js'

type ContentRules = {
  readonly added:
    | 'request-body-media-type-added'
    | 'response-media-type-added'
    | 'webhook-payload-media-type-added'
  readonly removed:
    | 'request-body-media-type-removed'
    | 'response-media-type-removed'
    | 'webhook-payload-media-type-removed'
  readonly schemaAdded:
    | 'request-body-media-type-schema-added'
    | 'response-media-type-schema-added'
    | 'webhook-payload-media-type-schema-added'
  readonly schemaRemoved:
    | 'request-body-media-type-schema-removed'
    | 'response-media-type-schema-removed'
    | 'webhook-payload-media-type-schema-removed'
  readonly what: string
  /**
   * Where the client receives the content, a schema that became `false` withdraws the media type
   * (no body can match it) and one that stopped being `false` offers it: reported as removed and
   * added. Where the client sends it, `false` is compared as any schema that admits no value.
   */
  readonly received?: boolean
  /** Rules for a media type renamed into a related one; without them that is a removal and an addition. */
  readonly renamed?: Readonly<Record<NameChange, RenameRule>>
}

type RenameRule =
  | 'response-media-type-narrowed'
  | 'response-media-type-widened'
  | 'response-media-type-parameter-changed'
  | 'response-media-type-changed'

/**
 * Media types match by name, case-insensitively; their schemas are compared where both exist. A
 * schema that appears or disappears is one change, not a comparison with "any value"; `schema: {}`
 * says the same as no schema.
 */
export function compareContent(
  cmp: Comparison,
  scope: Scope,
  old: Readonly<Record<string, MediaType>>,
  next: Readonly<Record<string, MediaType>>,
  pointer: string,
  rules: ContentRules,
): void {
  const before = new Map(Object.keys(old).map((type) => [type.toLowerCase(), type]))
  const exact = new Set(Object.keys(next).map((type) => type.toLowerCase()))
  const renamed = new Map(
    rules.renamed
      ? pairRenamed(
          Object.keys(old).filter((type) => !exact.has(type.toLowerCase())),
          Object.keys(next).filter((type) => !before.has(type.toLowerCase())),
        ).map(({ from, to }) => [to, from])
      : [],
  )
  for (const type of Object.keys(next)) {
    const place = `${pointer}/content/${escapePointer(type)}`
    const from = renamed.get(type)
    const match = before.get(type.toLowerCase()) ?? from
    if (match === undefined) {
      scope.fixed(rules.added, place, `The ${rules.what} media type \`${type}\` was added.`)
      continue
    }
    before.delete(match.toLowerCase())
    if (from !== undefined && rules.renamed) {
      const change = nameChange(from, type)!
      scope.fixed(
        rules.renamed[change],
        place,
        `The ${rules.what} media type \`${from}\` became \`${type}\`${RENAME_EFFECT[change]}.`,
      )
    }
    const [a, b] = [old[match]!, next[type]!]
    if (rules.received && uninhabited(a) !== uninhabited(b)) {
      scope.fixed(
        uninhabited(b) ? rules.removed : rules.added,
        `${place}/schema`,
        uninhabited(b)
          ? `The ${rules.what} media type \`${type}\` can no longer carry a body: its schema is \`false\`.`
          : `The ${rules.what} media type \`${type}\` can carry a body again: its schema is no longer \`false\`.`,
      )
      compareMediaTypeDocs(scope, type, a, b, place)
      continue
    }
    if (a.schemaOmitted && !anyValue(b))
      scope.fixed(
        rules.schemaAdded,
        `${place}/schema`,
        `The ${rules.what} media type \`${type}\` got a schema.`,
      )
    else if (!anyValue(a) && b.schemaOmitted)
      scope.fixed(
        rules.schemaRemoved,
        `${place}/schema`,
        `The ${rules.what} media type \`${type}\` no longer has a schema.`,
      )
    else if (!a.schemaOmitted && !b.schemaOmitted)
      compareSchemas(cmp, scope, a.schema, b.schema, `${place}/schema`)
    compareMediaTypeDocs(scope, type, a, b, place)
  }
  for (const type of before.values())
    scope.fixed(
      rules.removed,
      `${pointer}/content/${escapePointer(type)}`,
      `The ${rules.what} media type \`${type}\` was removed.`,
    )
}

const RENAME_EFFECT: Record<NameChange, string> = {
  narrowed: ', which still promises what it did',
  widened: ': a client may now receive what the old name ruled out',
  'parameter-changed': ': a parameter the client relied on now has another value',
  changed: ': its name and parameters changed in ways that cannot be ordered',
}

function uninhabited(mediaType: MediaType): boolean {
  return mediaType.schemaOmitted !== true && mediaType.schema.kind === 'void'
}

function anyValue(mediaType: MediaType): boolean {
  return mediaType.schemaOmitted === true || mediaType.schema.kind === 'unknown'
}
