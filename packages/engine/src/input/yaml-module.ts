import type * as Yaml from 'yaml'

/**
 * The yaml parser is loaded on first need: most large descriptions are JSON, and loading it
 * costs more than parsing a small document.
 */
let loaded: typeof Yaml | undefined

export async function loadYaml(): Promise<typeof Yaml> {
  loaded ??= await import('yaml')
  return loaded
}

export function yamlModule(): typeof Yaml {
  if (!loaded) throw new Error('The YAML parser was not loaded; call loadYaml() first.')
  return loaded
}

export function yamlLoaded(): boolean {
  return loaded !== undefined
}
