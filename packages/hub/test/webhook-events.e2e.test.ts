import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  ACCEPTANCE_EVENT,
  REVISION_EVENT,
  SIGNATURE_HEADER,
  TEST_EVENT,
  verifyWebhook,
} from '@svc/webhooks'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createProject, typecheckFolder } from '../../cli/test/support/app-root.js'
import { oasYaml } from './support/documents.js'
import { seedPeople, seedTokens } from './support/fixtures.js'
import { startHub, type HubProcess } from './support/hub-process.js'
import { call } from './support/http.js'
import { startReceiver, type Received, type Receiver } from './support/receiver.js'

const PUBLIC_URL = 'https://hub.example.com'
const MEDIA_TYPE = 'application/cloudevents+json'

/** Every schema object of `value` (the document, or part of it) with its JSON path. */
function* schemasIn(value: unknown, path = '$'): Generator<[string, Record<string, any>]> {
  if (typeof value !== 'object' || value === null) return
  const node = value as Record<string, any>
  if (typeof node.type === 'string' || Array.isArray(node.type)) yield [path, node]
  for (const [key, child] of Object.entries(node)) yield* schemasIn(child, `${path}.${key}`)
}
const typesOf = (schema: Record<string, any>): string[] => [schema.type].flat()

/**
 * `/v1/openapi.json` describes the events the hub sends under OpenAPI 3.1 `webhooks`, with the
 * schemas the dispatcher builds them through: what a real hub delivers validates against what it
 * publishes, and `svc generate` turns the document into receiver types that compile.
 */
describe('the events the hub describes', () => {
  let hub: HubProcess
  let receiver: Receiver
  let doc: Record<string, any>
  let token: string
  let secret: string
  const api = 'acme/events'

  beforeAll(async () => {
    receiver = await startReceiver()
    hub = await startHub('sqlite', {
      env: {
        SVC_HUB_ALLOW_PRIVATE_NETWORKS: receiver.origin,
        SVC_HUB_PUBLIC_URL: PUBLIC_URL,
      },
    })
    const people = await seedPeople(hub)
    token = (await seedTokens(hub, { alice: ['alice', 'admin:webhooks,write:apis'] })).alice
    const reply = await call(`${hub.url}/v1/openapi.json`)
    expect(reply.status).toBe(200)
    doc = reply.body
    const created = await call(`${hub.url}/v1/apis`, {
      method: 'POST',
      token: people.alice,
      json: { owner: 'acme', slug: 'events', name: 'Events', visibility: 'public' },
    })
    expect(created.status, created.text).toBe(201)
    expect((await push(['get /pets'])).status).toBe(201)
    const hook = await call(`${hub.url}/v1/apis/${api}/webhooks`, {
      method: 'POST',
      token,
      json: { url: `${receiver.origin}/hook` },
    })
    expect(hook.status, hook.text).toBe(201)
    secret = hook.body.secret
  })
  afterAll(async () => {
    await hub?.dispose()
    await receiver?.close()
  })

  const push = (operations: string[]) =>
    call(`${hub.url}/v1/apis/${api}/revisions`, {
      method: 'POST',
      token,
      headers: { 'content-type': 'application/yaml' },
      body: oasYaml(operations, 'Pets'),
    })

  /** The schema the `webhooks` entry of `type` publishes for the request body, compiled. */
  function publishedValidator(type: string) {
    const ajv = new Ajv2020({ strict: false, allErrors: true })
    addFormats.default(ajv)
    ajv.addSchema(doc, 'hub.json')
    const { $ref } = doc.webhooks[type].post.requestBody.content[MEDIA_TYPE].schema
    return ajv.getSchema(`hub.json${$ref}`)!
  }

  it('has a webhooks entry per event type: the CloudEvent body, the signature header, the answers', () => {
    expect(Object.keys(doc.webhooks).sort()).toEqual(
      [REVISION_EVENT, ACCEPTANCE_EVENT, TEST_EVENT].sort(),
    )
    for (const [type, component] of [
      [REVISION_EVENT, 'RevisionEvent'],
      [ACCEPTANCE_EVENT, 'AcceptanceEvent'],
      [TEST_EVENT, 'TestEvent'],
    ] as const) {
      const post = doc.webhooks[type].post
      expect(post.requestBody).toEqual({
        required: true,
        content: { [MEDIA_TYPE]: { schema: { $ref: `#/components/schemas/${component}` } } },
      })
      expect(post.parameters).toContainEqual(
        expect.objectContaining({ in: 'header', name: SIGNATURE_HEADER, required: true }),
      )
      expect(Object.keys(post.responses).sort()).toEqual(
        ['2XX', '307', '308', '408', '429', '5XX', 'default'].sort(),
      )
      expect(post.responses['2XX'].description).toMatch(/^Delivered/)
      expect(post.responses['5XX'].description).toMatch(/Retried .* 24 hours/)
      expect(post.responses.default.description).toMatch(/fails at once/)

      const envelope = doc.components.schemas[component]
      expect(envelope.required).toEqual([
        'specversion',
        'id',
        'source',
        'subject',
        'time',
        'datacontenttype',
        'type',
        'data',
      ])
      expect(envelope.properties.type).toEqual({ type: 'string', enum: [type] })
      expect(envelope.properties.time).toMatchObject({ type: 'string', format: 'date-time' })
    }
    const data = doc.components.schemas.RevisionEventData
    expect(data.properties.counts).toEqual({ $ref: '#/components/schemas/ChangeSeverity' })
    expect(data.properties.revision).toEqual({ $ref: '#/components/schemas/WebhookEventRevision' })
  })

  it('gives every integer a format: int32 for counts, int64 for the rest', () => {
    const count = { type: 'integer', format: 'int32', minimum: 0 }
    const { ChangeDelta, ChangeSeverity } = doc.components.schemas
    expect(ChangeSeverity.properties).toEqual({ breaking: count, warning: count, info: count })
    expect(ChangeDelta.properties).toEqual({ added: count, deleted: count, modified: count })
    expect(doc.components.schemas.Revision.properties.size).toMatchObject({
      type: 'integer',
      format: 'int64',
    })
    const integers = [...schemasIn(doc)].filter(([, s]) => typesOf(s).includes('integer'))
    expect(integers.length).toBeGreaterThan(30)
    for (const [path, schema] of integers) {
      expect(['int32', 'int64'], path).toContain(schema.format)
    }
    // A `number` with an integer format would be z.int32() written as a float.
    for (const [path, schema] of schemasIn(doc)) {
      if (typesOf(schema).includes('number')) expect(schema.format, path).toBeUndefined()
    }
  })

  it('delivers revision, acceptance and test events that validate against the schemas it publishes', async () => {
    expect((await push(['get /pets', 'post /pets'])).status).toBe(201)
    const test = await call(`${hub.url}/v1/apis/${api}/webhooks/${await hookId()}/test`, {
      method: 'POST',
      token,
    })
    expect(test.status, test.text).toBe(202)
    await receiver.waitFor(2, 30_000)
    // A breaking revision, accepted: its revision event, then its acceptance event.
    expect((await push(['get /pets'])).status).toBe(201)
    const accepted = await call(`${hub.url}/v1/apis/${api}/revisions/latest/acceptance`, {
      method: 'POST',
      token,
      json: { reason: 'POST /pets is gone on purpose' },
    })
    expect(accepted.status, accepted.text).toBe(201)
    // By type, the later event of a type over the earlier: the breaking revision's.
    const received = await receiver.waitFor(4, 30_000)
    const byType = new Map(
      received.map((request: Received) => {
        const event = verifyWebhook(request.body, request.headers[SIGNATURE_HEADER], secret)
        return [event.type, { request, event: JSON.parse(request.body) }] as const
      }),
    )
    for (const type of [REVISION_EVENT, ACCEPTANCE_EVENT, TEST_EVENT] as const) {
      const { request, event } = byType.get(type)!
      expect(request.headers['content-type']?.split(';')[0]).toBe(MEDIA_TYPE)
      const validate = publishedValidator(type)
      expect(validate(event), JSON.stringify(validate.errors)).toBe(true)
    }
    expect(byType.get(REVISION_EVENT)!.event.data.counts).toEqual({
      breaking: 1,
      warning: 0,
      info: 0,
    })
    expect(byType.get(ACCEPTANCE_EVENT)!.event.data.acceptance).toEqual(accepted.body.acceptance)
    // The published schema is not vacuous: a count that is not an integer is refused.
    const wrong = structuredClone(byType.get(REVISION_EVENT)!.event)
    wrong.data.counts.info = 1.5
    expect(publishedValidator(REVISION_EVENT)(wrong)).toBe(false)
  })

  async function hookId(): Promise<string> {
    const list = await call(`${hub.url}/v1/apis/${api}/webhooks`, { token })
    return list.body.webhooks[0].id
  }

  it('svc generate turns the document into types and zod schemas a strict receiver compiles with', async () => {
    const root = await createProject(['gen-typescript', 'gen-zod'])
    writeFileSync(join(root.dir, 'hub.json'), JSON.stringify(doc))
    const run = await root.svc(['generate', 'demo', 'hub.json'])
    expect(run.code, run.stderr).toBe(0)
    const folder = join(root.dir, 'generated/demo')
    writeFileSync(
      join(folder, 'receiver.ts'),
      [
        "import type { RevisionEvent, TestEvent } from './types.js'",
        "import { revisionEventSchema, testEventSchema } from './zod.js'",
        '',
        'export type HubEvent = RevisionEvent | TestEvent',
        '',
        '/** What a receiver does with a verified body. */',
        'export function receive(body: string): string {',
        '  const raw: unknown = JSON.parse(body)',
        '  const event: HubEvent =',
        "    (raw as { type?: unknown }).type === 'dev.svc.api.revision.v1'",
        '      ? revisionEventSchema.parse(raw)',
        '      : testEventSchema.parse(raw)',
        "  if (event.type === 'dev.svc.api.test.v1') return event.data.message",
        '  const breaking: number = event.data.counts.breaking',
        '  const modified = Object.values(event.data.summary.details).map((d) => d.modified)',
        '  // @ts-expect-error a count is a number',
        '  const wrong: string = event.data.counts.info',
        '  return `${event.subject}: ${breaking} breaking, ${modified.length} ${wrong}`',
        '}',
        '',
      ].join('\n'),
    )
    expect(typecheckFolder(folder)).toEqual({ status: 0, output: '' })
  })
})
