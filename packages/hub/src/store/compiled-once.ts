import type { CompiledQuery, Compilable, Kysely } from 'kysely'
import type { Database } from './schema.js'

/** Stands for the i-th argument while the query is built; no real value looks like it. */
const placeholder = (i: number) => `\u0000svc-argument-${i}\u0000`

/**
 * A query that Kysely builds and compiles once: `build` runs with placeholders for its string
 * arguments, and every call sends the same SQL with the real values in their places. Building
 * and compiling on every call was a tenth of the hub's time on its hottest read
 * (docs/benchmarks.md). The arguments must only ever be values, never change the SQL's shape.
 * `db` is asked at each call, so a repository's field can hold the query.
 *
 * @example
 * const byHandle = compiledOnce(() => db, (handle: string) => db.selectFrom('accounts').selectAll().where('handle', '=', handle))
 * const rows = await byHandle('acme')
 */
export function compiledOnce<A extends string[], R>(
  db: () => Kysely<Database>,
  build: (...args: A) => Compilable<R>,
): (...args: A) => Promise<R[]> {
  let compiled: CompiledQuery<R> | undefined
  let slots: (number | undefined)[] = []
  return async (...args: A): Promise<R[]> => {
    if (!compiled) {
      const placeholders = args.map((_, i) => placeholder(i)) as A
      compiled = build(...placeholders).compile()
      slots = compiled.parameters.map((value) => {
        const i = placeholders.indexOf(value as string)
        return i < 0 ? undefined : i
      })
    }
    const parameters = compiled.parameters.map((value, i) => {
      const slot = slots[i]
      return slot === undefined ? value : args[slot]
    })
    const result = await db().executeQuery<R>({ ...compiled, parameters })
    return result.rows
  }
}
