/**
 * Thrown when a second generator key claims a name already registered at the same export path:
 * writing both would emit two declarations with one name, and keeping either would hide the other.
 * The message is the one SPEC §7.6 documents.
 */
export class DefinitionMismatchError extends Error {
  override readonly name = 'DefinitionMismatchError'
  readonly identifierName: string
  readonly exportPath: string
  readonly cachedGeneratorKey: string
  readonly newGeneratorKey: string

  constructor(where: {
    identifierName: string
    exportPath: string
    cachedGeneratorKey: string
    newGeneratorKey: string
  }) {
    super(
      `Registered definition mismatch: '${where.identifierName}' in file '${where.exportPath}'. ` +
        `Cached key '${where.cachedGeneratorKey}' does not match new key '${where.newGeneratorKey}'`,
    )
    this.identifierName = where.identifierName
    this.exportPath = where.exportPath
    this.cachedGeneratorKey = where.cachedGeneratorKey
    this.newGeneratorKey = where.newGeneratorKey
  }
}
