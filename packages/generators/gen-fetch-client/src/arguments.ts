/** One member of a function's argument object: `path`, `query`, `headers`, `cookies` or `body`. */
export type ArgumentMember = {
  readonly key: string
  readonly type: string
  readonly required: boolean
  /** The members of a group (`query`), which break one a line when the group's line is long. */
  readonly members?: readonly ArgumentMember[]
}

/** The widest line, as the repository's prettier configuration. */
const WIDTH = 100

/**
 * `{ path: { petId: number }; query?: { tags?: Array<string> } }`; members are never empty. With
 * an indent, one member a line, and a group whose line would pass 100 columns one of its own
 * members a line in turn.
 */
export function printMembers(members: readonly ArgumentMember[], indent?: string): string {
  const printed = members.map((member) => {
    const head = `${member.key}${member.required ? '' : '?'}: `
    const inner = indent === undefined ? undefined : `${indent}  `
    const long = inner !== undefined && inner.length + head.length + member.type.length > WIDTH
    return long && member.members ? head + printMembers(member.members, inner) : head + member.type
  })
  if (indent === undefined) return `{ ${printed.join('; ')} }`
  return `{\n${printed.map((member) => `${indent}  ${member}\n`).join('')}${indent}}`
}
