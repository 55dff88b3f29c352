// Where a V8 CPU profile (`node --cpu-prof`) spent its time: self time by function and by
// where the code lives (a package, the hub's own dist, Node's internals, idle, GC), and the
// inclusive time of the workspace's own functions.
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'

/**
 * The self time of every function of `file` and of every place, largest first, in ms. With
 * `window: { fromMs, toMs, endedAtMs }` (epoch ms; `endedAtMs`: when the process ended, which is
 * when the profile ends), only the samples taken in [fromMs, toMs] count.
 */
export async function summarizeProfile(file, { top = 15, window } = {}) {
  const profile = JSON.parse(await readFile(file, 'utf8'))
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const selfMs = new Map()
  let totalMs = 0
  // Sample times are microseconds on a monotonic clock; the profile's end is the process's exit.
  const epochOf = (micros) => window.endedAtMs - (profile.endTime - micros) / 1000
  let at = profile.startTime
  for (let i = 0; i < profile.samples.length; i++) {
    const delta = profile.timeDeltas[i] ?? 0
    at += delta
    if (window && (epochOf(at) < window.fromMs || epochOf(at) > window.toMs)) continue
    const ms = delta / 1000
    totalMs += ms
    selfMs.set(profile.samples[i], (selfMs.get(profile.samples[i]) ?? 0) + ms)
  }
  const functions = new Map()
  const places = new Map()
  for (const [id, ms] of selfMs) {
    const { callFrame } = byId.get(id)
    const name = callFrame.functionName || '(anonymous)'
    const key = `${name} ${shortUrl(callFrame.url)}${callFrame.url ? `:${callFrame.lineNumber + 1}` : ''}`
    functions.set(key, (functions.get(key) ?? 0) + ms)
    const where = place(callFrame)
    places.set(where, (places.get(where) ?? 0) + ms)
  }
  // Inclusive time of the workspace's own functions (packages/*): each sample counts once for
  // every distinct such function on its stack, so callers show what their callees cost.
  const parentOf = new Map()
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parentOf.set(child, node.id)
  const inclusive = new Map()
  for (const [id, ms] of selfMs) {
    const seen = new Set()
    for (let at = id; at !== undefined; at = parentOf.get(at)) {
      const { callFrame } = byId.get(at)
      if (!/\/packages\//.test(callFrame.url) || /\/node_modules\//.test(callFrame.url)) continue
      const key = `${callFrame.functionName || '(anonymous)'} ${shortUrl(callFrame.url)}:${callFrame.lineNumber + 1}`
      if (seen.has(key)) continue
      seen.add(key)
      inclusive.set(key, (inclusive.get(key) ?? 0) + ms)
    }
  }
  const rank = (map) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, ms]) => ({ name, ms: Math.round(ms), share: ms / totalMs }))
  return {
    file,
    totalMs: Math.round(totalMs),
    functions: rank(functions),
    places: rank(places),
    inclusive: rank(inclusive),
  }
}

/**
 * The `.cpuprofile`s in `dir`, one per thread (`CPU.<date>.<time>.<pid>.<thread>.<n>`): the main
 * thread (0) first, then worker threads.
 */
export async function profilesIn(dir) {
  const names = (await readdir(dir).catch(() => [])).filter((n) => n.endsWith('.cpuprofile'))
  const thread = (name) => Number(name.split('.')[4])
  return names
    .sort((a, b) => thread(a) - thread(b))
    .map((name) => ({ file: join(dir, name), thread: thread(name) }))
}

function place({ url, functionName }) {
  if (!url) {
    if (functionName === '(idle)') return '(idle)'
    if (functionName === '(garbage collector)') return '(garbage collector)'
    if (functionName === '(program)') return '(program)'
    return '(native)'
  }
  if (url.startsWith('node:')) return url.split('/').slice(0, 2).join('/')
  const modules = url.lastIndexOf('/node_modules/')
  if (modules >= 0) {
    const rest = url.slice(modules + '/node_modules/'.length).split('/')
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]
  }
  const pkg = /\/packages\/(.+?)\/(?:dist|src|bin)\/(.*)$/.exec(url)
  if (pkg) return `packages/${pkg[1]}/${pkg[2].split('/').slice(0, -1).join('/') || '.'}`
  return shortUrl(url)
}

function shortUrl(url) {
  if (!url) return ''
  const modules = url.lastIndexOf('/node_modules/')
  if (modules >= 0) return url.slice(modules + '/node_modules/'.length)
  const pkg = url.indexOf('/packages/')
  if (pkg >= 0) return url.slice(pkg + 1)
  return url.replace(/^file:\/\//, '')
}
