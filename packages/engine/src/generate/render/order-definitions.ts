/**
 * Orders `count` definitions, given in registration order, so that each comes after those it
 * uses at module load (`after(i)` lists their indices). Among definitions free to go next, the
 * earliest registered goes first. A cycle cannot be ordered (generators break it with `z.lazy`),
 * so its members stay together in registration order, placed as early as the rest allows.
 *
 * @example
 * ```ts
 * orderDefinitions(3, (i) => (i === 0 ? [2] : [])) // [1, 2, 0]
 * ```
 */
export function orderDefinitions(
  count: number,
  after: (index: number) => readonly number[],
): number[] {
  const component = stronglyConnected(count, after)
  // A component goes by its earliest member, which also identifies it.
  const members = new Map<number, number[]>()
  for (let node = 0; node < count; node++) {
    const id = component[node]!
    const list = members.get(id)
    if (list === undefined) members.set(id, [node])
    else list.push(node)
  }
  const first = new Map([...members].map(([id, list]) => [id, list[0]!]))
  const blocking = new Map<number, number>()
  const unblocks = new Map<number, Set<number>>()
  for (let node = 0; node < count; node++) {
    for (const target of after(node)) {
      const from = first.get(component[target]!)!
      const to = first.get(component[node]!)!
      if (from === to || unblocks.get(from)?.has(to)) continue
      unblocks.set(from, (unblocks.get(from) ?? new Set()).add(to))
      blocking.set(to, (blocking.get(to) ?? 0) + 1)
    }
  }
  const ready = new MinHeap()
  for (const id of first.values()) if (!blocking.has(id)) ready.push(id)
  const order: number[] = []
  for (let id = ready.pop(); id !== undefined; id = ready.pop()) {
    order.push(...members.get(component[id]!)!)
    for (const next of unblocks.get(id) ?? []) {
      const left = blocking.get(next)! - 1
      blocking.set(next, left)
      if (left === 0) ready.push(next)
    }
  }
  return order
}

/** Tarjan's algorithm without recursion (a file may hold thousands of definitions). */
function stronglyConnected(count: number, after: (index: number) => readonly number[]) {
  const index = new Array<number>(count).fill(-1)
  const low = new Array<number>(count).fill(0)
  const component = new Array<number>(count).fill(-1)
  const stack: number[] = []
  let visited = 0
  for (let root = 0; root < count; root++) {
    if (index[root] !== -1) continue
    const work: [node: number, edge: number][] = []
    const open = (node: number) => {
      index[node] = low[node] = visited++
      stack.push(node)
      work.push([node, 0])
    }
    open(root)
    while (work.length > 0) {
      const frame = work[work.length - 1]!
      const [node, edge] = frame
      const targets = after(node)
      if (edge < targets.length) {
        frame[1]++
        const target = targets[edge]!
        if (index[target] === -1) open(target)
        else if (component[target] === -1) low[node] = Math.min(low[node]!, index[target]!)
        continue
      }
      work.pop()
      const parent = work[work.length - 1]?.[0]
      if (parent !== undefined) low[parent] = Math.min(low[parent]!, low[node]!)
      if (low[node] !== index[node]) continue
      for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
        component[member] = node
        if (member === node) break
      }
    }
  }
  return component
}

class MinHeap {
  readonly #items: number[] = []

  push(value: number): void {
    const items = this.#items
    items.push(value)
    for (let i = items.length - 1; i > 0;) {
      const parent = (i - 1) >> 1
      if (items[parent]! <= value) break
      items[i] = items[parent]!
      items[parent] = value
      i = parent
    }
  }

  pop(): number | undefined {
    const items = this.#items
    const top = items[0]
    const last = items.pop()
    if (items.length === 0 || last === undefined) return top
    items[0] = last
    for (let i = 0; ;) {
      const left = 2 * i + 1
      const right = left + 1
      let smallest = i
      if (left < items.length && items[left]! < items[smallest]!) smallest = left
      if (right < items.length && items[right]! < items[smallest]!) smallest = right
      if (smallest === i) return top
      ;[items[i], items[smallest]] = [items[smallest]!, items[i]!]
      i = smallest
    }
  }
}
