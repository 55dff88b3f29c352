import type { ApiModel, Schema } from '@svc/engine'

/** For each component schema, the strongly connected component of the ref graph it belongs to. */
export type Cycles = {
  /** Whether `from` refers, directly or not, back to `to` (they share a cycle). */
  sameCycle(from: string, to: string): boolean
  /** Whether the schema refers to itself, directly or not. */
  recursive(refName: string): boolean
}

const cache = new WeakMap<ApiModel, Cycles>()

export function cyclesOf(model: ApiModel): Cycles {
  let cycles = cache.get(model)
  if (!cycles) {
    cycles = findCycles(model)
    cache.set(model, cycles)
  }
  return cycles
}

/** Tarjan's algorithm over the refs between component schemas, iterative for deep graphs. */
function findCycles(model: ApiModel): Cycles {
  const schemas = model.components.schemas
  const edges = new Map<string, string[]>()
  for (const name of Object.keys(schemas)) edges.set(name, [...refsOf(schemas[name]!)])
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const component = new Map<string, number>()
  const selfLoop = new Set<string>()
  const stack: string[] = []
  const onStack = new Set<string>()
  let counter = 0
  let components = 0
  const sizes: number[] = []
  for (const root of edges.keys()) {
    if (index.has(root)) continue
    const work: { node: string; next: number }[] = [{ node: root, next: 0 }]
    index.set(root, counter)
    low.set(root, counter++)
    stack.push(root)
    onStack.add(root)
    while (work.length > 0) {
      const frame = work[work.length - 1]!
      const targets = edges.get(frame.node) ?? []
      if (frame.next < targets.length) {
        const target = targets[frame.next++]!
        if (target === frame.node) selfLoop.add(target)
        if (!edges.has(target)) continue
        if (!index.has(target)) {
          index.set(target, counter)
          low.set(target, counter++)
          stack.push(target)
          onStack.add(target)
          work.push({ node: target, next: 0 })
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!))
        }
        continue
      }
      work.pop()
      const parent = work[work.length - 1]
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!))
      if (low.get(frame.node) === index.get(frame.node)) {
        let size = 0
        let member: string
        do {
          member = stack.pop()!
          onStack.delete(member)
          component.set(member, components)
          size++
        } while (member !== frame.node)
        sizes[components++] = size
      }
    }
  }
  return {
    sameCycle: (from, to) =>
      component.has(from) &&
      component.get(from) === component.get(to) &&
      (from !== to || selfLoop.has(from) || sizes[component.get(from)!]! > 1),
    recursive: (name) =>
      component.has(name) && (selfLoop.has(name) || sizes[component.get(name)!]! > 1),
  }
}

function* refsOf(schema: Schema): Generator<string> {
  switch (schema.kind) {
    case 'ref':
      yield schema.refName
      return
    case 'object':
      for (const property of Object.values(schema.properties)) yield* refsOf(property)
      if (typeof schema.additionalProperties === 'object')
        yield* refsOf(schema.additionalProperties)
      return
    case 'array':
      for (const item of schema.prefixItems ?? []) yield* refsOf(item)
      yield* refsOf(schema.items)
      return
    case 'union':
      for (const member of schema.members) yield* refsOf(member)
      return
    case 'string':
    case 'integer':
    case 'number':
    case 'boolean':
    case 'unknown':
    case 'void':
      return
  }
}
