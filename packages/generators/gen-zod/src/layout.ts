/**
 * Line breaking for zod expressions, after prettier's algorithm (Wadler's "prettier printer"
 * with prettier's conditional groups), so that generated `zod.ts` reads as if prettier had
 * printed it at 100 columns: a group stays on one line when it fits and breaks otherwise, a last
 * object or array argument hugs its call, and a chain of three or more calls goes one call a line.
 */

/** A document to lay out: text, a sequence, or one of the nodes below. */
export type Doc = string | readonly Doc[] | Group | Indent | Line | IfBreak | BreakParent | Lazy

type Group = {
  readonly type: 'group'
  readonly contents: Doc
  /** Broken whatever the width: asked for, or a hard line inside. */
  readonly break: boolean
  /** Prettier's conditional group: layouts tried in turn when `contents` does not fit flat. */
  readonly expanded?: readonly Doc[]
}
type Indent = { readonly type: 'indent'; readonly contents: Doc }
/** A space (`soft`: nothing) when its group is flat, a newline when broken; `hard` always breaks. */
type Line = { readonly type: 'line'; readonly soft?: boolean; readonly hard?: boolean }
type IfBreak = { readonly type: 'ifBreak'; readonly broken: Doc; readonly flat: Doc }
/** Breaks the enclosing groups; prints nothing. */
type BreakParent = { readonly type: 'breakParent' }
/**
 * A group that never breaks by itself, given as its one-line text: the document is built only
 * when the text does not fit, so that most of a large file is never built as a tree.
 */
type Lazy = { readonly type: 'lazy'; readonly text: string; readonly build: () => Doc }

export const line: Line = { type: 'line' }
export const softline: Line = { type: 'line', soft: true }
export const hardline: Line = { type: 'line', hard: true }
export const breakParent: BreakParent = { type: 'breakParent' }

export function group(contents: Doc, shouldBreak = false): Group {
  return { type: 'group', contents, break: shouldBreak || willBreak(contents) }
}

/**
 * Prettier's conditional group: `states[0]` flat if it fits, else the first state whose first
 * line fits, else the last. A break inside does not break the groups around it.
 */
export function conditionalGroup(states: readonly Doc[]): Group {
  return { type: 'group', contents: states[0]!, break: false, expanded: states }
}

export function indent(contents: Doc): Indent {
  return { type: 'indent', contents }
}

export function ifBreak(broken: Doc, flat: Doc = ''): IfBreak {
  return { type: 'ifBreak', broken, flat }
}

export function lazy(text: string, build: () => Doc): Lazy {
  return { type: 'lazy', text, build }
}

export function join(separator: Doc, docs: readonly Doc[]): Doc[] {
  const joined: Doc[] = []
  for (const doc of docs) {
    if (joined.length > 0) joined.push(separator)
    joined.push(doc)
  }
  return joined
}

/** Whether the document breaks whatever the width (conditional groups excepted, as prettier). */
export function willBreak(doc: Doc): boolean {
  if (typeof doc === 'string') return false
  if (isArray(doc)) return doc.some(willBreak)
  switch (doc.type) {
    case 'group':
      return doc.break
    case 'indent':
      return willBreak(doc.contents)
    case 'line':
      return doc.hard === true
    case 'ifBreak':
      return willBreak(doc.broken)
    case 'breakParent':
      return true
    case 'lazy':
      return false
  }
}

type Mode = 'flat' | 'break'
type Command = readonly [indent: string, mode: Mode, doc: Doc]

/** The document laid out to `width` columns, its first line starting at column `start`. */
export function printDoc(doc: Doc, width: number, start = 0, indentation = ''): string {
  let out = ''
  let position = start
  // After a hard line printed in flat mode, the groups that follow are measured again.
  let remeasure = false
  const commands: Command[] = [[indentation, 'break', doc]]
  while (commands.length > 0) {
    const [ind, mode, current] = commands.pop()!
    if (typeof current === 'string') {
      out += current
      position += current.length
      continue
    }
    if (isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) commands.push([ind, mode, current[i]!])
      continue
    }
    switch (current.type) {
      case 'indent':
        commands.push([`${ind}  `, mode, current.contents])
        break
      case 'ifBreak':
        commands.push([ind, mode, mode === 'break' ? current.broken : current.flat])
        break
      case 'breakParent':
        break
      case 'lazy': {
        const flat: Command = [ind, 'flat', current.text]
        if ((mode === 'flat' && !remeasure) || fits(flat, commands, width - position)) {
          remeasure = false
          commands.push(flat)
        } else commands.push([ind, 'break', current.build()])
        break
      }
      case 'line':
        if (mode === 'flat' && !current.hard) {
          if (!current.soft) {
            out += ' '
            position++
          }
        } else {
          if (mode === 'flat') remeasure = true
          out += `\n${ind}`
          position = ind.length
        }
        break
      case 'group': {
        if (mode === 'flat' && !remeasure) {
          const broken = current.break && current.expanded
          commands.push(
            broken
              ? [ind, 'break', current.expanded[current.expanded.length - 1]!]
              : [ind, current.break ? 'break' : 'flat', current.contents],
          )
          break
        }
        remeasure = false
        const flat: Command = [ind, 'flat', current.contents]
        if (!current.break && fits(flat, commands, width - position)) {
          commands.push(flat)
          break
        }
        const states = current.expanded
        if (!states) {
          commands.push([ind, 'break', current.contents])
          break
        }
        const last: Command = [ind, 'break', states[states.length - 1]!]
        if (current.break) {
          commands.push(last)
          break
        }
        const state = states
          .slice(1)
          .map((contents): Command => [ind, 'flat', contents])
          .find((command) => fits(command, commands, width - position))
        commands.push(state ?? last)
        break
      }
    }
  }
  return out
}

/** Whether `next` fits in `width` up to its first line break, read on into `rest` if it ends. */
function fits(next: Command, rest: readonly Command[], width: number): boolean {
  const stack: Command[] = [next]
  let restIndex = rest.length
  let remaining = width
  while (remaining >= 0) {
    const command = stack.pop() ?? (restIndex > 0 ? rest[--restIndex] : undefined)
    if (!command) return true
    const [ind, mode, doc] = command
    if (typeof doc === 'string') {
      remaining -= doc.length
      continue
    }
    if (isArray(doc)) {
      for (let i = doc.length - 1; i >= 0; i--) stack.push([ind, mode, doc[i]!])
      continue
    }
    switch (doc.type) {
      case 'indent':
        stack.push([ind, mode, doc.contents])
        break
      case 'ifBreak':
        stack.push([ind, mode, mode === 'break' ? doc.broken : doc.flat])
        break
      case 'breakParent':
        break
      case 'lazy':
        stack.push([ind, mode, mode === 'flat' ? doc.text : doc.build()])
        break
      case 'line':
        if (mode === 'break' || doc.hard) return true
        if (!doc.soft) remaining--
        break
      case 'group': {
        const groupMode = doc.break ? 'break' : mode
        const contents =
          doc.expanded && groupMode === 'break'
            ? doc.expanded[doc.expanded.length - 1]!
            : doc.contents
        stack.push([ind, groupMode, contents])
        break
      }
    }
  }
  return false
}

function isArray(doc: Doc): doc is readonly Doc[] {
  return Array.isArray(doc)
}
