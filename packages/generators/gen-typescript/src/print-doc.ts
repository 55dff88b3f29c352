import type { Schema } from '@svc/engine'

/**
 * The JSDoc block for a schema's annotations, each line starting at `indent` and the block ending
 * in a newline; empty when the schema says nothing a reader of the type could not see in it.
 * `readOnly` has no tag: the `readonly` modifier already says it. `writeOnly` has no TypeScript
 * form, so it is a `@writeonly` tag.
 */
export function printDoc(schema: Schema, indent: string): string {
  return printComment(docLines(schema, WIDTH - indent.length - '/**  */'.length), indent)
}

/** Markdown text as a doc comment at `indent`, broken between words as a description is. */
export function printTextDoc(text: string, indent: string): string {
  const width = WIDTH - indent.length - '/**  */'.length
  return printComment(wrapMarkdown(text.trim().split(/\r?\n/), width), indent)
}

function printComment(raw: readonly string[], indent: string): string {
  const lines = raw.map((line) => line.replace(/\*\//g, '*\\/'))
  if (lines.length === 0) return ''
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`
  const body = lines.map((line) => (line === '' ? `${indent} *` : `${indent} * ${line}`))
  return `${indent}/**\n${body.join('\n')}\n${indent} */\n`
}

/** The widest line a comment aims for, as the repository's prettier configuration. */
const WIDTH = 100

function docLines(schema: Schema, width: number): string[] {
  const lines: string[] = []
  const description = schema.description?.trim()
  if (description) lines.push(...wrapMarkdown(description.split(/\r?\n/), width))
  if (schema.deprecated) lines.push('@deprecated')
  const format = 'format' in schema ? schema.format : undefined
  if (format) lines.push(`@format ${format}`)
  if (schema.default !== undefined) lines.push(...tagged('@default', schema.default))
  if (schema.example !== undefined) lines.push(...tagged('@example', schema.example))
  if (schema.writeOnly) lines.push('@writeonly')
  return lines
}

/** A tag with a JSON value: scalars on the tag's line, objects and arrays indented below it. */
function tagged(tag: string, value: unknown): string[] {
  if (value === null || typeof value !== 'object') return [`${tag} ${JSON.stringify(value)}`]
  return [tag, ...JSON.stringify(value, null, 2).split('\n')]
}

/**
 * Long lines of prose broken between words, which Markdown renders as the same paragraph. Code
 * (fenced or indented), tables and headings keep their lines: a break would change them.
 */
function wrapMarkdown(lines: readonly string[], width: number): string[] {
  const wrapped: string[] = []
  let fenced = false
  for (const raw of lines) {
    const line = raw.trimEnd()
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced
    if (fenced || line.length <= width || /^(\s{4}|\t|\s*[|#])/.test(line)) wrapped.push(line)
    else wrapped.push(...breakLine(line, width))
  }
  return wrapped
}

function breakLine(line: string, width: number): string[] {
  const lines: string[] = []
  // The line's own indentation (a nested list item) starts its first piece.
  let current = /^\s*/.exec(line)?.[0] ?? ''
  let empty = true
  for (const word of line.trim().split(/ +/)) {
    if (!empty && current.length + 1 + word.length > width) {
      lines.push(current)
      current = word
    } else current = empty ? `${current}${word}` : `${current} ${word}`
    empty = false
  }
  lines.push(current)
  return lines
}
