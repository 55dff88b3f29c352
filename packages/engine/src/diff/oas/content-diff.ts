import type { MediaType } from '../../model/index.js'
import { compareMediaTypeDocs } from './documentation-diff.js'
import { compareSchemas, type Comparison } from './schema-diff.js'
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
}

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
  for (const type of Object.keys(next)) {
    const place = `${pointer}/content/${escapePointer(type)}`
    const match = before.get(type.toLowerCase())
    if (match === undefined) {
      scope.fixed(rules.added, place, `The ${rules.what} media type \`${type}\` was added.`)
      continue
    }
    before.delete(type.toLowerCase())
    const [a, b] = [old[match]!, next[type]!]
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

function anyValue(mediaType: MediaType): boolean {
  return mediaType.schemaOmitted === true || mediaType.schema.kind === 'unknown'
}
