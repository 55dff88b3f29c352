import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

const ROOT = new URL('../../../', import.meta.url)
const EXAMPLES = 'packages/webhooks/test/examples/'
const docs = readFileSync(new URL('docs/webhooks.md', ROOT), 'utf8')

/** Each `<!-- example: <path> -->` marker and the fenced block right after it. */
function markedBlocks(): Map<string, string> {
  const blocks = new Map<string, string>()
  const marker = /<!-- example: (\S+) -->\n+```ts\n([\s\S]*?)\n```\n/g
  for (const [, path, code] of docs.matchAll(marker)) blocks.set(path!, code!)
  return blocks
}

describe('docs/webhooks.md', () => {
  const examples = readdirSync(new URL(EXAMPLES, ROOT)).filter((file) => file.endsWith('.ts'))

  it('shows every example file, and a receiver on node:http, Hono and Express', () => {
    expect(examples.sort()).toEqual(['express.ts', 'hono.ts', 'node-http.ts'])
    expect([...markedBlocks().keys()].sort()).toEqual(examples.map((file) => EXAMPLES + file))
  })

  for (const file of examples) {
    it(`shows ${file} exactly as tested`, () => {
      const code = readFileSync(new URL(EXAMPLES + file, ROOT), 'utf8')
      expect(markedBlocks().get(EXAMPLES + file)).toBe(code.trimEnd())
    })
  }

  it('ends with the section that points at the management API', () => {
    expect(docs.trimEnd().endsWith('## Managing webhooks\n\nSee docs/api/webhooks.md.')).toBe(true)
  })
})
