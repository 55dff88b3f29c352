/** A 1-based line and column in a source text. */
export type Position = { readonly line: number; readonly column: number }

type Trie = { target: boolean; children: Map<string, Trie> }

function buildTrie(paths: readonly (readonly string[])[]): Trie {
  const root: Trie = { target: false, children: new Map() }
  for (const path of paths) {
    let node = root
    for (const segment of path) {
      let child = node.children.get(segment)
      if (!child) node.children.set(segment, (child = { target: false, children: new Map() }))
      node = child
    }
    node.target = true
  }
  return root
}

const QUOTE = 34
const BACKSLASH = 92
const OPEN_BRACE = 123
const CLOSE_BRACE = 125
const OPEN_BRACKET = 91
const CLOSE_BRACKET = 93
const COMMA = 44
const COLON = 58
/**
 * Everything up to and including the next bracket outside a string, in one match: runs of other
 * characters and whole strings are consumed inside the regexp engine. Unrolled (a run, then
 * string-and-run pairs) so that no text can be split two ways and matching stays linear.
 */
const TO_BRACKET = /[^"{}[\]]*(?:"[^"\\]*(?:\\[^][^"\\]*)*"[^"{}[\]]*)*[{}[\]]/y

/**
 * Recovers the offsets of document paths in JSON text after `JSON.parse` has already succeeded,
 * in one pass that skips every subtree no requested path enters. An object member's offset is
 * that of its key; an array element's that of its value. Cheaper than a position-keeping parser,
 * and only paid for when issues are reported.
 */
export class JsonPathLocator {
  readonly #text: string
  #i = 0
  readonly #found = new Map<string, number>()

  constructor(text: string) {
    this.#text = text
  }

  locate(paths: readonly (readonly string[])[]): Map<string, number> {
    this.#found.clear()
    this.#i = 0
    this.#ws()
    if (paths.length > 0) this.#value(buildTrie(paths), '')
    return new Map(this.#found)
  }

  #value(node: Trie | undefined, key: string): void {
    if (node === undefined || node.children.size === 0) return this.#skip()
    const c = this.#text.charCodeAt(this.#i)
    if (c === OPEN_BRACE) this.#object(node, key)
    else if (c === OPEN_BRACKET) this.#array(node, key)
    else this.#skip()
  }

  #object(node: Trie, key: string): void {
    const text = this.#text
    this.#i++
    this.#ws()
    if (text.charCodeAt(this.#i) === CLOSE_BRACE) return void this.#i++
    while (this.#i < text.length) {
      const keyStart = this.#i
      const name = this.#string()
      const child = node.children.get(name)
      const childKey = key + '\u0000' + name
      if (child?.target) this.#found.set(childKey, keyStart)
      this.#ws()
      if (text.charCodeAt(this.#i) === COLON) this.#i++
      this.#ws()
      this.#value(child, childKey)
      this.#ws()
      const c = text.charCodeAt(this.#i++)
      if (c !== COMMA) return
      this.#ws()
    }
  }

  #array(node: Trie, key: string): void {
    const text = this.#text
    this.#i++
    this.#ws()
    if (text.charCodeAt(this.#i) === CLOSE_BRACKET) return void this.#i++
    for (let index = 0; this.#i < text.length; index++) {
      const name = String(index)
      const child = node.children.get(name)
      const childKey = key + '\u0000' + name
      if (child?.target) this.#found.set(childKey, this.#i)
      this.#value(child, childKey)
      this.#ws()
      const c = text.charCodeAt(this.#i++)
      if (c !== COMMA) return
      this.#ws()
    }
  }

  /** Reads a JSON string at the cursor and returns its decoded value. */
  #string(): string {
    const text = this.#text
    const start = this.#i + 1
    let end = this.#stringEnd(start)
    this.#i = end + 1
    const raw = text.slice(start, end)
    if (raw.indexOf('\\') === -1) return raw
    try {
      return JSON.parse(text.slice(start - 1, end + 1)) as string
    } catch {
      return raw
    }
  }

  #stringEnd(from: number): number {
    const text = this.#text
    let end = text.indexOf('"', from)
    while (end !== -1) {
      let backslashes = 0
      for (let j = end - 1; j >= from && text.charCodeAt(j) === BACKSLASH; j--) backslashes++
      if (backslashes % 2 === 0) return end
      end = text.indexOf('"', end + 1)
    }
    return text.length
  }

  /** Skips one value of any kind without looking inside it. */
  #skip(): void {
    const text = this.#text
    const c = text.charCodeAt(this.#i)
    if (c === QUOTE) {
      this.#i = this.#stringEnd(this.#i + 1) + 1
      return
    }
    if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      // `test` rather than `exec`: no match object for each of the document's brackets.
      const toBracket = TO_BRACKET
      let depth = 0
      toBracket.lastIndex = this.#i
      while (toBracket.test(text)) {
        const d = text.charCodeAt(toBracket.lastIndex - 1)
        if (d === OPEN_BRACE || d === OPEN_BRACKET) depth++
        else if (--depth === 0) {
          this.#i = toBracket.lastIndex
          return
        }
      }
      this.#i = text.length
      return
    }
    let i = this.#i
    while (i < text.length) {
      const d = text.charCodeAt(i)
      if (d === COMMA || d === CLOSE_BRACE || d === CLOSE_BRACKET || d <= 32) break
      i++
    }
    this.#i = i
  }

  #ws(): void {
    const text = this.#text
    let i = this.#i
    while (i < text.length && text.charCodeAt(i) <= 32) i++
    this.#i = i
  }
}

/** Converts offsets to 1-based lines and columns with one scan over the text. */
export function offsetsToPositions(text: string, offsets: Iterable<number>): Map<number, Position> {
  const sorted = [...new Set(offsets)].sort((a, b) => a - b)
  const positions = new Map<number, Position>()
  let line = 1
  let lineStart = 0
  // The next newline is found once and kept: on minified JSON there is none, and searching again
  // for every offset would scan to the end each time.
  let next = text.indexOf('\n')
  for (const offset of sorted) {
    while (next !== -1 && next < offset) {
      line++
      lineStart = next + 1
      next = text.indexOf('\n', lineStart)
    }
    positions.set(offset, { line, column: offset - lineStart + 1 })
  }
  return positions
}

/** The path key used by {@link JsonPathLocator} results. */
export function pathKey(path: readonly string[]): string {
  let key = ''
  for (const segment of path) key += '\u0000' + segment
  return key
}
