// The alias-expansion bomb of issue 36: one anchored schema of many properties and many aliases
// of it, under the 1,000-alias limit. 3,000 properties and 990 aliases make 173 KB of YAML whose
// expanded tree has ~18 million nodes.

/** A YAML OpenAPI document: `properties` properties in one anchored schema, `aliases` aliases. */
export function aliasBomb({ properties = 3000, aliases = 990, title = 'bomb' } = {}) {
  const lines = [
    'openapi: 3.0.3',
    `info: { title: ${title}, version: "1" }`,
    'paths: {}',
    'components:',
    '  schemas:',
    '    Big: &big',
    '      type: object',
    '      properties:',
  ]
  for (let i = 0; i < properties; i++) {
    lines.push(`        field_${String(i).padStart(5, '0')}: { type: string, maxLength: 64 }`)
  }
  for (let i = 0; i < aliases; i++) lines.push(`    Copy${i}: *big`)
  return lines.join('\n') + '\n'
}
