/**
 * @module
 * The `compiled` engine's statements on MariaDB and MySQL, prepared once per connection.
 * `@prisma/adapter-mariadb` runs every statement with the binary protocol and the driver's
 * statement cache off (`prepareCacheLength: 0`, unless the pool it is given sets one), because a
 * cache of every distinct SQL text Prisma writes filled the server's `max_prepared_stmt_count`:
 * each statement is prepared, run and closed again, which cost a compiled partial page on MariaDB
 * a quarter of its CPU (docs/performance.md). The engine's statements are few and their texts
 * repeat, so they are kept here: at most `KEPT` a connection, whatever the apps and models reading
 * through it, the least recently used closed on the server when another comes. They run on a connection
 * taken from the adapter's pool and given back, or on its transaction's connection, with
 * the adapter's options, their arguments and values turned as its `mapArg` and `mapRow` turn them,
 * so that the rows are the ones `queryRaw` answers, but for date-times: those are read into the
 * Dates row-values makes of them, once. A statement the server could not prepare, or
 * forgot, is read through the adapter; a failure to run one throws the adapter's error (a
 * `DriverAdapterError`), once. A pool whose connections keep the driver's own statement cache
 * (`prepareCacheLength` other than 0), or forget their statements when given back
 * (`resetAfterUse`), is read through the adapter alone once its first connection shows it.
 */
import type { SqlQuery } from './query.js'
import { utcDateTime } from './row-values.js'

/** What is used of a statement the `mariadb` driver prepared. */
interface Prepared {
  readonly columns: readonly Column[] | null
  execute(values: unknown[], options: object): Promise<unknown[][] & { meta?: readonly Column[] }>
  close(): void
}
/** What is read of a column's definition. */
interface Column {
  readonly type: string
}
/** What is used of a `mariadb` connection (the promise API's). */
interface Connection {
  /** One object for each connection the driver opened, for as long as it is open. */
  readonly info: object | null
  /** The driver's own statement cache, when the pool was made with one (`prepareCacheLength`). */
  readonly prepareCache: object | null
  prepare(options: { sql: string }): Promise<Prepared>
}
interface PoolConnection extends Connection {
  release(): Promise<void>
}
interface Pool {
  getConnection(): Promise<PoolConnection>
}
/** What is used of the adapter or its transaction: the pool or the connection it reads through. */
interface MariaDbQueryable {
  readonly adapterName: string
  readonly client: Pool | Connection
  readonly mariadbOptions?: { useTextProtocol?: boolean } | undefined
  /** Throws the driver's error as the adapter throws it (a `DriverAdapterError`). */
  onError(error: unknown): never
}

/** The most statements kept for a connection (and so held open on the server for it). */
export const KEPT = 32

/**
 * The request options of the adapter's reads (`performIO`). Its `typeCast` reads a GEOMETRY
 * column as bytes, and the engine's statements select the model's scalar fields, of which Prisma
 * has no geometry; none is set here (`undefined`, which a `typeCast` of the pool's options would
 * otherwise fill in, as the adapter's own one overrides it).
 */
const READ = {
  rowsAsArray: true,
  dateStrings: true,
  autoJsonMap: false,
  jsonStrings: true,
  bitOneIsBoolean: false,
  typeCast: undefined,
}

/** The server's error for a statement it does not hold (a connection reset after use). */
const UNKNOWN_STATEMENT = 1243
/** The server's error for a statement whose tables changed since it was prepared. */
const NEED_REPREPARE = 1615

const DATE_TIMES = new Set(['TIMESTAMP', 'TIMESTAMP2', 'DATETIME', 'DATETIME2'])

/** A statement kept on a connection, and which columns of the rows it last read are date-times. */
interface Kept {
  readonly statement: Promise<Prepared>
  columns?: readonly Column[]
  dateTimes?: boolean[]
}

/**
 * The statements kept on each connection of every pool, least recently used first, by the
 * connection's `info` (the driver's object of one connection): one bound a connection, whatever
 * the apps and models that read through it, and forgotten with the connection.
 */
const keptOn = new WeakMap<object, Map<string, Kept>>()
/**
 * The pools whose connections cannot keep the engine's statements (the driver's own cache, or a
 * reset when given back), read through the adapter alone once known: without taking a connection
 * to learn it again on every read.
 */
const adapterOnly = new WeakSet<object>()

const pad = (value: number, width = 2) => String(value).padStart(width, '0')
/** A date as the adapter's `formatDateTime` writes it (UTC, milliseconds when not zero). */
function dateTimeText(date: Date): string {
  const ms = date.getUTCMilliseconds()
  return `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}${ms ? `.${pad(ms, 3)}` : ''}`
}

/** An argument as the adapter's `mapArg` gives it to the driver. */
function argumentOf(value: unknown, scalarType: string | undefined): unknown {
  if (value === null) return null
  if (typeof value === 'string' && scalarType === 'bigint') return BigInt(value)
  const date = typeof value === 'string' && scalarType === 'datetime' ? new Date(value) : value
  if (date instanceof Date) return dateTimeText(date)
  if (typeof value === 'string' && scalarType === 'bytes') return Buffer.from(value, 'base64')
  if (ArrayBuffer.isView(value))
    return Buffer.from(value.buffer, value.byteOffset, value.byteLength)
  return value
}

/**
 * A DATETIME or TIMESTAMP as the driver's text `YYYY-MM-DD HH:MM:SS[.ffffff]` (UTC): the Date
 * row-values reads from it once (`utcDateTime`); a text out of its range (a year before 1000, a
 * zero date) as the adapter's `mapRow` writes it, `new Date(`${text}Z`).toISOString()` with
 * `+00:00` for `Z` and no `.000`, for row-values to read as it reads the adapter's rows.
 */
function dateTimeOf(text: string): Date | string {
  return utcDateTime(text) ?? new Date(`${text}Z`).toISOString().replace(/(\.000)?Z$/, '+00:00')
}

/** A row as the adapter's `mapRow` gives it, its date-times read (dateTimeOf). */
function rowOf(row: unknown[], dateTimes: readonly boolean[]): unknown[] {
  const values = new Array(row.length)
  for (let column = 0; column < row.length; column++) {
    const value = row[column]
    values[column] =
      value === null || value === undefined
        ? null
        : dateTimes[column] && typeof value === 'string'
          ? dateTimeOf(value)
          : typeof value === 'bigint'
            ? value.toString()
            : value
  }
  return values
}

/** The rows of a statement, or undefined when the adapter is to read it. */
export type MariaDbReader = (query: SqlQuery) => Promise<unknown[][] | undefined>

/** Forgets a statement kept on a connection, and closes it on the server. */
function forget(kept: Map<string, Kept>, sql: string): void {
  const known = kept.get(sql)
  if (!known) return
  kept.delete(sql)
  known.statement.then((statement) => statement.close()).catch(() => undefined)
}

/**
 * The rows of `query` read on `connection` with a statement kept there, or undefined when the
 * adapter is to read it: the statement could not be prepared, or the connection cannot keep it
 * (`unkept`: it keeps the driver's own statement cache, or the server forgot its statements when
 * it was reset). A failure to run it throws as the adapter's read would (`failed`).
 */
async function readKept(
  connection: Connection,
  query: SqlQuery,
  failed: (error: unknown) => never,
  unkept: () => void
): Promise<unknown[][] | undefined> {
  const { info } = connection
  if (connection.prepareCache || !info) {
    unkept()
    return undefined
  }
  let kept = keptOn.get(info)
  if (!kept) {
    kept = new Map()
    keptOn.set(info, kept)
  }
  const { sql } = query
  let known = kept.get(sql)
  if (known) {
    // Least recently used first: a statement read again goes last.
    kept.delete(sql)
  } else {
    const oldest = kept.size >= KEPT ? kept.keys().next().value : undefined
    if (oldest !== undefined) forget(kept, oldest)
    known = { statement: connection.prepare({ sql, ...READ }) }
  }
  kept.set(sql, known)
  let statement: Prepared
  try {
    statement = await known.statement
  } catch {
    kept.delete(sql)
    return undefined
  }
  let rows: Awaited<ReturnType<Prepared['execute']>>
  try {
    const args = query.args.map((value, index) =>
      argumentOf(value, query.argTypes[index]?.scalarType)
    )
    rows = await statement.execute(args, READ)
  } catch (error) {
    const { errno } = error as { errno?: unknown }
    if (errno === UNKNOWN_STATEMENT) {
      // The server holds none of the connection's statements any more: forgotten, not closed.
      keptOn.delete(info)
      unkept()
      return undefined
    }
    forget(kept, sql)
    // A statement the server would have to prepare again is the adapter's to read.
    return errno === NEED_REPREPARE ? undefined : failed(error)
  }
  // The columns of this read: a statement the server prepared again (its table altered) may
  // answer others than it was prepared with.
  const columns = rows.meta ?? statement.columns ?? []
  if (known.columns !== columns) {
    known.columns = columns
    known.dateTimes = columns.map((column) => DATE_TIMES.has(column.type))
  }
  const dateTimes = known.dateTimes ?? []
  return rows.map((row) => rowOf(row, dateTimes))
}

/**
 * A reader of `queryRaw`'s rows with statements kept per connection, over the pool or the
 * transaction's connection of `adapter` (the client's adapter, or its transaction); undefined for
 * any other adapter or option.
 */
export function mariadbStatements(adapter: object): MariaDbReader | undefined {
  const candidate = adapter as Partial<MariaDbQueryable>
  if (candidate.adapterName !== '@prisma/adapter-mariadb') return undefined
  if (candidate.mariadbOptions?.useTextProtocol) return undefined
  const { client } = candidate
  if (typeof client !== 'object' || client === null) return undefined
  if (typeof candidate.onError !== 'function') return undefined
  const failed = candidate.onError.bind(candidate)
  if (!('getConnection' in client)) {
    if (typeof client.prepare !== 'function') return undefined
    // A transaction's connection, which the pool resets (if it does) only once it is given back.
    return (query) => readKept(client, query, failed, () => undefined)
  }
  const pool = client
  const unkept = () => adapterOnly.add(pool)
  return async (query) => {
    if (adapterOnly.has(pool)) return undefined
    // A pool that cannot give a connection fails as the adapter's own read would (an outage is
    // answered as one), not after the adapter waits for the pool a second time.
    const connection = await pool.getConnection().catch(failed)
    try {
      return await readKept(connection, query, failed, unkept)
    } finally {
      await connection.release()
    }
  }
}
