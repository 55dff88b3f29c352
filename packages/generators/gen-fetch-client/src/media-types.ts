/**
 * How a body of a media type is typed and read; the runtime's `sendRequest` reads responses by
 * the same tests of their content type.
 */
export type MediaKind = 'json' | 'text' | 'binary' | 'any'

export function mediaKind(mediaType: string): MediaKind {
  if (mediaType.includes('*')) return 'any'
  if (/[/+]json\b/i.test(mediaType)) return 'json'
  if (/^text\/|[/+]xml\b|x-www-form-urlencoded/i.test(mediaType)) return 'text'
  return 'binary'
}

/** The first entry of the lowest rank: the media type to send, or to type a response by. */
export function preferredMedia<T>(
  content: Readonly<Record<string, T>>,
  rank: (mediaType: string) => number,
): [mediaType: string, media: T] | undefined {
  let best: [string, T] | undefined
  for (const entry of Object.entries(content))
    if (best === undefined || rank(entry[0]) < rank(best[0])) best = entry
  return best
}

const KIND_RANK: Readonly<Record<MediaKind, number>> = { json: 0, text: 1, binary: 2, any: 3 }

export function kindRank(mediaType: string): number {
  return KIND_RANK[mediaKind(mediaType)]
}
