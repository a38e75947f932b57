/**
 * A driver adapter factory that counts the rows the database hands back for the statements
 * reading one table, and keeps those statements, whoever sends them (Prisma's query layer, or the compiled engine through a
 * shared adapter): how a test sees what a request reads.
 */

/** What a statement and its answer look like to a driver adapter (`@prisma/driver-adapter-utils`). */
interface Queryable {
  queryRaw(query: { sql: string }): Promise<{ rows: unknown[] }>
}

/** Counts the rows read from a table through a factory. */
export interface RowCount<F> {
  factory: F
  /** The rows read from the table since the last `reset`. */
  read(): number
  /** The statements that read the table since the last `reset`, as sent. */
  statements(): readonly string[]
  reset(): void
}

/** `factory`, counting the rows of each statement that reads `table` (in its `FROM` or a join). */
export function countRows<F extends { connect(): Promise<unknown> }>(
  factory: F,
  table: string
): RowCount<F> {
  const reads = new RegExp(`\\b(?:FROM|JOIN)\\s+(?:[\`"][^\`"]+[\`"]\\.)?[\`"]${table}[\`"]`, 'i')
  let rows = 0
  let statements: string[] = []
  const counted = <Q extends object>(queryable: Q): Q =>
    new Proxy(queryable, {
      get(target, property) {
        const value = Reflect.get(target, property, target)
        if (typeof value !== 'function') return value
        if (property === 'queryRaw')
          return async (query: { sql: string }) => {
            const answer = await (target as unknown as Queryable).queryRaw(query)
            if (reads.test(query.sql)) {
              rows += answer.rows.length
              statements.push(query.sql)
            }
            return answer
          }
        if (property === 'startTransaction')
          return async (...args: unknown[]) => counted(await value.apply(target, args))
        return value.bind(target)
      },
    })
  const wrapped = new Proxy(factory, {
    get(target, property) {
      if (property === 'connect') return async () => counted((await target.connect()) as object)
      const value = Reflect.get(target, property, target)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
  return {
    factory: wrapped,
    read: () => rows,
    statements: () => statements,
    reset() {
      rows = 0
      statements = []
    },
  }
}
