import { describe, expect, it } from 'vitest'
import type { ApiModel, ObjectSchema } from '../model/index.js'
import { parseApi } from '../parse-api.js'
import { toModelEntry } from './entries.js'
import { generate } from './generate.js'
import { viewName } from './model-names.js'
import { needsWriteView, schemaView } from './views.js'

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })

const text = JSON.stringify({
  openapi: '3.1.0',
  info: { title: 'Accounts', version: '1' },
  paths: {},
  components: {
    schemas: {
      Account: {
        type: 'object',
        required: ['id', 'password', 'name'],
        properties: {
          id: { type: 'string', readOnly: true },
          password: { type: 'string', writeOnly: true },
          name: { type: 'string' },
        },
      },
      Team: { type: 'object', properties: { members: { type: 'array', items: ref('Account') } } },
      Either: { oneOf: [ref('Account'), { type: 'string' }] },
      Admin: {
        allOf: [ref('Account'), { type: 'object', properties: { level: { type: 'integer' } } }],
      },
      Node: {
        type: 'object',
        required: ['children'],
        properties: {
          created: ref('Stamp'),
          children: { type: 'array', items: ref('Node') },
        },
      },
      Stamp: { type: 'string', format: 'date-time', readOnly: true },
      Secret: { type: 'object', properties: { token: { type: 'string', writeOnly: true } } },
      Plain: { type: 'object', properties: { label: { type: 'string' }, secret: ref('Secret') } },
      AccountWritable: { type: 'object', properties: { note: { type: 'string' } } },
    },
  },
})

async function modelOf(): Promise<ApiModel> {
  return (await parseApi({ text })).model
}

describe('needsWriteView', () => {
  it('holds for a model with a readOnly property and every model that reaches one', async () => {
    const model = await modelOf()
    const needing = Object.keys(model.components.schemas).filter((name) =>
      needsWriteView(model, name),
    )
    // Node: its `created` refers to a readOnly schema; Stamp itself has no property.
    expect(needing).toEqual(['Account', 'Team', 'Either', 'Admin', 'Node'])
  })

  it('does not hold for a model whose only marker is an optional writeOnly property', async () => {
    const model = await modelOf()
    expect(needsWriteView(model, 'Secret')).toBe(false)
    expect(needsWriteView(model, 'Plain')).toBe(false)
  })
})

describe('schemaView', () => {
  it('keeps readOnly properties and makes writeOnly ones optional in the read view', async () => {
    const model = await modelOf()
    const read = schemaView(model, model.components.schemas['Account']!, 'read') as ObjectSchema
    expect(Object.keys(read.properties)).toEqual(['id', 'password', 'name'])
    expect(read.required).toEqual(['id', 'name'])
  })

  it('leaves readOnly properties out of the write view and keeps writeOnly ones required', async () => {
    const model = await modelOf()
    const write = schemaView(model, model.components.schemas['Account']!, 'write') as ObjectSchema
    expect(Object.keys(write.properties)).toEqual(['password', 'name'])
    expect(write.required).toEqual(['password', 'name'])
    const node = schemaView(model, model.components.schemas['Node']!, 'write') as ObjectSchema
    expect(Object.keys(node.properties)).toEqual(['children'])
  })

  it('goes into inline schemas, not through refs, and returns what it does not change', async () => {
    const model = await modelOf()
    const inline = {
      kind: 'array',
      nullable: false,
      items: model.components.schemas['Account']!,
    } as const
    const write = schemaView(model, inline, 'write')
    expect(write.kind === 'array' && Object.keys((write.items as ObjectSchema).properties)).toEqual(
      ['password', 'name'],
    )
    const team = model.components.schemas['Team']!
    expect(schemaView(model, team, 'write')).toBe(team)
    const plain = model.components.schemas['Plain']!
    expect(schemaView(model, plain, 'read')).toBe(plain)
  })
})

describe('viewName', () => {
  it('names a write view <name> Writable, with a counter when a schema has that name', async () => {
    const model = await modelOf()
    expect(viewName(model, 'Account', 'read')).toBe('Account')
    expect(viewName(model, 'Account', 'write')).toBe('Account Writable 2')
    expect(viewName(model, 'Team', 'write')).toBe('Team Writable')
    // No write view: the write view is the main model.
    expect(viewName(model, 'Plain', 'write')).toBe('Plain')
  })
})

describe('model generators and views', () => {
  it('make the write view of each model that needs one, referring to write views', async () => {
    const entry = toModelEntry({
      id: '@test/views',
      transform({ context, subject, name, exportPath }) {
        return context.define({
          name,
          kind: 'type',
          exportPath,
          build: () => {
            const refs: string[] = []
            const visit = (value: unknown): void => {
              if (typeof value !== 'object' || value === null) return
              const node = value as { kind?: string; refName?: string }
              if (node.kind === 'ref') {
                refs.push(context.insertModel(entry, node.refName!, subject.view).identifier.name)
              } else Object.values(value).forEach(visit)
            }
            visit(subject.schema)
            const keys =
              subject.schema.kind === 'object' ? Object.keys(subject.schema.properties) : []
            return { code: `export type ${name} = [${[...keys, ...refs].join(', ')}]` }
          },
        })
      },
    })
    const { files } = generate({ parsed: await parseApi({ text }), generators: [entry] })
    const lines = files
      .get('views.ts')!
      .split('\n')
      .filter((line) => line.startsWith('export'))
    expect(lines).toEqual([
      'export type Account = [id, password, name]',
      'export type AccountWritable2 = [password, name]',
      'export type Team = [members, Account]',
      'export type TeamWritable = [members, AccountWritable2]',
      'export type Either = [Account]',
      'export type EitherWritable = [AccountWritable2]',
      'export type Admin = [id, password, name, level]',
      'export type AdminWritable = [password, name, level]',
      'export type Node = [created, children, Stamp, Node]',
      'export type Stamp = []',
      'export type NodeWritable = [children, NodeWritable]',
      'export type Secret = [token]',
      'export type Plain = [label, secret, Secret]',
      'export type AccountWritable = [note]',
    ])
  })
})
