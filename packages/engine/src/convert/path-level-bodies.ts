/** The operations of a Swagger 2.0 path item. */
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'] as const

type Parameter = Record<string, unknown>

/**
 * Moves the `body` and `formData` parameters a Swagger 2.0 path item declares for all its
 * operations into each operation, as the 2.0 rules apply them (an operation's own parameter of
 * the same name and location wins; an operation with a body of its own takes no form fields, and
 * one with form fields takes no body), and off the path item. swagger2openapi turns only an
 * operation's own body and form parameters into a request body: left at the path level they
 * vanished from the converted document, so `svc check` said nothing of them and a change to them
 * was "No changes." (OpenAPI.NET fixed the same bug the same way.) Mutates `document`, a copy.
 */
export function hoistPathLevelBodies(document: Record<string, unknown>): void {
  const paths = document.paths
  if (!isObject(paths)) return
  const shared = isObject(document.parameters) ? document.parameters : {}
  for (const item of Object.values(paths)) {
    if (!isObject(item) || !Array.isArray(item.parameters)) continue
    const bodies = item.parameters.filter((parameter) =>
      isBodyOrForm(resolved(parameter, shared)),
    ) as Parameter[]
    if (bodies.length === 0) continue
    item.parameters = item.parameters.filter(
      (parameter) => !bodies.includes(parameter as Parameter),
    )
    for (const method of METHODS) {
      const operation = item[method]
      if (!isObject(operation)) continue
      const own = Array.isArray(operation.parameters) ? operation.parameters : []
      const ownKinds = own.map((parameter) => resolved(parameter, shared))
      const hasBody = ownKinds.some((parameter) => parameter?.in === 'body')
      const hasForm = ownKinds.some((parameter) => parameter?.in === 'formData')
      const inherited = bodies.filter((parameter) => {
        const kind = resolved(parameter, shared)!
        if (kind.in === 'body') return !hasBody && !hasForm
        if (hasBody) return false
        return !ownKinds.some((mine) => mine?.in === 'formData' && mine.name === kind.name)
      })
      // A copy each: swagger2openapi takes one object in two places for a YAML alias and stops.
      if (inherited.length > 0)
        operation.parameters = [...own, ...inherited.map((parameter) => structuredClone(parameter))]
    }
  }
}

/** A parameter, or the one of `#/parameters/<name>` it refers to; undefined when unknown. */
function resolved(parameter: unknown, shared: Record<string, unknown>): Parameter | undefined {
  if (!isObject(parameter)) return undefined
  const ref = parameter.$ref
  if (typeof ref !== 'string') return parameter
  const match = /^#\/parameters\/(.+)$/.exec(ref)
  const name = match?.[1]?.replace(/~1/g, '/').replace(/~0/g, '~')
  const target = name === undefined ? undefined : shared[name]
  return isObject(target) ? target : undefined
}

function isBodyOrForm(parameter: Parameter | undefined): boolean {
  return parameter?.in === 'body' || parameter?.in === 'formData'
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
