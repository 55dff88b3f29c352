import type { Document, LineCounter, Node as YamlNode } from 'yaml'
import { DocumentError, isStackOverflow } from './document-error.js'
import { checkYamlTree, DuplicateKey, ExpandedSizeExceeded } from './yaml-tree-checks.js'
import { JsonPathLocator, offsetsToPositions, pathKey, type Position } from './json-positions.js'
import type { InputLimits } from './limits.js'
import { yamlLoaded, yamlModule } from './yaml-module.js'

export type StructuredFormat = 'json' | 'yaml'

/** A decoded JSON/YAML document that can still tell where its paths were in the text. */
export type DecodedDocument = {
  readonly value: unknown
  readonly format: StructuredFormat
  /** 1-based positions of document paths (object keys, array elements); missing paths are absent. */
  locate(paths: readonly (readonly string[])[]): Map<string, Position>
}

/**
 * Decodes JSON (fast path: `JSON.parse`, positions recovered lazily) or YAML (with positions).
 * Throws {@link DocumentError} with a line and column when the text is not valid JSON or YAML.
 */
export function decodeDocument(text: string, limits: InputLimits, file?: string): DecodedDocument {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  if (body.trim() === '')
    throw new DocumentError('empty_document', 'The document is empty.', withFile(file))
  const head = body.trimStart()
  if (head.startsWith('{') || head.startsWith('[')) {
    try {
      return decodedJson(body, JSON.parse(body))
    } catch (error) {
      if (isStackOverflow(error)) throw tooDeep(file, error)
      // Not JSON; it may still be YAML flow style. Report the JSON error if YAML fails as well.
      if (!yamlLoaded()) throw jsonSyntaxError(body, error, file)
      try {
        return decodeYaml(body, limits, file)
      } catch {
        throw jsonSyntaxError(body, error, file)
      }
    }
  }
  return decodeYaml(body, limits, file)
}

function decodedJson(text: string, value: unknown): DecodedDocument {
  return {
    value,
    format: 'json',
    locate(paths) {
      const offsets = new JsonPathLocator(text).locate(paths)
      const positions = offsetsToPositions(text, offsets.values())
      const result = new Map<string, Position>()
      for (const [key, offset] of offsets) result.set(key, positions.get(offset)!)
      return result
    },
  }
}

function jsonSyntaxError(text: string, error: unknown, file?: string): DocumentError {
  const message = error instanceof Error ? error.message : String(error)
  const at = /at position (\d+)/.exec(message)
  const reason = message
    .replace(/\s*in JSON at position \d+.*$/s, '')
    .replace(/, ".*" is not valid JSON$/s, '')
  if (at) {
    const offset = Number(at[1])
    const position = offsetsToPositions(text, [offset]).get(offset)!
    return new DocumentError(
      'invalid_syntax',
      `Invalid JSON at line ${position.line}, column ${position.column}: ${reason}.`,
      { ...position, ...withFile(file), cause: error },
    )
  }
  return new DocumentError('invalid_syntax', `Invalid JSON: ${reason}.`, {
    ...withFile(file),
    cause: error,
  })
}

/** Whether the text will go through the YAML parser (everything that does not start like JSON). */
export function looksLikeJson(text: string): boolean {
  const head = text.trimStart()
  return head.startsWith('{') || head.startsWith('[')
}

function decodeYaml(text: string, limits: InputLimits, file?: string): DecodedDocument {
  const { LineCounter, parseDocument } = yamlModule()
  const lineCounter = new LineCounter()
  let doc: Document.Parsed
  try {
    // Keys are checked for uniqueness by checkYamlTree, in linear time.
    doc = parseDocument(text, {
      lineCounter,
      version: '1.2',
      schema: 'core',
      prettyErrors: true,
      uniqueKeys: false,
    })
  } catch (error) {
    if (isStackOverflow(error)) throw tooDeep(file, error)
    throw new DocumentError('invalid_syntax', `Invalid YAML: ${String(error)}`, withFile(file))
  }
  const [first] = doc.errors
  if (first) {
    const [start] = first.linePos ?? []
    const reason = first.message.split(/ at line \d+, column \d+/)[0]!.replace(/:$/, '')
    if (/call stack/i.test(reason)) throw tooDeep(file, first, start)
    const where = start ? ` at line ${start.line}, column ${start.col}` : ''
    throw new DocumentError('invalid_syntax', `Invalid YAML${where}: ${reason}.`, {
      ...(start ? { line: start.line, column: start.col } : {}),
      ...withFile(file),
    })
  }
  checkTree(doc, lineCounter, limits, file)
  let value: unknown
  try {
    value = doc.toJS({ maxAliasCount: limits.maxAliasCount })
  } catch (error) {
    if (isStackOverflow(error)) throw tooDeep(file, error)
    if (error instanceof ReferenceError && /alias/i.test(error.message)) {
      throw new DocumentError(
        'alias_limit',
        `The YAML document expands more than ${limits.maxAliasCount} aliases; refusing what looks like an alias bomb.`,
        withFile(file),
      )
    }
    throw new DocumentError(
      'invalid_syntax',
      `Invalid YAML: ${(error as Error).message}`,
      withFile(file),
    )
  }
  return {
    value,
    format: 'yaml',
    locate(paths) {
      const result = new Map<string, Position>()
      for (const path of paths) {
        const offset = yamlOffset(doc, path)
        if (offset === undefined) continue
        const { line, col } = lineCounter.linePos(offset)
        result.set(pathKey(path), { line, column: col })
      }
      return result
    },
  }
}

/** Duplicate keys and the expanded size, checked before anything expands an alias. */
function checkTree(
  doc: Document.Parsed,
  lineCounter: LineCounter,
  limits: InputLimits,
  file: string | undefined,
): void {
  try {
    checkYamlTree(doc, limits.maxExpandedNodes)
  } catch (error) {
    if (isStackOverflow(error)) throw tooDeep(file, error)
    if (error instanceof DuplicateKey) {
      const { line, col } = lineCounter.linePos(error.offset)
      throw new DocumentError(
        'invalid_syntax',
        `Invalid YAML at line ${line}, column ${col}: ${error.message}.`,
        { line, column: col, ...withFile(file) },
      )
    }
    if (!(error instanceof ExpandedSizeExceeded)) throw error
    throw new DocumentError(
      'too_complex',
      `The YAML document has more than ${error.max.toLocaleString('en-US')} nodes once its aliases are expanded (the limit on expanded nodes); refusing what looks like an alias bomb.`,
      withFile(file),
    )
  }
}

function yamlOffset(doc: Document.Parsed, path: readonly string[]): number | undefined {
  const { isAlias, isMap, isPair, isScalar, isSeq } = yamlModule()
  let node: unknown = doc.contents
  let offset: number | undefined
  for (const segment of path) {
    if (isAlias(node)) node = node.resolve(doc)
    if (isMap(node)) {
      const pair = node.items.find(
        (item) => isPair(item) && isScalar(item.key) && String(item.key.value) === segment,
      )
      if (!pair) return undefined
      offset = (pair.key as YamlNode).range?.[0]
      node = pair.value
    } else if (isSeq(node)) {
      const item = node.items[Number(segment)] as YamlNode | undefined
      if (item === undefined || !/^\d+$/.test(segment)) return undefined
      offset = item.range?.[0]
      node = item
    } else {
      return undefined
    }
  }
  return offset
}

function tooDeep(file: string | undefined, cause: unknown, at?: { line: number; col: number }) {
  return new DocumentError('too_deep', 'The document is nested too deeply to read.', {
    ...(at ? { line: at.line, column: at.col } : {}),
    ...withFile(file),
    cause,
  })
}

function withFile(file: string | undefined): { file?: string } {
  return file === undefined ? {} : { file }
}
