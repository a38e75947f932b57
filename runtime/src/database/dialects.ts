/**
 * @module
 * The dialect table: what differs between the databases Prisma serves, in one place, read by the
 * generator (at generation time) and by the data-access layer (at run time). Identifier quoting,
 * the plain count of a table, the planner's row estimate, the isolation level that makes a page
 * and its count one snapshot, how LIKE reads `%` and `_`, how Prisma's client matches text whatever
 * its case, whether a cursor position is read as a row value, how an OFFSET reads past a missing
 * LIMIT, the values each stores, how its driver adapter reports a database error, and which types
 * can key a cursor.
 */

import type { TableName } from '../contract/model-source.js'
import type { LikeEscape } from '../contract/query.js'
import { type ProviderRanges, rangesFrom, SHARED_RANGES } from '../values/provider-ranges.js'

/**
 * How Prisma's client matches text whatever its case (docs/filters.md#case-sensitivity): with
 * `mode: 'insensitive'`, which it writes as ILIKE (PostgreSQL), or with its plain LIKE, which
 * ignores case by itself (SQLite: ASCII letters; MySQL/MariaDB: as a `_ci` collation does).
 */
export type Caseless = 'mode' | 'like'

/**
 * Where a Prisma driver adapter's error of a database (`kind`: `postgres`, `mysql`) keeps the
 * database's SQLSTATE: node-postgres's is its `code`, the `mariadb` driver's its `state` (its
 * `code` is a number).
 */
export interface AdapterErrors {
  /** The adapter error's `kind` that carries a database's SQLSTATE. */
  kind: string
  /** The property of the driver's error that holds the SQLSTATE. */
  sqlState: 'code' | 'state'
  /**
   * Where the driver's own errors keep the database's reason when their `message` says more: the
   * `mariadb` driver's `sqlMessage` (its `message` adds the SQL and, from its pool, the pool's
   * state). The adapter's errors (`kind`) carry that reason as their `message`.
   */
  reason?: 'sqlMessage'
  /**
   * The database's own error numbers, in the adapter error's `code`, of a statement the server
   * ended at one of its time limits where the SQLSTATE (a bare HY000) does not say so.
   */
  timeLimitCodes?: readonly number[]
}

/** One database's rules. */
export interface Dialect {
  /** What messages call it: `PostgreSQL`, `MySQL/MariaDB`. */
  name: string
  /** The isolation level that makes a page and its count one consistent read. */
  isolationLevel: 'Serializable' | 'RepeatableRead'
  /**
   * The SQL of the table's planner row estimate (one parameter: the quoted table name), when the
   * database keeps one (`estimated` totals); absent elsewhere, where `estimated` counts exactly.
   */
  estimateSql?: string
  /** How its LIKE reads `%` and `_` literally (SQLite's has no escape character by default). */
  likeEscape: LikeEscape
  /**
   * How Prisma's client matches its text whatever the case; absent where the case-insensitive
   * search strategies are not served (SQL Server).
   */
  caseless?: Caseless
  /**
   * The statement that makes a started transaction read only, where one can follow its start
   * (PostgreSQL): the page-and-count transaction on a read replica runs it first.
   */
  readOnlySql?: string
  /**
   * Whether the compiled engine writes a cursor position whose keys run one way as a row-value
   * comparison (`("createdAt", "id") < (?, ?)`), which the database reads as one index range.
   */
  rowValues: boolean
  /**
   * Whether the compiled engine reads each member's first related rows as a `LATERAL` subquery of
   * the members' table (PostgreSQL; MariaDB has no `LATERAL`), where it otherwise joins a limited
   * branch a member by `UNION ALL`, which PostgreSQL plans branch by branch.
   */
  lateral?: true
  /**
   * Whether the compiled engine reads the keys of a page that steps over rows first and joins its
   * rows to them (MySQL/MariaDB, whose InnoDB otherwise fetches every row stepped over before the
   * page: docs/performance.md#a-pages-keys-read-first). PostgreSQL and SQLite answered the page's
   * whole rows as fast or faster in bench:peers.
   */
  keysFirst?: true
  /**
   * The LIMIT that reads every row, where an OFFSET cannot be written without a LIMIT (MySQL and
   * SQLite); absent where it can.
   */
  everyRow?: string
  /** The values it stores of the types whose range depends on the database. */
  ranges: ProviderRanges
  /** How its driver adapter reports the database's errors, where they carry a SQLSTATE. */
  adapterErrors?: AdapterErrors
  /** An identifier quoted as this database quotes it. */
  quote(name: string): string
  /** The `n`th (1-based) parameter of a statement the compiled engine writes (`$1`, `?`). */
  placeholder(n: number): string
  /**
   * The test that a Json column (quoted) holds the database's `NULL` or JSON's `null`, as Prisma's
   * client writes `equals: Prisma.AnyNull` there; absent where Prisma stores no Json.
   */
  jsonNull?(column: string): string
}

const numbered = (n: number) => `$${n}`
const positional = () => '?'

const doubleQuote = (name: string) => `"${name.replace(/"/g, '""')}"`

/** PostgreSQL's `reltuples` (kept by ANALYZE and autovacuum); -1 when never analyzed. */
const PG_ESTIMATE =
  'SELECT reltuples::float8 AS "estimate" FROM pg_class WHERE oid = to_regclass($1)'

// timestamp(3) reaches 4713 BC to 294276 AD, but the driver adapter writes years before 1 and
// after 9999 in forms PostgreSQL refuses (Prisma P2020).
const POSTGRES: Dialect = {
  name: 'PostgreSQL',
  isolationLevel: 'RepeatableRead',
  estimateSql: PG_ESTIMATE,
  likeEscape: 'backslash',
  caseless: 'mode',
  readOnlySql: 'SET TRANSACTION READ ONLY',
  rowValues: true,
  lateral: true,
  ranges: rangesFrom('0001-01-01T00:00:00.000Z'),
  adapterErrors: { kind: 'postgres', sqlState: 'code' },
  quote: doubleQuote,
  placeholder: numbered,
  jsonNull: (column) => `(${column}::jsonb = 'null'::jsonb OR ${column} IS NULL)`,
}

/** In the order messages list them. */
const DIALECTS: Record<string, Dialect> = {
  postgresql: POSTGRES,
  postgres: POSTGRES,
  cockroachdb: { ...POSTGRES, name: 'CockroachDB', ranges: SHARED_RANGES },
  mysql: {
    name: 'MySQL/MariaDB',
    isolationLevel: 'RepeatableRead',
    likeEscape: 'backslash',
    caseless: 'like',
    rowValues: false,
    keysFirst: true,
    // The largest LIMIT, as MySQL's manual writes "every row".
    everyRow: '18446744073709551615',
    // DATETIME(3): '1000-01-01 00:00:00.000' to '9999-12-31 23:59:59.999'.
    ranges: SHARED_RANGES,
    adapterErrors: {
      kind: 'mysql',
      sqlState: 'state',
      reason: 'sqlMessage',
      // A lock waited for past `lock_wait_timeout` or `innodb_lock_wait_timeout` (1205), MySQL's
      // `max_execution_time` (3024). MariaDB's `max_statement_time` is SQLSTATE 70100.
      timeLimitCodes: [1205, 3024],
    },
    quote: (name) => `\`${name.replace(/`/g, '``')}\``,
    placeholder: positional,
    // JSON's null compared as JSON, whatever its spelling in MariaDB's text (MySQL's is binary).
    jsonNull: (column) =>
      `((JSON_CONTAINS(${column}, 'null') AND JSON_CONTAINS('null', ${column})) OR ${column} IS NULL)`,
  },
  sqlite: {
    name: 'SQLite',
    isolationLevel: 'Serializable',
    likeEscape: 'none',
    caseless: 'like',
    rowValues: true,
    // A negative LIMIT is no limit.
    everyRow: '-1',
    // Dates are stored as ISO 8601 text and compared as text: only four-digit years sort right.
    ranges: rangesFrom('0001-01-01T00:00:00.000Z'),
    quote: doubleQuote,
    placeholder: positional,
    // Its JSON is text as Prisma's client writes it: JSON's null is `null`.
    jsonNull: (column) => `(${column} = 'null' OR ${column} IS NULL)`,
  },
  sqlserver: {
    name: 'SQL Server',
    isolationLevel: 'Serializable',
    likeEscape: 'brackets',
    rowValues: false,
    ranges: SHARED_RANGES,
    quote: (name) => `[${name.replace(/]/g, ']]')}]`,
    placeholder: (n) => `@P${n}`,
  },
}

/** The rules of `provider` (a datasource provider name); SQLite's for one it does not know. */
export function dialectOf(provider: string): Dialect {
  return DIALECTS[provider] ?? (DIALECTS.sqlite as Dialect)
}

/**
 * The values the database of `provider` stores; for an unknown or left-out provider, those every
 * database stores.
 */
export function rangesOf(provider: string | undefined): ProviderRanges {
  return provider !== undefined && Object.hasOwn(DIALECTS, provider)
    ? (DIALECTS[provider] as Dialect).ranges
    : SHARED_RANGES
}

/** The names of the databases whose rules pass `test`, listed for a message (`A, B and C`). */
export function dialectNames(test: (dialect: Dialect) => boolean): string {
  const served = Object.values(DIALECTS).filter(test)
  const names = [...new Set(served.map(({ name }) => name))]
  const last = names.pop()
  return names.length === 0 ? (last ?? '') : `${names.join(', ')} and ${last}`
}

/** How the driver adapter of a database reports an error of `kind` (AdapterErrors), if one does. */
function adapterErrorsOf(error: object): AdapterErrors | undefined {
  const { kind } = error as { kind?: unknown }
  if (typeof kind !== 'string') return undefined
  for (const { adapterErrors } of Object.values(DIALECTS))
    if (adapterErrors?.kind === kind) return adapterErrors
  return undefined
}

/**
 * The SQLSTATE a driver adapter's error of a database carries (AdapterErrors), or undefined for
 * any other error.
 */
export function adapterSqlState(error: object): string | undefined {
  const adapterErrors = adapterErrorsOf(error)
  if (!adapterErrors) return undefined
  const state = (error as Record<string, unknown>)[adapterErrors.sqlState]
  return typeof state === 'string' ? state : undefined
}

/** Whether a driver adapter's error of a database is one of its time limits (timeLimitCodes). */
export function endedAtTimeLimit(error: object): boolean {
  const { code } = error as { code?: unknown }
  if (typeof code !== 'number') return false
  return adapterErrorsOf(error)?.timeLimitCodes?.includes(code) ?? false
}

/**
 * The database's reason for an error in its driver's words (AdapterErrors.reason), from the
 * driver's error or its adapter's, or undefined for an error that carries none.
 */
export function driverReason(error: object): string | undefined {
  const fields = error as Record<string, unknown>
  for (const { adapterErrors } of Object.values(DIALECTS)) {
    if (adapterErrors?.reason === undefined) continue
    const own = fields.kind === adapterErrors.kind ? fields.message : fields[adapterErrors.reason]
    if (typeof own === 'string') return own
  }
  return undefined
}

/** Whether `provider` keeps a per-table row estimate that `estimated` totals can read. */
export function keepsRowEstimates(provider: string): boolean {
  return dialectOf(provider).estimateSql !== undefined
}

/** The table as a statement names it: schema-qualified only when the model declares `@@schema`. */
export function qualifiedTable(provider: string, table: TableName): string {
  const { quote } = dialectOf(provider)
  return table.schema ? `${quote(table.schema)}.${quote(table.name)}` : quote(table.name)
}

/**
 * The `SELECT` of a model's fields, each read from its column (`"column" AS "field"` where the
 * names differ), in the order given: the statement every compiled read of the model starts with,
 * written by the generator for the whole model and by the compiled engine for the fields a page
 * shows.
 *
 * @example
 * ```ts
 * selectStatement('postgresql', { name: 'Book', schema: null }, [['id', 'id'], ['title', 'book_title']])
 * // SELECT "id", "book_title" AS "title" FROM "Book"
 * ```
 */
export function selectStatement(
  provider: string,
  table: TableName,
  fields: readonly (readonly [field: string, column: string])[]
): string {
  const { quote } = dialectOf(provider)
  const list = fields.map(([field, column]) =>
    column === field ? quote(column) : `${quote(column)} AS ${quote(field)}`
  )
  return `SELECT ${list.join(', ')} FROM ${qualifiedTable(provider, table)}`
}

/**
 * The plain count of a table. Why not Prisma's `count()`: every count API of Prisma 7 sends
 * `SELECT COUNT(*) FROM (SELECT id FROM t WHERE 1=1 LIMIT -1 OFFSET 0)`, which steps over every row
 * where a plain `SELECT COUNT(*) FROM t` is answered from the smallest index (SQLite) or by a
 * parallel scan (PostgreSQL): 4× slower at a million rows on SQLite (docs/performance.md). The
 * column is unquoted lower case: the same name on every database.
 */
export function countSql(provider: string, table: TableName): string {
  return `SELECT COUNT(*) AS total FROM ${qualifiedTable(provider, table)}`
}

/** The Prisma scalar types a cursor (or an unpaged response's keyset batches) can be keyed by. */
export const KEYSET_TYPES: ReadonlySet<string> = new Set([
  'String',
  'Int',
  'BigInt',
  'Float',
  'Decimal',
  'DateTime',
])
