/**
 * @module
 * The dialect table: what differs between the databases Prisma serves, in one place, read by the
 * generator (at generation time) and by the data-access layer (at run time). Identifier quoting,
 * the plain count of a table, the planner's row estimate, the isolation level that makes a page
 * and its count one snapshot, how LIKE reads `%` and `_`, how Prisma's client matches text whatever
 * its case, whether a cursor position is read as a row value, and which types can key a cursor.
 */

import type { TableName } from '../contract/model-source.js'
import type { LikeEscape } from '../contract/query.js'

/**
 * How Prisma's client matches text whatever its case (docs/filters.md#case-sensitivity): with
 * `mode: 'insensitive'`, which it writes as ILIKE (PostgreSQL), or with its plain LIKE, which
 * ignores case by itself (SQLite: ASCII letters; MySQL/MariaDB: as a `_ci` collation does).
 */
export type Caseless = 'mode' | 'like'

/** One database's rules. */
export interface Dialect {
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
  /** An identifier quoted as this database quotes it. */
  quote(name: string): string
  /** The `n`th (1-based) parameter of a statement the compiled engine writes (`$1`, `?`). */
  placeholder(n: number): string
}

const numbered = (n: number) => `$${n}`
const positional = () => '?'

const doubleQuote = (name: string) => `"${name.replace(/"/g, '""')}"`

/** PostgreSQL's `reltuples` (kept by ANALYZE and autovacuum); -1 when never analyzed. */
const PG_ESTIMATE =
  'SELECT reltuples::float8 AS "estimate" FROM pg_class WHERE oid = to_regclass($1)'

const POSTGRES: Dialect = {
  isolationLevel: 'RepeatableRead',
  estimateSql: PG_ESTIMATE,
  likeEscape: 'backslash',
  caseless: 'mode',
  readOnlySql: 'SET TRANSACTION READ ONLY',
  rowValues: true,
  quote: doubleQuote,
  placeholder: numbered,
}

const DIALECTS: Record<string, Dialect> = {
  sqlite: {
    isolationLevel: 'Serializable',
    likeEscape: 'none',
    caseless: 'like',
    rowValues: true,
    quote: doubleQuote,
    placeholder: positional,
  },
  postgresql: POSTGRES,
  postgres: POSTGRES,
  cockroachdb: POSTGRES,
  mysql: {
    isolationLevel: 'RepeatableRead',
    likeEscape: 'backslash',
    caseless: 'like',
    rowValues: false,
    quote: (name) => `\`${name.replace(/`/g, '``')}\``,
    placeholder: positional,
  },
  sqlserver: {
    isolationLevel: 'Serializable',
    likeEscape: 'brackets',
    rowValues: false,
    quote: (name) => `[${name.replace(/]/g, ']]')}]`,
    placeholder: (n) => `@P${n}`,
  },
}

/** The rules of `provider` (a datasource provider name); SQLite's for one it does not know. */
export function dialectOf(provider: string): Dialect {
  return DIALECTS[provider] ?? (DIALECTS.sqlite as Dialect)
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
