// A stack version upload as the hub takes it (multipart: `version`, `bundle`, N `files`), built
// by hand once and stitched per request, so each publish can carry its own version cheaply.
import { randomBytes } from 'node:crypto'

const CRLF = '\r\n'

/**
 * A synthetic stack of `fileCount` source files of about `fileBytes` each, a `bundleBytes`
 * server.js and the root `deno.json` naming `@account/slug`. `body(version)` answers the request
 * bytes for one version: the bundle and deno.json always carry the version (a rebuilt bundle is
 * new bytes); with `uniqueFiles` every source file does too, so no blob is shared with an earlier
 * version (otherwise the hub's content-addressed store keeps one copy of the unchanged files).
 */
export function publishUpload({
  account,
  slug,
  bundleBytes = 1024 * 1024,
  fileCount = 200,
  fileBytes = 5 * 1024,
}) {
  const boundary = `----svc-bench-${randomBytes(12).toString('hex')}`
  const name = `@${account}/${slug}`
  const head = (disposition, type) =>
    Buffer.from(
      `--${boundary}${CRLF}Content-Disposition: form-data; ${disposition}${CRLF}` +
        (type ? `Content-Type: ${type}${CRLF}` : '') +
        CRLF,
    )
  const tail = Buffer.from(CRLF)

  const bundleHead = head('name="bundle"; filename="server.js"', 'text/javascript')
  const bundle = Buffer.from(filler(bundleBytes, 'bundle'))
  const files = Array.from({ length: fileCount }, (_, i) => {
    const path = `src/generated/part-${String(Math.floor(i / 20)).padStart(2, '0')}/module-${String(i).padStart(3, '0')}.ts`
    return {
      path,
      head: head(`name="files"; filename="${path}"`, 'application/octet-stream'),
      content: Buffer.from(filler(fileBytes, path)),
    }
  })
  const manifestHead = head('name="files"; filename="deno.json"', 'application/json')
  const closing = Buffer.from(`--${boundary}--${CRLF}`)

  function body(version, { uniqueFiles = false } = {}) {
    const banner = Buffer.from(`// ${name} ${version}\n`)
    const parts = [
      head('name="version"'),
      Buffer.from(version),
      tail,
      bundleHead,
      banner,
      bundle,
      tail,
    ]
    for (const file of files) {
      parts.push(file.head)
      if (uniqueFiles) parts.push(banner)
      parts.push(file.content, tail)
    }
    parts.push(manifestHead, Buffer.from(JSON.stringify({ name, version, imports: {} })), tail)
    parts.push(closing)
    return Buffer.concat(parts)
  }

  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    body,
    fileCount: fileCount + 1,
    bytes: body('1.0.0').byteLength,
  }
}

/** `bytes` of JavaScript-looking text, different per `seed`. */
function filler(bytes, seed) {
  const lines = []
  let size = 0
  for (let i = 0; size < bytes; i++) {
    const line = `export const value_${i} = ${JSON.stringify(`${seed}:${i}:${(i * 2654435761) % 4294967296}`)}\n`
    lines.push(line)
    size += line.length
  }
  return lines.join('').slice(0, bytes)
}
