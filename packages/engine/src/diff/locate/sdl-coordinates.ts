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
  const definitions: [string, number][] = []
  const extensions: [string, number][] = []
  while (reader.peek().kind !== 'eof') readDefinition(reader, definitions, extensions)
  const offsets = new Map<string, number>()
  for (const [coordinate, offset] of [...definitions, ...extensions])
    if (!offsets.has(coordinate)) offsets.set(coordinate, offset)
  return offsets
}

type Token = {
  readonly kind: 'name' | 'punctuator' | 'string' | 'number' | 'eof'
  /** The name or punctuator itself; empty for strings and numbers. */
  readonly value: string
  readonly start: number
}

const PUNCTUATORS: ReadonlySet<string> = new Set('!$&()[]{}:=@|')
const [TAB, LF, CR, SPACE, QUOTE, HASH, PLUS, COMMA, MINUS, DOT, BACKSLASH, UNDERSCORE, BOM] = [
  0x09, 0x0a, 0x0d, 0x20, 0x22, 0x23, 0x2b, 0x2c, 0x2d, 0x2e, 0x5c, 0x5f, 0xfeff,
]
const [E, LOWER_E] = [0x45, 0x65]

type Entries = [string, number][]

function readDefinition(reader: SdlReader, definitions: Entries, extensions: Entries): void {
  const first = reader.peek()
  if (first.kind === 'string') reader.next()
  if (reader.peek().value === '{') return skipOperation(reader)
  let keyword = reader.expectName()
  const entries = keyword.value === 'extend' ? extensions : definitions
  if (keyword.value === 'extend') keyword = reader.expectName()
  const add = (coordinate: string, token: Token) => entries.push([coordinate, token.start])
  switch (keyword.value) {
    case 'schema':
      add('schema', first)
      skipDirectives(reader)
      if (reader.skip('{'))
        while (!reader.skip('}')) {
          const operation = reader.expectName()
          reader.expect(':')
          reader.expectName()
          add(`schema.${operation.value}`, operation)
        }
      return
    case 'directive': {
      reader.expect('@')
      const name = reader.expectName()
      add(`@${name.value}`, name)
      if (reader.skip('(')) readInputValues(reader, `@${name.value}`, ')', add, true)
      if (reader.peek().value === 'repeatable') reader.next()
      if (reader.expectName().value !== 'on') throw reader.unexpected()
      reader.skip('|')
      do reader.expectName()
      while (reader.skip('|'))
      return
    }
    case 'query':
    case 'mutation':
    case 'subscription':
    case 'fragment':
      // Executable definitions have no place in a schema; the diff reports them. Only a name.
      if (reader.peek().kind === 'name') {
        const name = reader.next()
        add(name.value, name)
      }
      return skipOperation(reader)
    case 'scalar':
    case 'type':
    case 'interface':
    case 'union':
    case 'enum':
    case 'input':
      return readType(reader, keyword.value, add)
    default:
      throw reader.unexpected(keyword)
  }
}

function readType(
  reader: SdlReader,
  keyword: string,
  add: (coordinate: string, token: Token) => void,
): void {
  const name = reader.expectName()
  const type = name.value
  add(type, name)
  if (reader.peek().value === 'implements') {
    reader.next()
    reader.skip('&')
    do reader.expectName()
    while (reader.skip('&'))
  }
  skipDirectives(reader)
  if (keyword === 'union') {
    if (!reader.skip('=')) return
    reader.skip('|')
    do reader.expectName()
    while (reader.skip('|'))
    return
  }
  if (keyword === 'scalar' || !reader.skip('{')) return
  if (keyword === 'input') return readInputValues(reader, type, '}', add, false)
  while (!reader.skip('}')) {
    if (reader.peek().kind === 'string') reader.next()
    const member = reader.expectName()
    add(`${type}.${member.value}`, member)
    if (keyword === 'enum') {
      skipDirectives(reader)
      continue
    }
    if (reader.skip('(')) readInputValues(reader, `${type}.${member.value}`, ')', add, true)
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
  add: (coordinate: string, token: Token) => void,
  asArguments: boolean,
): void {
  while (!reader.skip(close)) {
    if (reader.peek().kind === 'string') reader.next()
    const name = reader.expectName()
    add(asArguments ? `${owner}(${name.value}:)` : `${owner}.${name.value}`, name)
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
  } else reader.expectName()
  reader.skip('!')
}

function skipDirectives(reader: SdlReader): void {
  while (reader.skip('@')) {
    reader.expectName()
    if (reader.peek().value === '(') skipBalanced(reader)
  }
}

function skipValue(reader: SdlReader): void {
  const token = reader.peek()
  if (token.value === '[' || token.value === '{') return skipBalanced(reader)
  if (reader.skip('$')) {
    reader.expectName()
    return
  }
  if (token.kind === 'punctuator' || token.kind === 'eof') throw reader.unexpected()
  reader.next()
}

/** An operation or fragment, whatever precedes its selection set, then the selection set. */
function skipOperation(reader: SdlReader): void {
  while (reader.peek().value !== '{') {
    if (reader.peek().kind === 'eof') throw reader.unexpected()
    if (reader.peek().value === '(') skipBalanced(reader)
    else reader.next()
  }
  skipBalanced(reader)
}

/** From an opening bracket to its match, whatever is inside. */
function skipBalanced(reader: SdlReader): void {
  const closes: string[] = []
  do {
    const token = reader.next()
    if (token.kind === 'eof') throw reader.unexpected(token)
    if (token.kind !== 'punctuator') continue
    if (token.value === '(') closes.push(')')
    else if (token.value === '[') closes.push(']')
    else if (token.value === '{') closes.push('}')
    else if (token.value === closes.at(-1)) closes.pop()
    else if (')]}'.includes(token.value)) throw reader.unexpected(token)
  } while (closes.length > 0)
}

/** GraphQL's tokens, with whitespace, commas and comments skipped. */
class SdlReader {
  readonly #text: string
  #offset = 0
  #peeked: Token | undefined

  constructor(text: string) {
    this.#text = text
  }

  peek(): Token {
    this.#peeked ??= this.#read()
    return this.#peeked
  }

  next(): Token {
    const token = this.peek()
    this.#peeked = undefined
    return token
  }

  /** Consumes the punctuator when it comes next. */
  skip(punctuator: string): boolean {
    const token = this.peek()
    if (token.kind !== 'punctuator' || token.value !== punctuator) return false
    this.#peeked = undefined
    return true
  }

  expect(punctuator: string): void {
    if (!this.skip(punctuator)) throw this.unexpected()
  }

  expectName(): Token {
    const token = this.next()
    if (token.kind !== 'name') throw this.unexpected(token)
    return token
  }

  unexpected(token: Token = this.peek()): SyntaxError {
    return new SyntaxError(`Unexpected ${token.kind} at offset ${token.start}`)
  }

  #read(): Token {
    const text = this.#text
    let at = this.#offset
    for (let code = text.charCodeAt(at); ; code = text.charCodeAt(at)) {
      if (code === HASH) while (at < text.length && !isLineEnd(text.charCodeAt(at))) at++
      else if (code === SPACE || code === TAB || code === COMMA || isLineEnd(code) || code === BOM)
        at++
      else break
    }
    const start = at
    const code = text.charCodeAt(at)
    if (Number.isNaN(code)) return this.#token('eof', '', start, at)
    if (code === QUOTE && text.charCodeAt(at + 1) === QUOTE && text.charCodeAt(at + 2) === QUOTE) {
      // The first """ not escaped as \""" ends it, as graphql-js reads it char by char.
      let end = text.indexOf('"""', at + 3)
      while (end !== -1 && text.charCodeAt(end - 1) === BACKSLASH)
        end = text.indexOf('"""', end + 3)
      if (end === -1) throw new SyntaxError(`Unterminated string at offset ${start}`)
      return this.#token('string', '', start, end + 3)
    }
    if (code === QUOTE) {
      at++
      for (let c = text.charCodeAt(at); c !== QUOTE; c = text.charCodeAt(at)) {
        if (Number.isNaN(c) || isLineEnd(c))
          throw new SyntaxError(`Unterminated string at offset ${start}`)
        at += c === BACKSLASH ? 2 : 1
      }
      return this.#token('string', '', start, at + 1)
    }
    if (isNameStart(code)) {
      at++
      while (isNameStart(text.charCodeAt(at)) || isDigit(text.charCodeAt(at))) at++
      return this.#token('name', text.slice(start, at), start, at)
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
      return this.#token('number', '', start, at)
    }
    if (text.startsWith('...', at)) return this.#token('punctuator', '...', start, at + 3)
    const char = text[at]!
    if (PUNCTUATORS.has(char)) return this.#token('punctuator', char, start, at + 1)
    throw new SyntaxError(`Unexpected character at offset ${start}`)
  }

  #token(kind: Token['kind'], value: string, start: number, end: number): Token {
    this.#offset = end
    return { kind, value, start }
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
