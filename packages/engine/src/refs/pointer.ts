/** Decodes one JSON-pointer segment (`~1` → `/`, `~0` → `~`, then percent-decoding). */
export function decodePointerSegment(segment: string): string {
  if (segment.indexOf('~') === -1 && segment.indexOf('%') === -1) return segment
  let decoded = segment
  if (decoded.includes('%')) {
    try {
      decoded = decodeURIComponent(decoded)
    } catch {
      // Not percent-encoded after all; keep the text as written.
    }
  }
  return decoded.replace(/~1/g, '/').replace(/~0/g, '~')
}

export function encodePointerSegment(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1')
}

/** Splits a local `$ref` (`#/components/schemas/User`) into decoded segments; undefined if not local. */
export function parseLocalRef(ref: string): string[] | undefined {
  if (!ref.startsWith('#')) return undefined
  const pointer = ref.slice(1)
  if (pointer === '') return []
  if (!pointer.startsWith('/')) return undefined
  return pointer.slice(1).split('/').map(decodePointerSegment)
}

/** Builds `#/components/<bucket>/<name>` with the name escaped as a pointer segment. */
export function componentRef(bucket: string, name: string): string {
  return `#/components/${bucket}/${encodePointerSegment(name)}`
}

/** The value a local `$ref` (`#/paths/~1pets/get`) points at in `root`; undefined when there is none. */
export function getAtLocalRef(root: unknown, ref: string): unknown {
  const segments = parseLocalRef(ref)
  return segments ? getAtPointer(root, segments) : undefined
}

/** Follows decoded segments into a plain JSON value; undefined when a segment is absent. */
export function getAtPointer(root: unknown, segments: readonly string[]): unknown {
  let node = root
  for (const segment of segments) {
    if (Array.isArray(node)) {
      if (!/^(0|[1-9]\d*)$/.test(segment)) return undefined
      node = node[Number(segment)]
    } else if (node !== null && typeof node === 'object') {
      if (!Object.hasOwn(node, segment)) return undefined
      node = (node as Record<string, unknown>)[segment]
    } else {
      return undefined
    }
  }
  return node
}
