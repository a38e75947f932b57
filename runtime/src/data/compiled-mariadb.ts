/**
 * @module
 * The `compiled` engine's statements on MariaDB and MySQL, prepared once per connection.
 * `@prisma/adapter-mariadb` runs every statement with the binary protocol and the driver's
 * statement cache off (`prepareCacheLength: 0`), because a cache of every distinct SQL text Prisma
 * writes filled the server's `max_prepared_stmt_count`: each statement is prepared, run and closed
 * again, which cost a compiled page on MariaDB a third of its time (docs/performance.md). The
 * engine's statements are few and their texts repeat, so they are kept here: at most `KEPT` a
 * connection, the least recently used closed on the server when another comes, so that the server
 * holds at most `KEPT` of them for each connection of the pool. They run on the adapter's own pool
 * (a connection taken and given back, as the adapter's own reads do) or on its transaction's
 * connection, with the adapter's options, their arguments and values turned as its `mapArg` and
 * `mapRow` turn them, so that the rows are the ones `queryRaw` answers. A statement that fails is
 * read again through the adapter, whose error is the one the layer knows (a `DriverAdapterError`).
 */
import type { SqlQuery } from './compiled-sql.js'

/** What is used of a statement the `mariadb` driver prepared. */
interface Prepared {
  readonly columns: ReadonlyArray<{ readonly type: string }> | null
  execute(values: unknown[], options: object): Promise<unknown[][]>
  close(): void
}
/** What is used of a `mariadb` connection (the promise API's). */
interface Connection {
  readonly threadId: number | null
  isValid(): boolean
  prepare(options: { sql: string }): Promise<Prepared>
}
interface PoolConnection extends Connection {
  release(): Promise<void>
}
/** What is used of the adapter or its transaction: the pool or the connection it reads through. */
interface MariaDbQueryable {
  readonly adapterName: string
  readonly client: { getConnection(): Promise<PoolConnection> } | Connection
  readonly mariadbOptions?: { useTextProtocol?: boolean } | undefined
  /** Throws the driver's error as the adapter throws it (a `DriverAdapterError`). */
  onError(error: unknown): never
}

/** The most statements kept for a connection (and so held open on the server for it). */
export const KEPT = 32

/**
 * The request options of the adapter's reads (`performIO`), but its `typeCast`, which reads a
 * GEOMETRY column as bytes: the engine's statements select the model's scalar fields, and Prisma
 * has no geometry scalar.
 */
const READ = {
  rowsAsArray: true,
  dateStrings: true,
  autoJsonMap: false,
  jsonStrings: true,
  bitOneIsBoolean: false,
}

/** The server's error for a statement it does not hold (a connection reset after use). */
const UNKNOWN_STATEMENT = 1243

const DATE_TIMES = new Set(['TIMESTAMP', 'TIMESTAMP2', 'DATETIME', 'DATETIME2'])

/** A statement kept on a connection, with which of its columns are date-times. */
interface Kept {
  readonly statement: Promise<Prepared>
  dateTimes?: boolean[]
}

/** The statements kept on one connection, least recently used first. */
interface ConnectionStatements {
  readonly connection: Connection
  readonly kept: Map<string, Kept>
}

/**
 * What is kept for one adapter's pool and its transactions (whose connections are the pool's):
 * the statements of each connection by its thread, and whether the server keeps none past a
 * connection's use (a pool that resets its connections: every statement is the adapter's then).
 */
export interface KeptStatements {
  readonly byThread: Map<number, ConnectionStatements>
  unkept: boolean
}

export const keptStatements = (): KeptStatements => ({ byThread: new Map(), unkept: false })

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

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
const digitsAt = (text: string, from: number, to: number): number => {
  let value = 0
  for (let at = from; at < to; at++) {
    const digit = text.charCodeAt(at) - 48
    if (digit < 0 || digit > 9) return -1
    value = value * 10 + digit
  }
  return value
}

/**
 * A DATETIME or TIMESTAMP as the driver's text `YYYY-MM-DD HH:MM:SS[.ffffff]` (UTC) is written by
 * the adapter's `mapRow`: `new Date(`${text}Z`).toISOString()` with `+00:00` for `Z` and no
 * `.000`. Written from the text when every field is in range (a page of dates parsed and written
 * again cost more than the rest of the adapter's turning); otherwise by that very expression.
 */
export function dateTimeValue(text: string): string {
  const year = digitsAt(text, 0, 4)
  const month = digitsAt(text, 5, 7)
  const day = digitsAt(text, 8, 10)
  const fraction = text.length > 19 ? digitsAt(text, 20, text.length) : 0
  const shaped =
    (text.length === 19 || (text.length >= 21 && text.length <= 26 && text[19] === '.')) &&
    text[4] === '-' &&
    text[7] === '-' &&
    text[10] === ' ' &&
    text[13] === ':' &&
    text[16] === ':' &&
    year >= 1000 &&
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <=
      (month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
        ? 29
        : (DAYS[month - 1] as number)) &&
    digitsAt(text, 11, 13) >= 0 &&
    digitsAt(text, 11, 13) <= 23 &&
    digitsAt(text, 14, 16) >= 0 &&
    digitsAt(text, 14, 16) <= 59 &&
    digitsAt(text, 17, 19) >= 0 &&
    digitsAt(text, 17, 19) <= 59 &&
    fraction >= 0
  if (!shaped) return new Date(`${text}Z`).toISOString().replace(/(\.000)?Z$/, '+00:00')
  const ms = text.length > 19 ? `${text.slice(20, 23)}00`.slice(0, 3) : '000'
  return `${text.slice(0, 10)}T${text.slice(11, 19)}${ms === '000' ? '' : `.${ms}`}+00:00`
}

/** A row as the adapter's `mapRow` gives it. */
function rowOf(row: unknown[], dateTimes: readonly boolean[]): unknown[] {
  const values = new Array(row.length)
  for (let column = 0; column < row.length; column++) {
    const value = row[column]
    values[column] =
      value === null || value === undefined
        ? null
        : dateTimes[column] && typeof value === 'string'
          ? dateTimeValue(value)
          : typeof value === 'bigint'
            ? value.toString()
            : value
  }
  return values
}

/** The rows of a statement, or undefined when the adapter is to read it. */
export type MariaDbReader = (query: SqlQuery) => Promise<unknown[][] | undefined>

/**
 * A reader of `queryRaw`'s rows with statements kept per connection in `kept`, over the pool or
 * the transaction's connection of `adapter` (the client's adapter, or its transaction); undefined
 * for any other adapter or option.
 */
export function mariadbStatements(
  adapter: object,
  kept: KeptStatements
): MariaDbReader | undefined {
  const candidate = adapter as Partial<MariaDbQueryable>
  if (candidate.adapterName !== '@prisma/adapter-mariadb') return undefined
  if (candidate.mariadbOptions?.useTextProtocol) return undefined
  const client = candidate.client
  if (typeof client !== 'object' || client === null) return undefined
  const pool = 'getConnection' in client ? client : undefined
  const own = pool ? undefined : (client as Connection)
  if (own && typeof own.prepare !== 'function') return undefined

  /** The statements of `connection`; a connection the pool ended is forgotten on a new one. */
  const statementsOf = (connection: Connection): ConnectionStatements | undefined => {
    const thread = connection.threadId
    if (thread === null || kept.unkept) return undefined
    const statements = kept.byThread
    let known = statements.get(thread)
    if (known?.connection.isValid() === false) known = undefined
    if (!known) {
      for (const [other, { connection }] of statements)
        if (!connection.isValid()) statements.delete(other)
      known = { connection, kept: new Map() }
      statements.set(thread, known)
    }
    return known
  }
  const forget = (on: ConnectionStatements, sql: string) => {
    const known = on.kept.get(sql)
    if (!known) return
    on.kept.delete(sql)
    known.statement.then((statement) => statement.close()).catch(() => undefined)
  }
  const read = async (connection: Connection, query: SqlQuery) => {
    const on = statementsOf(connection)
    if (!on) return undefined
    let known = on.kept.get(query.sql)
    if (known) {
      // Least recently used first: a statement read again goes last.
      on.kept.delete(query.sql)
    } else {
      const oldest = on.kept.size >= KEPT ? on.kept.keys().next().value : undefined
      if (oldest !== undefined) forget(on, oldest)
      known = { statement: connection.prepare({ sql: query.sql, ...READ }) }
    }
    on.kept.set(query.sql, known)
    try {
      const statement = await known.statement
      const args = query.args.map((value, index) =>
        argumentOf(value, query.argTypes[index]?.scalarType)
      )
      const rows = await statement.execute(args, READ)
      known.dateTimes ??= (statement.columns ?? []).map((column) => DATE_TIMES.has(column.type))
      const dateTimes = known.dateTimes
      return rows.map((row) => rowOf(row, dateTimes))
    } catch (error) {
      forget(on, query.sql)
      if ((error as { errno?: unknown }).errno === UNKNOWN_STATEMENT) {
        // The server holds none of them any more: they are forgotten, not closed.
        kept.unkept = true
        kept.byThread.clear()
      }
      return undefined
    }
  }
  if (own) return (query) => read(own, query)
  if (typeof candidate.onError !== 'function') return undefined
  const failed = candidate.onError.bind(candidate)
  return async (query) => {
    // A pool that resets its connections is read through the adapter alone, without taking a
    // connection (and its reset) for nothing first.
    if (kept.unkept) return undefined
    // A pool that cannot give a connection fails as the adapter's own read would (an outage is
    // answered as one), not after the adapter waits for the pool a second time.
    const connection = await (pool as { getConnection(): Promise<PoolConnection> })
      .getConnection()
      .catch(failed)
    try {
      return await read(connection, query)
    } finally {
      await connection.release()
    }
  }
}
