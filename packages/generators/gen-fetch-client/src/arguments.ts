/** One member of a function's argument object: `path`, `query`, `headers`, `cookies` or `body`. */
export type ArgumentMember = {
  readonly key: string
  readonly type: string
  readonly required: boolean
}

/** `{ path: { petId: number }; query?: { tags?: Array<string> } }`; members are never empty. */
export function printMembers(members: readonly ArgumentMember[], indent?: string): string {
  const printed = members.map(
    (member) => `${member.key}${member.required ? '' : '?'}: ${member.type}`,
  )
  if (indent === undefined) return `{ ${printed.join('; ')} }`
  return `{\n${printed.map((member) => `${indent}  ${member}\n`).join('')}${indent}}`
}
