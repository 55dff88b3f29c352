import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parseApi } from '@svc/engine'
import { generate, type GenerateSettings } from '@svc/engine/generate'
import ts from 'typescript'
import { generators } from './index.js'

export type Seen = { method: string; url: string; headers: IncomingHttpHeaders; body: string }
export type Reply = {
  status: number
  type?: string
  body?: string
  headers?: Readonly<Record<string, string>>
}
export type Result = { status: number; data: unknown; response: Response }
export type Client = Record<string, (args?: unknown, options?: object) => unknown>

// Inside the workspace, so that the generated files resolve its zod.
const scratch = fileURLToPath(
  new URL('../../../../node_modules/.cache/svc-gen-fetch-client/', import.meta.url),
)
/** The folders this test file made: test files share `scratch` and may run at the same time. */
const folders: string[] = []

/** Generates a client, transpiles its files to JavaScript in a new folder and imports it. */
export async function loadClient(text: string, settings: GenerateSettings = {}): Promise<Client> {
  const parsed = await parseApi({ text })
  const { files } = generate({ parsed, generators, settings, importExtension: '.js' })
  mkdirSync(scratch, { recursive: true })
  const folder = mkdtempSync(scratch)
  folders.push(folder)
  writeFileSync(join(folder, 'package.json'), '{ "type": "module" }')
  for (const [path, content] of files) {
    const { outputText } = ts.transpileModule(content, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    })
    writeFileSync(join(folder, path.replace(/\.ts$/, '.js')), outputText)
  }
  return import(pathToFileURL(join(folder, 'client.js')).href)
}

export function removeScratch(): void {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true })
}

/** A loopback server that records each request and answers with the next queued reply. */
export type Loopback = {
  readonly seen: Seen[]
  readonly replies: Reply[]
  readonly baseUrl: string
  last(): Seen
  close(): Promise<void>
}

export async function startLoopback(): Promise<Loopback> {
  const seen: Seen[] = []
  const replies: Reply[] = []
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const { method = '', url = '', headers } = request
      seen.push({ method, url, headers, body: Buffer.concat(chunks).toString('utf8') })
      const reply = replies.shift() ?? { status: 500 }
      const type = reply.type ? { 'content-type': reply.type } : {}
      response.writeHead(reply.status, { ...type, ...reply.headers })
      response.end(reply.body)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    seen,
    replies,
    baseUrl,
    last: () => seen.at(-1)!,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}
