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
  readonly what: string
}

/** Media types match by name, case-insensitively; their schemas are compared where both exist. */
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
    compareSchemas(cmp, scope, old[match]!.schema, next[type]!.schema, `${place}/schema`)
    compareMediaTypeDocs(scope, type, old[match]!, next[type]!, place)
  }
  for (const type of before.values())
    scope.fixed(
      rules.removed,
      `${pointer}/content/${escapePointer(type)}`,
      `The ${rules.what} media type \`${type}\` was removed.`,
    )
}
