/**
 * The offsets of the schema coordinates an SDL text defines (`Query.user(id:)`, `Role.ADMIN`,
 * `@auth(role:)`, `schema.query`), each at its name (`schema` at its definition); the first
 * definition wins, and a type's extensions count only after every definition. Read with a scanner
 * of its own rather than graphql-js's parser: a located diff reads both schemas once more, and on
 * a schema of a megabyte the parse cost as much as the diff. Throws a SyntaxError on text that is
 * not SDL.
 */
export function sdlCoordinates(text: string): Map<string, number> {
  const reader = new SdlReader(text)
  const definitions: Entries = []
  const extensions: Entries = []
  while (reader.kind !== 'eof') readDefinition(reader, definitions, extensions)
  const offsets = new Map<string, number>()
  for (const [coordinate, offset] of [...definitions, ...extensions])
    if (!offsets.has(coordinate)) offsets.set(coordinate, offset)
  return offsets
}

const PUNCTUATORS: ReadonlySet<string> = new Set('!$&()[]{}:=@|')
const [TAB, LF, CR, SPACE, QUOTE, HASH, PLUS, COMMA, MINUS, DOT, BACKSLASH, UNDERSCORE, BOM] = [
  0x09, 0x0a, 0x0d, 0x20, 0x22, 0x23, 0x2b, 0x2c, 0x2d, 0x2e, 0x5c, 0x5f, 0xfeff,
]
const [E, LOWER_E] = [0x45, 0x65]

type Entries = [string, number][]
type Add = (coordinate: string, offset: number) => void

function readDefinition(reader: SdlReader, definitions: Entries, extensions: Entries): void {
  const first = reader.start
  if (reader.kind === 'string') reader.advance()
  if (reader.is('{')) return skipOperation(reader)
  let keyword = reader.expectName()
  const entries = keyword === 'extend' ? extensions : definitions
  if (keyword === 'extend') keyword = reader.expectName()
  const add: Add = (coordinate, offset) => entries.push([coordinate, offset])
  switch (keyword) {
    case 'schema':
      add('schema', first)
      skipDirectives(reader)
      if (reader.skip('{'))
        while (!reader.skip('}')) {
          const at = reader.start
          const operation = reader.expectName()
          reader.expect(':')
          reader.skipName()
          add(`schema.${operation}`, at)
        }
      return
    case 'directive': {
      reader.expect('@')
      const at = reader.start
      const name = `@${reader.expectName()}`
      add(name, at)
      if (reader.skip('(')) readInputValues(reader, name, ')', add, true)
      if (reader.kind === 'name' && reader.name() === 'repeatable') reader.advance()
      if (reader.expectName() !== 'on') throw reader.unexpected()
      reader.skip('|')
      do reader.skipName()
      while (reader.skip('|'))
      return
    }
    case 'query':
    case 'mutation':
    case 'subscription':
    case 'fragment':
      // Executable definitions have no place in a schema; the diff reports them. Only a name.
      if (reader.kind === 'name') {
        const at = reader.start
        add(reader.expectName(), at)
      }
      return skipOperation(reader)
    case 'scalar':
    case 'type':
    case 'interface':
    case 'union':
    case 'enum':
    case 'input':
      return readType(reader, keyword, add)
    default:
      throw reader.unexpected()
  }
}

function readType(reader: SdlReader, keyword: string, add: Add): void {
  const at = reader.start
  const type = reader.expectName()
  add(type, at)
  if (reader.kind === 'name' && reader.name() === 'implements') {
    reader.advance()
    reader.skip('&')
    do reader.skipName()
    while (reader.skip('&'))
  }
  skipDirectives(reader)
  if (keyword === 'union') {
    if (!reader.skip('=')) return
    reader.skip('|')
    do reader.skipName()
    while (reader.skip('|'))
    return
  }
  if (keyword === 'scalar' || !reader.skip('{')) return
  if (keyword === 'input') return readInputValues(reader, type, '}', add, false)
  while (!reader.skip('}')) {
    if (reader.kind === 'string') reader.advance()
    const memberAt = reader.start
    const member = `${type}.${reader.expectName()}`
    add(member, memberAt)
    if (keyword === 'enum') {
      skipDirectives(reader)
      continue
    }
    if (reader.skip('(')) readInputValues(reader, member, ')', add, true)
    reader.expect(':')
    skipType(reader)
    skipDirectives(reader)
  }
}

/** Arguments (`owner(name:)`) or input fields (`owner.name`) up to `close`. */
function readInputValues(
  reader: SdlReader,
  owner: string,
  close: ')' | '}',
  add: Add,
  asArguments: boolean,
): void {
  while (!reader.skip(close)) {
    if (reader.kind === 'string') reader.advance()
    const at = reader.start
    const name = reader.expectName()
    add(asArguments ? `${owner}(${name}:)` : `${owner}.${name}`, at)
    reader.expect(':')
    skipType(reader)
    if (reader.skip('=')) skipValue(reader)
    skipDirectives(reader)
  }
}

function skipType(reader: SdlReader): void {
  if (reader.skip('[')) {
    skipType(reader)
    reader.expect(']')
  } else reader.skipName()
  reader.skip('!')
}

function skipDirectives(reader: SdlReader): void {
  while (reader.skip('@')) {
    reader.skipName()
    if (reader.is('(')) skipBalanced(reader)
  }
}

function skipValue(reader: SdlReader): void {
  if (reader.is('[') || reader.is('{')) return skipBalanced(reader)
  if (reader.skip('$')) return reader.skipName()
  if (reader.kind === 'punctuator' || reader.kind === 'eof') throw reader.unexpected()
  reader.advance()
}

/** An operation or fragment, whatever precedes its selection set, then the selection set. */
function skipOperation(reader: SdlReader): void {
  while (!reader.is('{')) {
    if (reader.kind === 'eof') throw reader.unexpected()
    if (reader.is('(')) skipBalanced(reader)
    else reader.advance()
  }
  skipBalanced(reader)
}

/** From an opening bracket to its match, whatever is inside. */
function skipBalanced(reader: SdlReader): void {
  const closes: string[] = []
  do {
    if (reader.kind === 'eof') throw reader.unexpected()
    const punctuator = reader.kind === 'punctuator' ? reader.punctuator : ''
    reader.advance()
    if (punctuator === '(') closes.push(')')
    else if (punctuator === '[') closes.push(']')
    else if (punctuator === '{') closes.push('}')
    else if (punctuator !== '' && punctuator === closes.at(-1)) closes.pop()
    else if (punctuator !== '' && ')]}'.includes(punctuator)) throw reader.unexpected()
  } while (closes.length > 0)
}

/**
 * GraphQL's tokens, with whitespace, commas and comments skipped: the current one is in the
 * reader's fields (no object for each of a schema's hundred thousand tokens).
 */
class SdlReader {
  kind: 'name' | 'punctuator' | 'string' | 'number' | 'eof' = 'eof'
  /** The offset where the current token starts. */
  start = 0
  /** The current punctuator; empty for other tokens. */
  punctuator = ''
  readonly #text: string
  #end = 0

  constructor(text: string) {
    this.#text = text
    this.advance()
  }

  /** The current token's text, for a name. */
  name(): string {
    return this.#text.slice(this.start, this.#end)
  }

  is(punctuator: string): boolean {
    return this.punctuator === punctuator
  }

  /** Consumes the punctuator when it comes next. */
  skip(punctuator: string): boolean {
    if (this.punctuator !== punctuator) return false
    this.advance()
    return true
  }

  expect(punctuator: string): void {
    if (!this.skip(punctuator)) throw this.unexpected()
  }

  expectName(): string {
    if (this.kind !== 'name') throw this.unexpected()
    const name = this.name()
    this.advance()
    return name
  }

  skipName(): void {
    if (this.kind !== 'name') throw this.unexpected()
    this.advance()
  }

  unexpected(): SyntaxError {
    return new SyntaxError(`Unexpected ${this.kind} at offset ${this.start}`)
  }

  advance(): void {
    const text = this.#text
    let at = this.#end
    for (let code = text.charCodeAt(at); ; code = text.charCodeAt(at)) {
      if (code === HASH) while (at < text.length && !isLineEnd(text.charCodeAt(at))) at++
      else if (code === SPACE || code === TAB || code === COMMA || isLineEnd(code) || code === BOM)
        at++
      else break
    }
    const start = at
    const code = text.charCodeAt(at)
    if (Number.isNaN(code)) return this.#token('eof', start, at)
    if (code === QUOTE && text.charCodeAt(at + 1) === QUOTE && text.charCodeAt(at + 2) === QUOTE) {
      // The first """ not escaped as \""" ends it, as graphql-js reads it char by char.
      let end = text.indexOf('"""', at + 3)
      while (end !== -1 && text.charCodeAt(end - 1) === BACKSLASH)
        end = text.indexOf('"""', end + 3)
      if (end === -1) throw new SyntaxError(`Unterminated string at offset ${start}`)
      return this.#token('string', start, end + 3)
    }
    if (code === QUOTE) {
      at++
      for (let c = text.charCodeAt(at); c !== QUOTE; c = text.charCodeAt(at)) {
        if (Number.isNaN(c) || isLineEnd(c))
          throw new SyntaxError(`Unterminated string at offset ${start}`)
        at += c === BACKSLASH ? 2 : 1
      }
      return this.#token('string', start, at + 1)
    }
    if (isNameStart(code)) {
      at++
      while (isNameStart(text.charCodeAt(at)) || isDigit(text.charCodeAt(at))) at++
      return this.#token('name', start, at)
    }
    if (code === MINUS || isDigit(code)) {
      // Digits, a fraction and an exponent; graphql-js has checked the number already.
      at++
      for (let c = text.charCodeAt(at); isDigit(c) || c === DOT || c === E || c === LOWER_E;) {
        at++
        const exponent = c === E || c === LOWER_E
        c = text.charCodeAt(at)
        if (exponent && (c === PLUS || c === MINUS)) c = text.charCodeAt(++at)
      }
      return this.#token('number', start, at)
    }
    if (text.startsWith('...', at)) return this.#token('punctuator', start, at + 3, '...')
    const char = text[at]!
    if (PUNCTUATORS.has(char)) return this.#token('punctuator', start, at + 1, char)
    throw new SyntaxError(`Unexpected character at offset ${start}`)
  }

  #token(kind: SdlReader['kind'], start: number, end: number, punctuator = ''): void {
    this.kind = kind
    this.start = start
    this.#end = end
    this.punctuator = punctuator
  }
}

function isLineEnd(code: number): boolean {
  return code === LF || code === CR
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39
}

function isNameStart(code: number): boolean {
  return code === UNDERSCORE || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a)
}
