/** The two kinds of API description svc reads. */
export type Protocol = 'oas' | 'gql'

/** How the text is encoded: a JSON/YAML tree (told apart after decoding) or GraphQL SDL. */
export type TextKind = 'structured' | 'sdl'

/** A top-level `openapi:` / `swagger:` key of a YAML document. */
const YAML_OAS_KEY = /^["']?(?:openapi|swagger)["']?[ \t]*:/m
/** A line that opens an SDL definition: `type Query {`, `extend schema …`, `scalar Date`. */
const SDL_DEFINITION =
  /^[ \t]*(?:type|interface|enum|union|input|scalar|schema|directive|extend)[ \t\r\n{]/m

/**
 * Decides from the text alone whether to decode it as JSON/YAML or as GraphQL SDL. SDL needs a
 * positive keyword test, so a YAML file that is not an API description is never read as SDL.
 */
export function detectTextKind(text: string): TextKind {
  const head = text.trimStart()
  if (head.startsWith('{') || head.startsWith('[')) return 'structured'
  if (YAML_OAS_KEY.test(text)) return 'structured'
  if (SDL_DEFINITION.test(text)) return 'sdl'
  return 'structured'
}
