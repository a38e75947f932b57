/**
 * @module
 * The `compiled` engine's statements on PostgreSQL, prepared once per connection.
 * `@prisma/adapter-pg` sends every statement unnamed unless it is given a `statementNameGenerator`,
 * so PostgreSQL parses and plans it again on every request: the compiled shaped page's statement
 * took 0.97-1.00 ms a run so, and 0.63-0.70 ms prepared once (docs/performance.md). The engine's
 * statements are few and their texts repeat, so they are named here and read through the adapter's
 * own `queryRaw` with that name (node-postgres then parses a name once on each connection and binds
 * it afterwards): the rows, their types and the errors are the adapter's.
 *
 * Bounded: at most `KEPT` texts are named in a process, whatever the apps and adapters reading
 * through it, so a connection holds at most that many statements on the server (and those that lost
 * their name, below); a text is named the second time it is read (one read once, a client's list of
 * ids of a length of its own, takes no name). A name is its text's own (a hash of it): a server
 * connection a pooler shares between processes, each naming its own texts, never runs another text
 * under a name. Statements a transaction reads stay unnamed: behind a pooler that hands each
 * transaction a server connection of its own (PgBouncer's transaction mode before it kept prepared
 * statements), a name the server connection does not know would fail the transaction. Outside one,
 * such a failure (the server does not know the name, or another client prepared it on that
 * connection) is read again unnamed, and the adapter's statements are no longer named; a statement
 * whose columns changed since it was prepared is read again unnamed and loses its name.
 */
import { createHash } from 'node:crypto'
import type { SqlQuery } from './query.js'

/** The most statement texts named in a process, and so held on the server for a connection. */
const KEPT = 32

/** The most texts remembered as read once, waiting for a second read to be named. */
const SEEN = 256

/** What is used of `@prisma/adapter-pg`'s adapter (its pool's, not a transaction's). */
interface PgAdapter {
  readonly adapterName: string
  /** The adapter's pool. */
  readonly client: object
  readonly pgOptions?: object | undefined
  queryRaw(query: SqlQuery): Promise<{ rows: unknown[][] }>
  startTransaction(isolationLevel?: string): Promise<unknown>
}

/** The rows of a statement, or undefined when the adapter is to read it unnamed. */
export type PostgresReader = (query: SqlQuery) => Promise<unknown[][] | undefined>

/** The name of each text named so far. */
const names = new Map<string, string>()
/** Texts read once, not named yet. */
const seen = new Set<string>()
/** How many times each text lost its name: its next name is another. */
const renamed = new Map<string, number>()
/**
 * The pools whose server connections did not keep a statement (a pooler's), read unnamed from then
 * on, by every app and model reading through them.
 */
const unnamedPools = new WeakSet<object>()

/** The name of `sql`, given on its second read while fewer than KEPT texts have one. */
function nameOf(sql: string): string | undefined {
  const known = names.get(sql)
  if (known !== undefined || names.size >= KEPT) return known
  if (!seen.delete(sql)) {
    if (seen.size >= SEEN) seen.clear()
    seen.add(sql)
    return undefined
  }
  // 13 + 43 + a suffix: within PostgreSQL's 63 bytes of a name.
  const hash = createHash('sha256').update(sql).digest('base64url')
  const times = renamed.get(sql)
  const name = `prisma_hydra_${hash}${times === undefined ? '' : `_${times}`}`
  names.set(sql, name)
  return name
}

/** The server's code (SQLSTATE) of an error the adapter threw (a `DriverAdapterError`). */
function codeOf(error: unknown): string | undefined {
  const cause = (error as { cause?: { originalCode?: unknown } } | undefined)?.cause
  return typeof cause?.originalCode === 'string' ? cause.originalCode : undefined
}

/** The server knows no statement of that name. */
const UNKNOWN_STATEMENT = '26000'
/** The server holds a statement of that name already (another client's, through a pooler). */
const DUPLICATE_STATEMENT = '42P05'
/** A prepared statement whose result columns changed since it was prepared. */
const CHANGED_COLUMNS = '0A000'

/**
 * A reader of `queryRaw`'s rows with named statements, over the pool of `adapter` (the client's
 * `@prisma/adapter-pg` adapter); undefined for any other adapter, and for a transaction.
 */
export function postgresStatements(adapter: object): PostgresReader | undefined {
  const candidate = adapter as Partial<PgAdapter>
  if (candidate.adapterName !== '@prisma/adapter-pg') return undefined
  if (typeof candidate.startTransaction !== 'function') return undefined
  if (typeof candidate.queryRaw !== 'function') return undefined
  const pool = candidate.client
  if (typeof pool !== 'object' || pool === null) return undefined
  // The adapter's own read, with a name for each statement that has one (`undefined`: unnamed).
  const statementNameGenerator = (query: SqlQuery) => names.get(query.sql)
  const named: PgAdapter = Object.create(adapter, {
    pgOptions: { value: { ...candidate.pgOptions, statementNameGenerator } },
  })
  return async (query) => {
    if (unnamedPools.has(pool) || nameOf(query.sql) === undefined) return undefined
    try {
      return (await named.queryRaw(query)).rows
    } catch (error) {
      const code = codeOf(error)
      if (code === UNKNOWN_STATEMENT || code === DUPLICATE_STATEMENT) unnamedPools.add(pool)
      else if (code === CHANGED_COLUMNS) {
        names.delete(query.sql)
        renamed.set(query.sql, (renamed.get(query.sql) ?? 0) + 1)
      } else throw error
      return undefined
    }
  }
}
