import type { ASTNode, DocumentNode, Location, Source, Token } from 'graphql'
import { Parser } from 'graphql/language/parser.js'
import { linePositions } from '../input/line-positions.js'

/**
 * Parses SDL with a light location on each node: its start and end offsets and its source, all
 * that graphql-js's errors and svc's issues read, without the first and last tokens a full
 * location holds. Those keep every token alive as long as the tree, which made a parse with
 * locations cost about twice one without; with light ones the diff can parse with locations
 * once, for its own reading and for finding a schema's parse issues.
 */
export function parseWithOffsets(text: string): DocumentNode {
  return new OffsetParser(text).parseDocument()
}

class OffsetParser extends Parser {
  override node<T extends { loc?: Location }>(startToken: Token, node: T): T {
    const loc = {
      start: startToken.start,
      end: this._lexer.lastToken.end,
      source: this._lexer.source,
    }
    ;(node as { loc?: unknown }).loc = loc
    return node
  }
}

const LINES = new WeakMap<Source, ReturnType<typeof linePositions>>()

/** The 1-based line and column where a node starts. */
export function positionOf(
  node: ASTNode | undefined,
): { line: number; column: number } | undefined {
  const loc = node?.loc
  if (!loc) return undefined
  let position = LINES.get(loc.source)
  if (!position) {
    position = linePositions(loc.source.body)
    LINES.set(loc.source, position)
  }
  return position(loc.start)
}
