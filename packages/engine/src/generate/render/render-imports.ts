/** One name that a generated file needs from a module (a package or a relative specifier). */
export interface ImportRequest {
  readonly module: string
  readonly name: string
  readonly typeOnly: boolean
}

/**
 * Merges a file's import requests into import declarations: one per module, packages before
 * relative specifiers, modules and names in code-unit order (never locale order, which varies
 * between machines). A name stays type-only while every request for it is; a module whose names
 * are all type-only gets `import type`. A declaration past 100 columns puts one name a line.
 * @throws Error when one name would come from two modules, or is also declared in the file
 */
export function renderImports(
  exportPath: string,
  requests: Iterable<ImportRequest>,
  declared: ReadonlySet<string>,
): string[] {
  const modules = new Map<string, Map<string, boolean>>()
  const sources = new Map<string, string>()
  const conflict = (what: string) => new Error(`Import conflict in file '${exportPath}': ${what}`)
  for (const { module, name, typeOnly } of requests) {
    if (declared.has(name))
      throw conflict(`'${name}' is declared in the file and imported from '${module}'`)
    const source = sources.get(name)
    if (source !== undefined && source !== module)
      throw conflict(`'${name}' is imported from '${source}' and from '${module}'`)
    sources.set(name, module)
    let names = modules.get(module)
    if (names === undefined) modules.set(module, (names = new Map()))
    names.set(name, (names.get(name) ?? true) && typeOnly)
  }
  const isRelative = (module: string) => module.startsWith('.')
  return [...modules.keys()]
    .sort((a, b) => Number(isRelative(a)) - Number(isRelative(b)) || compareCodeUnits(a, b))
    .map((module) => {
      const names = modules.get(module)!
      const sorted = [...names.keys()].sort(compareCodeUnits)
      const allTypes = sorted.every((name) => names.get(name))
      const list = allTypes
        ? sorted
        : sorted.map((name) => (names.get(name) ? `type ${name}` : name))
      const keyword = `import ${allTypes ? 'type ' : ''}`
      const line = `${keyword}{ ${list.join(', ')} } from '${module}'`
      // Past the width, one name a line, as prettier prints it: adding a name adds a line.
      if (line.length <= WIDTH) return line
      return `${keyword}{\n${list.map((name) => `  ${name},\n`).join('')}} from '${module}'`
    })
}

/** The widest line of generated code, as the repository's prettier configuration. */
const WIDTH = 100

export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
