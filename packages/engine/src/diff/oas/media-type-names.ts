/** A media type name split into what content negotiation compares. */
type MediaTypeName = {
  readonly type: string
  readonly subtype: string
  readonly parameters: ReadonlyMap<string, string>
}

function parse(name: string): MediaTypeName {
  const [essence = '', ...rest] = name.split(';')
  const [type = '', subtype = ''] = essence.trim().toLowerCase().split('/')
  const parameters = new Map<string, string>()
  for (const part of rest) {
    const at = part.indexOf('=')
    if (at < 0) continue
    parameters.set(
      part.slice(0, at).trim().toLowerCase(),
      part
        .slice(at + 1)
        .trim()
        .replace(/^"(.*)"$/, '$1'),
    )
  }
  return { type, subtype, parameters }
}

/** Whether every value of `inner` is also a value of `outer`: `application/problem+json` is JSON. */
function within(inner: MediaTypeName, outer: MediaTypeName): boolean {
  if (outer.type === '*') return true
  if (inner.type !== outer.type) return false
  if (outer.subtype === '*' || outer.subtype === inner.subtype) return true
  const suffix = inner.subtype.lastIndexOf('+')
  return suffix >= 0 && inner.subtype.slice(suffix + 1) === outer.subtype
}

export type NameChange = 'narrowed' | 'widened' | 'parameter-changed' | 'changed'

/**
 * How a response media type renamed into a related one changes what a client may receive, or
 * undefined when the two are unrelated (then one was removed and another added). A name that
 * narrows (`application/json` to `application/problem+json`, or a parameter that appears) still
 * promises what it did; one that widens or changes a parameter's value does not.
 */
export function nameChange(from: string, to: string): NameChange | undefined {
  const [a, b] = [parse(from), parse(to)]
  const sameEssence = a.type === b.type && a.subtype === b.subtype
  const narrower = !sameEssence && within(b, a)
  const wider = !sameEssence && within(a, b)
  if (!sameEssence && !narrower && !wider) return undefined
  const added = [...b.parameters.keys()].filter((key) => !a.parameters.has(key))
  const removed = [...a.parameters.keys()].filter((key) => !b.parameters.has(key))
  const changed = [...a.parameters].filter(
    ([key, value]) => b.parameters.has(key) && b.parameters.get(key) !== value,
  )
  const parametersMoved = added.length + removed.length + changed.length > 0
  if (!sameEssence) {
    if (parametersMoved) return 'changed'
    return narrower ? 'narrowed' : 'widened'
  }
  const directions = [added.length > 0, removed.length > 0, changed.length > 0].filter(Boolean)
  if (directions.length !== 1) return 'changed'
  if (changed.length > 0) return 'parameter-changed'
  return added.length > 0 ? 'narrowed' : 'widened'
}

/**
 * Pairs each media type only in `added` with a related one only in `removed`: one with the same
 * essence (parameters aside) first, then one it narrows or widens.
 */
export function pairRenamed(
  removed: readonly string[],
  added: readonly string[],
): Array<{ from: string; to: string; change: NameChange }> {
  const left = new Set(removed)
  const pairs: Array<{ from: string; to: string; change: NameChange }> = []
  const essence = (name: string) => name.split(';')[0]!.trim().toLowerCase()
  for (const to of added) {
    const candidates = [...left]
    const from =
      candidates.find((name) => essence(name) === essence(to)) ??
      candidates.find((name) => nameChange(name, to) !== undefined)
    if (from === undefined) continue
    const change = nameChange(from, to)
    if (change === undefined) continue
    left.delete(from)
    pairs.push({ from, to, change })
  }
  return pairs
}
