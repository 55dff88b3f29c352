import type { Changelog } from '@svc/engine'
import { describe, expect, it } from 'vitest'
import { plain, type Colors } from '../../output.js'
import { changelogLines } from './render.js'

/** Marks every colour call, to see what is painted how. */
const tagged: Colors = {
  bold: (t) => `<b>${t}</b>`,
  dim: (t) => `<dim>${t}</dim>`,
  red: (t) => `<red>${t}</red>`,
  yellow: (t) => `<yellow>${t}</yellow>`,
  cyan: (t) => `<cyan>${t}</cyan>`,
  green: (t) => `<green>${t}</green>`,
}

const LOG = {
  summary: {
    diff: true,
    details: {
      operations: { added: 0, deleted: 1, modified: 2 },
      schemas: { added: 1, deleted: 0, modified: 1 },
    },
  },
  counts: { breaking: 2, warning: 1, info: 2 },
  changes: [
    {
      id: 'endpoint-removed',
      level: 'breaking',
      message: 'The operation DELETE /pets/{id} was removed.',
      location: '/paths/~1pets~1{id}/delete',
      path: 'DELETE /pets/{id}',
      operation: 'DELETE /pets/{id}',
    },
    {
      id: 'response-body-required-property-removed',
      level: 'breaking',
      message: 'Response 200 `owner.email`: the required property was removed.',
      location:
        '/paths/~1pets/get/responses/200/content/application~1json/schema/properties/owner/properties/email',
      path: 'GET /pets › response 200 › body.owner.email',
      operation: 'GET /pets',
    },
    {
      id: 'endpoint-deprecated',
      level: 'warning',
      message: 'The operation was deprecated.',
      location: '/paths/~1pets/get',
      path: 'GET /pets',
      operation: 'GET /pets',
    },
    {
      id: 'response-body-property-added',
      level: 'info',
      message: 'Response body, schema `Pet` `age`: the optional property was added.',
      location: '/components/schemas/Pet/properties/age',
      path: 'components › schemas › Pet › age',
      operations: ['GET /a', 'GET /b', 'GET /c', 'GET /d', 'GET /e'],
    },
    {
      id: 'schema-added',
      level: 'info',
      message: 'The schema `Owner` was added.',
      location: '/components/schemas/Owner',
      path: 'components › schemas › Owner',
    },
  ],
} as const satisfies Changelog

describe('changelogLines', () => {
  it('headline, sections, then the changes by endpoint, then by component, each with its path', () => {
    expect(changelogLines(LOG, plain)).toEqual([
      '2 breaking, 1 warning, 2 info changes',
      'operations: +0 −1 ~2',
      'schemas:    +1 −0 ~1',
      '',
      'DELETE /pets/{id}',
      '  breaking  endpoint-removed                         The operation DELETE /pets/{id} was removed.',
      '',
      'GET /pets',
      '  breaking  response-body-required-property-removed  response 200 › body.owner.email  Response 200 `owner.email`: the required property was removed.',
      '  warning   endpoint-deprecated                      The operation was deprecated.',
      '',
      'components › schemas › Owner',
      '  info      schema-added                             The schema `Owner` was added.',
      '',
      'components › schemas › Pet',
      '  info      response-body-property-added             age  Response body, schema `Pet` `age`: the optional property was added.',
      '            5 operations: GET /a, GET /b, GET /c and 2 more',
    ])
  })

  it('reads the path from the location when a hub’s changelog has none', () => {
    const { path: _, ...served } = LOG.changes[1]
    const lines = changelogLines({ ...LOG, changes: [served as never] }, plain)
    expect(lines.slice(-2)).toEqual([
      'GET /pets',
      '  breaking  response-body-required-property-removed  response 200 › body.owner.email  Response 200 `owner.email`: the required property was removed.',
    ])
  })

  it('no changes at all: one line', () => {
    const empty: Changelog = {
      summary: { diff: false, details: {} },
      counts: { breaking: 0, warning: 0, info: 0 },
      changes: [],
    }
    expect(changelogLines(empty, plain)).toEqual(['No changes.'])
  })

  it('singular and plural, a document-wide change, one shared operation', () => {
    const lines = changelogLines(
      {
        summary: { diff: true, details: {} },
        counts: { breaking: 1, warning: 2, info: 1 },
        changes: [
          {
            id: 'api-protocol-changed',
            level: 'breaking',
            message: 'The description changed from OpenAPI to GraphQL.',
            location: '',
            path: '',
          },
          { id: 'endpoint-deprecated', level: 'warning', message: 'a', location: '/a', path: 'a' },
          { id: 'endpoint-deprecated', level: 'warning', message: 'b', location: '/b', path: 'b' },
          {
            id: 'schema-added',
            level: 'info',
            message: 'c',
            location: '/c',
            path: 'c',
            operations: ['GET /c'],
          },
        ],
      },
      plain,
    )
    expect(lines[0]).toBe('1 breaking, 2 warnings, 1 info change')
    expect(lines.slice(-6)).toEqual([
      'Document',
      '  breaking  api-protocol-changed  The description changed from OpenAPI to GraphQL.',
      '  warning   endpoint-deprecated   a  a',
      '  warning   endpoint-deprecated   b  b',
      '  info      schema-added          c  c',
      '            1 operation: GET /c',
    ])
  })

  it('lists documentation changes last, in their own group, apart from the other info', () => {
    const lines = changelogLines(
      {
        summary: {
          diff: true,
          details: {
            documentation: { added: 0, deleted: 0, modified: 1 },
            schemas: { added: 1, deleted: 0, modified: 0 },
          },
        },
        counts: { breaking: 0, warning: 0, info: 2 },
        changes: [
          {
            id: 'operation-description-changed',
            level: 'info',
            message: 'The description of GET /pets changed.',
            location: '/paths/~1pets/get/description',
            path: 'GET /pets › description',
            operation: 'GET /pets',
          },
          {
            id: 'schema-added',
            level: 'info',
            message: 'The schema `Owner` was added.',
            location: '/components/schemas/Owner',
            path: 'components › schemas › Owner',
          },
        ],
      },
      plain,
    )
    expect(lines).toEqual([
      '0 breaking, 0 warnings, 2 info changes',
      'documentation: +0 −0 ~1',
      'schemas:       +1 −0 ~0',
      '',
      'components › schemas › Owner',
      '  info      schema-added                   The schema `Owner` was added.',
      '',
      'Documentation (1)',
      '  info      operation-description-changed  GET /pets › description  The description of GET /pets changed.',
    ])
  })

  it('paints counts, levels and paths; zero counts stay plain', () => {
    const lines = changelogLines(LOG, tagged)
    expect(lines[0]).toBe('<red>2 breaking</red>, <yellow>1 warning</yellow>, 2 info changes')
    expect(lines[1]).toBe('operations: <green>+0</green> <red>−1</red> <yellow>~2</yellow>')
    expect(lines).toContain('<b>GET /pets</b>')
    expect(lines.find((line) => line.includes('response-body-required-property-removed'))).toMatch(
      /^ {2}<red>breaking<\/red> {2}<red>response-body-required-property-removed *<\/red> {2}<cyan>response 200 › body\.owner\.email<\/cyan> {2}Response/,
    )
    expect(lines.find((line) => line.includes('endpoint-deprecated'))).toMatch(
      /^ {2}<yellow>warning <\/yellow> {2}<yellow>endpoint-deprecated/,
    )
    expect(lines).toContain(
      '            <dim>5 operations: GET /a, GET /b, GET /c and 2 more</dim>',
    )
  })

  it('parse errors first, old side then new, each with its location', () => {
    const issue = (location: string, message: string) =>
      ({ protocol: 'oas', type: 'INVALID_OPERATION', level: 'error', message, location }) as const
    const log: Changelog = {
      summary: { diff: true, details: {} },
      counts: { breaking: 1, warning: 1, info: 0 },
      changes: [
        {
          id: 'operation-unparsable',
          level: 'breaking',
          message: 'Operation GET /a no longer parses: x.',
          location: '/paths/~1a/get',
          path: 'GET /a',
          operation: 'GET /a',
        },
        {
          id: 'document-was-unparsable',
          level: 'warning',
          message:
            'The document could not be parsed in the old document, so its changes cannot be judged: y.',
          location: '',
          path: '',
        },
      ],
      issues: { before: [issue('', 'y.')], after: [issue('paths:/a:get', 'x.')] },
    }
    expect(changelogLines(log, plain).slice(0, 5)).toEqual([
      'Parse errors (2); the items they name are changes below:',
      '  old  (document)    y.',
      '  new  paths:/a:get  x.',
      '',
      '1 breaking, 1 warning, 0 info changes',
    ])
    const painted = changelogLines(log, tagged)
    expect(painted[1]).toBe('  <yellow>old</yellow>  <cyan>(document)  </cyan>  y.')
    expect(painted[2]).toBe('  <red>new</red>  <cyan>paths:/a:get</cyan>  x.')
  })

  it('never "No changes." while a side has parse errors', () => {
    const log: Changelog = {
      summary: { diff: false, details: {} },
      counts: { breaking: 0, warning: 0, info: 0 },
      changes: [],
      issues: {
        before: [],
        after: [
          {
            protocol: 'gql',
            type: 'INVALID_TYPE_DEFINITION',
            level: 'error',
            message: 'z.',
            location: 'T',
          },
        ],
      },
    }
    expect(changelogLines(log, plain)).not.toContain('No changes.')
  })
})
