/** A small client for the hub's API over real HTTP (fetch), with the PAT as a Bearer token. */
export type Reply = { status: number; headers: Headers; body: any; text: string }

export async function call(
  url: string,
  init: RequestInit & { token?: string | undefined; json?: unknown } = {},
): Promise<Reply> {
  const headers = new Headers(init.headers)
  if (init.token) headers.set('authorization', `Bearer ${init.token}`)
  let body = init.body
  if (init.json !== undefined) {
    headers.set('content-type', 'application/json')
    body = JSON.stringify(init.json)
  }
  const response = await fetch(url, { ...init, headers, body })
  const text = await response.text()
  let parsed: unknown = undefined
  try {
    parsed = text ? JSON.parse(text) : undefined
  } catch {
    parsed = undefined
  }
  return { status: response.status, headers: response.headers, body: parsed, text }
}

export type UploadFile = { path: string; content: string | Uint8Array }

/** A publish form: `version`, `bundle` and one `files` part per file, in this order unless told. */
export function publishForm(parts: {
  version?: string | undefined
  bundle?: string | Uint8Array | undefined
  files?: readonly UploadFile[]
}): FormData {
  const form = new FormData()
  if (parts.version !== undefined) form.append('version', parts.version)
  if (parts.bundle !== undefined)
    form.append('bundle', new Blob([blobPart(parts.bundle)]), 'server.js')
  for (const file of parts.files ?? [])
    form.append('files', new Blob([blobPart(file.content)]), file.path)
  return form
}

/** A root manifest `deno.json` for `@account/slug`. */
export function manifest(
  name: string,
  imports: Record<string, string> = {},
  version = '1.0.0',
): UploadFile {
  return { path: 'deno.json', content: JSON.stringify({ name, version, imports }) }
}

function blobPart(content: string | Uint8Array): string | Buffer {
  return typeof content === 'string' ? content : Buffer.from(content)
}
