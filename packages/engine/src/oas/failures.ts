/** Thrown while parsing to fail the enclosing isolation unit; `at` is where inside it things went wrong. */
export class ParseFailure extends Error {
  override readonly name = 'ParseFailure'
  constructor(
    message: string,
    readonly at?: readonly string[],
  ) {
    super(message)
  }
}

/** Thrown when an `allOf` merge needs a component that cannot be used; logged as INVALID_DEPENDENCY_REF. */
export class DependencyFailure extends Error {
  override readonly name = 'DependencyFailure'
  constructor(
    readonly ref: string,
    readonly reason: string,
    readonly at: readonly string[],
  ) {
    super(reason)
  }
}

/** An `allOf` that reaches itself; every component on the cycle is INVALID_SCHEMA. */
export class AllOfCycleFailure extends ParseFailure {
  constructor(readonly cycle: readonly string[]) {
    super(`Cyclic allOf: ${cycle.join(' -> ')}`)
  }
}
