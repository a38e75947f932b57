/**
 * @module
 * A SqlRunner (compiled/sql-runner.ts) over a Prisma 8 client: the `compiled` engine's statements run
 * through the client's own runtime, so the app's Prisma 8 middleware (`beforeQuery`,
 * `afterQuery`), its pool and its telemetry see them as they see the client's own queries.
 *
 * Each statement is a plan of the client's raw lane (`db.raw.sql`, statement-template.ts) run by
 * its runtime (`db.runtime().query(plan)`, or the transaction's `tx.query(plan)`). The plan is
 * terminated by `.affectedCount()`, which declares no row spec: the runtime then decodes nothing
 * and streams each row as the driver read it. A row spec (`.returnsRow({ name: codecId })`) would
 * need the columns' names and codecs, which a compiled statement does not carry.
 *
 * The rows are node-postgres's objects read with Prisma 8's type parsers, the values those
 * `@prisma/adapter-pg` gives under Prisma 7 but for three: JSON comes parsed (the runner is
 * `typed`, as row-values.ts reads the client's raw query), timestamps and times come as the server's text
 * (which the compiled engine reads by a DateTime field's type, compiled/server-timestamp.ts), and arrays as the server's text (`{a,b}`; the compiled
 * engine reads no list field).
 */
import { inSpan, loadedTracer } from '../../observe/tracing.js'
import type { ArgType, SqlQuery } from '../compiled/query.js'
import type { SqlRunner } from '../compiled/sql-runner.js'
import { type RawValue, statementTemplate } from './statement-template.js'

/** A plan of the raw lane, as the runtime runs it (Prisma 8's `SqlQueryPlan`). */
type Plan = object

/** What runs plans: the client's runtime (`Runtime`) or a transaction (`TransactionContext`). */
export interface Prisma8Queryable {
  /** The rows of a plan, after the middleware's `beforeQuery` (an `AsyncIterableResult`). */
  query(plan: Plan): AsyncIterable<unknown>
  /** A statement whose rows are not read, after the middleware's `beforeExecute`. */
  execute(plan: Plan): Promise<unknown>
}

/**
 * What the runner calls of a Prisma 8 client: `postgres<Contract>({ contractJson, url, middleware
 * })` of `@prisma/orm-postgres/runtime` (its `PostgresClient`), typed here by what is called so
 * that the runtime does not depend on Prisma 8's packages.
 */
export interface Prisma8Client {
  /** The raw lane (`RawLane`): its `sql` tag makes a plan of a statement. */
  readonly raw: {
    /** A statement of SQL text and values: a builder of its plan. */
    readonly sql: (
      strings: TemplateStringsArray,
      ...values: RawValue[]
    ) => {
      /** The plan of a statement whose rows are not decoded. */
      affectedCount(): {
        /** The plan. */
        build(): Plan
      }
    }
  }
  /** The client's runtime, made (and its pool connected) on the first call. */
  runtime(): Prisma8Queryable
  /**
   * `fn` on one connection of the pool, between the driver's `BEGIN` and `COMMIT`; `ROLLBACK` and
   * the error when it throws.
   */
  transaction<R>(fn: (tx: Prisma8Queryable) => PromiseLike<R>): Promise<R>
}

/** PostgreSQL's isolation level of each of Prisma's names. */
const ISOLATION: Readonly<Record<string, string>> = {
  ReadUncommitted: 'READ UNCOMMITTED',
  ReadCommitted: 'READ COMMITTED',
  RepeatableRead: 'REPEATABLE READ',
  Serializable: 'SERIALIZABLE',
}

/**
 * A runner over the Prisma 8 client `db`. Its statements are traced here (`hydra.sql`, unless
 * `tracing` is false): Prisma 8 starts no span of its own.
 */
export function prisma8Runner(db: Prisma8Client, tracing?: boolean | undefined): Prisma8Runner {
  const plan = (query: SqlQuery) => {
    const [strings, values] = statementTemplate(query)
    return db.raw
      .sql(strings, ...values)
      .affectedCount()
      .build()
  }
  const run = (queryable: Prisma8Queryable, query: SqlQuery) =>
    inSpan(
      loadedTracer(tracing),
      'hydra.sql',
      { 'db.system.name': 'postgresql', 'db.query.text': query.sql },
      async () => {
        const rows: unknown[][] = []
        for await (const row of queryable.query(plan(query))) rows.push(valuesOf(row))
        return rows
      }
    )
  const each = async (queryable: Prisma8Queryable, queries: readonly SqlQuery[]) => {
    // One statement after another's answer: a connection runs one at a time.
    const results: unknown[][][] = []
    for (const query of queries) results.push(await run(queryable, query))
    return results
  }
  /** `fn` in one transaction at `isolationLevel`, given the transaction. */
  const inTransaction = <T>(isolationLevel: string, fn: (tx: Prisma8Queryable) => Promise<T>) => {
    const level = ISOLATION[isolationLevel]
    if (level === undefined)
      return Promise.reject(new Error(`Unknown isolation level ${isolationLevel}.`))
    // The first statement of the transaction: PostgreSQL takes its snapshot at the first read
    // after it.
    return db.transaction(async (tx) => {
      await tx.execute(plan(statement(`SET TRANSACTION ISOLATION LEVEL ${level}`)))
      return fn(tx)
    })
  }
  return {
    typed: true,
    rows: (query) => run(db.runtime(), query),
    snapshot: (queries, isolationLevel) => inTransaction(isolationLevel, (tx) => each(tx, queries)),
    within: (isolationLevel, fn) =>
      inTransaction(isolationLevel, (tx) =>
        fn({
          typed: true,
          rows: (query) => run(tx, query),
          // Already one transaction: its statements share its snapshot.
          snapshot: (queries) => each(tx, queries),
        })
      ),
  }
}

/** A runner over a Prisma 8 client, which also runs reads in one transaction of its own. */
export interface Prisma8Runner extends SqlRunner {
  /** `fn` given a runner whose statements run in one transaction at `isolationLevel`. */
  within<T>(isolationLevel: string, fn: (runner: SqlRunner) => Promise<T>): Promise<T>
}

const statement = (sql: string): SqlQuery => ({ sql, args: [], argTypes: [] as ArgType[] })

/**
 * A row's values in the statement's column order (node-postgres builds a row's object in that
 * order; the compiled engine names no column as an integer, which an object would list first, and
 * no two columns alike).
 */
function valuesOf(row: unknown): unknown[] {
  if (typeof row !== 'object' || row === null)
    throw new Error('The Prisma 8 runtime answered a row that is not an object.')
  return Object.values(row)
}
