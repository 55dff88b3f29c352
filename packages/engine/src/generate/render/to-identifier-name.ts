import { identifierProblem } from './identifier.js'

/** `pascal` (`PetStore`) for types and classes, `camel` (`petStore`) for other values. */
export type IdentifierCasing = 'pascal' | 'camel'

/**
 * Turns arbitrary text (a schema name, a path segment, an operation id) into a name that
 * `createIdentifier` accepts for both kinds. Deterministic and total: every input gives a name.
 *
 * - Words split at anything that is not an ASCII letter or digit, and at case changes
 *   (`petStore`, `HTTPServer` → `HTTP` `Server`).
 * - Accents are dropped (`café` → `cafe`); other non-ASCII letters and digits become `U` and
 *   their code point in hex (`日` → `U65e5`), so distinct names stay distinct.
 * - Letters after the first of each word keep their case (`PetDTO` stays `PetDTO`), unless the
 *   text has no lowercase letter at all (`PET_STORE` → `PetStore`).
 * - A leading digit gets a `_` prefix (`2fa` → `_2fa`); a name that is still not allowed gets a
 *   `_` suffix (`class` → `class_`, and `string` → `string_`, as it cannot name a type); empty
 *   text gives `_`.
 *
 * Different texts can give the same name (`pet-store`, `pet_store`). Component schemas and
 * operations are named from their subject's `name`, which is distinct for each; for other texts
 * generator keys tell them apart, so the registry reports the clash instead of merging the two.
 *
 * @example
 * ```ts
 * toIdentifierName('pet-store item', 'pascal') // 'PetStoreItem'
 * toIdentifierName('pet-store item', 'camel') // 'petStoreItem'
 * ```
 */
export function toIdentifierName(text: string, casing: IdentifierCasing): string {
  // Every naming step asks again for the same texts (a large description, thousands of times).
  const cache = casing === 'pascal' ? pascalNames : camelNames
  let name = cache.get(text)
  if (name === undefined) {
    if (cache.size >= CACHE_LIMIT) cache.clear()
    cache.set(text, (name = identifierNameOf(text, casing)))
  }
  return name
}

/** Names made so far, by casing; cleared when full, so a long-lived process stays bounded. */
const pascalNames = new Map<string, string>()
const camelNames = new Map<string, string>()
const CACHE_LIMIT = 100_000
const ASCII = /^[\x00-\x7f]*$/

function identifierNameOf(text: string, casing: IdentifierCasing): string {
  // ASCII text is its own NFKD form and has no marks: the Unicode passes are for the rest.
  const plain = ASCII.test(text)
  const folded = plain ? text : text.normalize('NFKD').replace(/\p{M}/gu, '')
  const screaming = !/[a-z]/.test(folded)
  const ascii = plain
    ? folded
    : folded.replace(/[^\x00-\x7f]/gu, (char) =>
        /[\p{L}\p{N}]/u.test(char) ? ` U${(char.codePointAt(0) ?? 0).toString(16)} ` : ' ',
      )
  const words = ascii
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word !== '')
    .map((word) => (screaming ? word.toLowerCase() : word))
  let name = words
    .map((word, index) =>
      index === 0 && casing === 'camel'
        ? word.toLowerCase()
        : word.charAt(0).toUpperCase() + word.slice(1),
    )
    .join('')
  if (name === '' || /^[0-9]/.test(name)) name = `_${name}`
  // No reserved or restricted name ends with `_`, so one suffix always suffices.
  if (identifierProblem(name, 'type') ?? identifierProblem(name, 'value')) name = `${name}_`
  return name
}
