/**
 * The TypeScript type of a scalar's value in variables and results. A custom scalar's
 * serialization is up to the server (a date may be a string, a number or an object), so its
 * type is `unknown`.
 *
 * | GraphQL        | TypeScript |
 * | -------------- | ---------- |
 * | `ID`, `String` | `string`   |
 * | `Int`, `Float` | `number`   |
 * | `Boolean`      | `boolean`  |
 * | custom scalars | `unknown`  |
 */
export const SCALAR_TYPES: Readonly<Record<string, string>> = {
  ID: 'string',
  String: 'string',
  Int: 'number',
  Float: 'number',
  Boolean: 'boolean',
}

export function scalarType(name: string): string {
  return Object.hasOwn(SCALAR_TYPES, name) ? SCALAR_TYPES[name]! : 'unknown'
}
