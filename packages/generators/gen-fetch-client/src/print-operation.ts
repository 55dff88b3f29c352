import type { ApiModel, HttpOperation } from '@svc/engine'
import type { NameModel } from '@svc/gen-typescript'
import { printMembers, type ArgumentMember } from './arguments.js'
import { absoluteUrl } from './base-url.js'
import { printBody } from './print-body.js'
import { printParameters } from './print-parameters.js'
import type { NameData } from './named-types.js'
import { printMember, printResponses, type ResultMember } from './print-responses.js'
import { quote } from './quote.js'
import { printSecurity } from './security.js'

export type OperationInput = {
  readonly model: ApiModel
  readonly operation: HttpOperation
  /** The function's name. */
  readonly name: string
  /** Names a model's TypeScript type and records the dependency. */
  readonly nameModel: NameModel
  /** Names the types of the body and the responses, and their schemas when validated. */
  readonly nameData: NameData
}

/** The function of one operation: typed arguments in, a typed result out, `sendRequest` between. */
export function printOperation(input: OperationInput): string {
  const { model, operation, name, nameModel, nameData } = input
  const parameters = printParameters(model, operation, nameModel)
  const body = printBody(model, operation, nameModel, nameData)
  const responses = printResponses(model, operation, nameModel, nameData)
  const members = body === undefined ? parameters.members : [...parameters.members, body.member]
  const server = absoluteUrl(operation.servers?.[0])
  const security = printSecurity(model, operation)
  const descriptor = [
    `method: ${quote(operation.method.toUpperCase())}`,
    `path: ${quote(operation.path)}`,
    ...(server === undefined ? [] : [`server: ${quote(server)}`]),
    ...(parameters.styles === undefined ? [] : [`styles: ${parameters.styles}`]),
    ...(body === undefined ? [] : [`body: ${quote(body.encoding)}`]),
    ...(body?.contentType === undefined ? [] : [`contentType: ${quote(body.contentType)}`]),
    ...(body?.styles === undefined ? [] : [printObject('encoding', body.styles)]),
    ...(body?.schema === undefined ? [] : [`validateBody: ${body.schema}`]),
    ...(responses.accept === undefined ? [] : [`accept: ${quote(responses.accept)}`]),
    ...(responses.validate === undefined ? [] : [printObject('validate', responses.validate)]),
    ...(responses.headers === undefined ? [] : [printObject('headers', responses.headers)]),
    ...(security === undefined ? [] : [`security: ${security}`]),
  ]
  return `${printDoc(operation)}export function ${name}(
${printArgs(members)}
  options?: RequestOptions,
${printResult(responses.members)}
${printCall(descriptor)}
}`
}

const WIDTH = 100

/** The line when it fits (and is one line), else the text broken over several lines. */
function layout(line: string, broken: () => string): string {
  return line.length <= WIDTH && !line.includes('\n') ? line : broken()
}

/** A field of the descriptor whose value is an object, one entry a line when it is long. */
function printObject(name: string, entries: readonly string[]): string {
  const field = `${name}: { ${entries.join(', ')} }`
  if (`      ${field},`.length <= WIDTH) return field
  return `${name}: {\n${entries.map((entry) => `        ${entry},\n`).join('')}      }`
}

function printArgs(members: readonly ArgumentMember[]): string {
  const required = members.some((member) => member.required)
  const head = `  args${required ? '' : '?'}: `
  if (members.length === 0) return `${head}Record<string, never>,`
  return layout(`${head}${printMembers(members)},`, () => `${head}${printMembers(members, '  ')},`)
}

function printResult(members: readonly ResultMember[]): string {
  const line = (member: ResultMember) => `  | ${printMember(member)}\n`
  return layout(
    `): Promise<${members.map((member) => printMember(member)).join(' | ')}> {`,
    () =>
      `): Promise<\n${members
        .map(
          (member) =>
            layout(line(member).trimEnd(), () => `  | ${printMember(member, '      ')}`) + '\n',
        )
        .join('')}> {`,
  )
}

function printCall(descriptor: readonly string[]): string {
  return layout(`  return sendRequest({ ${descriptor.join(', ')} }, args, options)`, () => {
    const object = layout(`    { ${descriptor.join(', ')} },`, () => {
      const fields = descriptor.map((field) => `      ${field},\n`).join('')
      return `    {\n${fields}    },`
    })
    return `  return sendRequest(\n${object}\n    args,\n    options,\n  )`
  })
}

/** The summary as a doc comment, and whether the operation is deprecated. */
function printDoc(operation: HttpOperation): string {
  const lines = [
    ...(operation.summary === undefined ? [] : [oneLine(operation.summary)]),
    ...(operation.deprecated ? ['@deprecated'] : []),
  ].filter((line) => line !== '')
  if (lines.length === 0) return ''
  if (lines.length === 1) return `/** ${lines[0]} */\n`
  return `/**\n${lines.map((line) => ` * ${line}`).join('\n')}\n */\n`
}

/** Text that cannot end the comment it is written in, on one line. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim().replace(/\*\//g, '*\\/')
}
