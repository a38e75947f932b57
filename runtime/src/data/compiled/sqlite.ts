/**
 * @module
 * The `compiled` engine's statements on SQLite, prepared once. `@prisma/adapter-better-sqlite3`
 * prepares every statement again on each call (`client.prepare(sql).bind(args)`: a bound
 * statement cannot be bound again), which cost a compiled page a tenth of its time (docs/
 * performance.md). The adapter keeps its better-sqlite3 connection in its public `client`: the
 * engine's reads run there, on the same connection (inside the adapter's transaction when one is
 * open, as the adapter's own reads do), with a statement kept per SQL text, and their arguments
 * and values turned as the adapter's `mapArg` and `mapRow` turn them, so that the rows are the
 * ones `queryRaw` answers. A statement that fails is read again through the adapter, whose error
 * is the one the layer knows (a `DriverAdapterError`).
 */
import type { SqlQuery } from './query.js'

/** What is used of a better-sqlite3 statement. */
interface Statement {
  readonly reader: boolean
  raw(toggle: boolean): Statement
  columns(): Array<{ type: string | null }>
  all(parameters: unknown[]): unknown[][]
}

/** What is used of the adapter: its connection and its options. */
interface BetterSqliteAdapter {
  readonly adapterName: string
  readonly client: { prepare(sql: string): Statement; readonly open: boolean }
  readonly adapterOptions?: { timestampFormat?: string } | undefined
}

/** How a column's values are turned, from its declared type (the adapter's `mapDeclType`). */
type ColumnKind = 'integer' | 'dateTime' | 'other' | 'inferred'

const INTEGER =
  /^(TINYINT|SMALLINT|MEDIUMINT|INT|INTEGER|SERIAL|INT2|BIGINT|UNSIGNED BIG INT|INT8)$/
const DATE_TIME = /^(DATETIME|TIMESTAMP)$/

/** The other declared types the adapter knows: a type it does not know is inferred. */
const KNOWN = new Set([
  'DECIMAL',
  'FLOAT',
  'DOUBLE',
  'DOUBLE PRECISION',
  'NUMERIC',
  'REAL',
  'TIME',
  'DATE',
  'TEXT',
  'CLOB',
  'CHARACTER',
  'VARCHAR',
  'VARYING CHARACTER',
  'NCHAR',
  'NATIVE CHARACTER',
  'NVARCHAR',
  'BLOB',
  'BOOLEAN',
  'JSONB',
])

function kindOf(declared: string | null): ColumnKind {
  if (declared === null) return 'inferred'
  const type = declared.toUpperCase()
  if (INTEGER.test(type)) return 'integer'
  if (DATE_TIME.test(type)) return 'dateTime'
  return KNOWN.has(type) ? 'other' : 'inferred'
}
/** An argument as the adapter's `mapArg` gives it to the driver (ISO 8601 dates). */
function argumentOf(value: unknown, scalarType: string): unknown {
  if (value === null) return null
  if (typeof value === 'string') {
    // biome-ignore lint/correctness/useParseIntRadix: as the adapter's mapArg reads it.
    if (scalarType === 'int') return Number.parseInt(value)
    if (scalarType === 'float' || scalarType === 'decimal') return Number.parseFloat(value)
    if (scalarType === 'bigint') return BigInt(value)
    if (scalarType === 'datetime') return dateText(new Date(value))
    if (scalarType === 'bytes') return Buffer.from(value, 'base64')
    return value
  }
  if (typeof value === 'boolean') return value ? 1 : 0
  return value instanceof Date ? dateText(value) : value
}
const dateText = (date: Date) => date.toISOString().replace('Z', '+00:00')

/** The kinds of a statement's columns; an undeclared one by its first value, as the adapter. */
function kindsOf(declared: readonly ColumnKind[], rows: readonly unknown[][]): ColumnKind[] {
  return declared.map((kind, column) => {
    if (kind !== 'inferred') return kind
    const value = rows.find((row) => row[column] !== null)?.[column]
    return typeof value === 'bigint' || value === undefined ? 'integer' : 'other'
  })
}

/** A value as the adapter's `mapRow` gives it. */
function rowValue(value: unknown, kind: ColumnKind): unknown {
  if (typeof value === 'number' && kind === 'integer' && !Number.isInteger(value))
    return Math.trunc(value)
  if ((typeof value === 'number' || typeof value === 'bigint') && kind === 'dateTime')
    return new Date(Number(value)).toISOString()
  if (typeof value === 'bigint') {
    const number = Number(value)
    return Number.isSafeInteger(number) ? number : value.toString()
  }
  return value
}

/** The most statements kept per connection: past it, the cache starts again. */
const KEPT = 500

/** The rows of a statement, or undefined when the adapter is to read it. */
export type StatementReader = (query: SqlQuery) => unknown[][] | undefined

/**
 * The reader of `queryRaw`'s rows with statements prepared once, on the connection of `adapter`
 * (the client's adapter, or its transaction); undefined for any other adapter or option.
 */
export function sqliteStatements(adapter: object): StatementReader | undefined {
  const candidate = adapter as Partial<BetterSqliteAdapter>
  if (candidate.adapterName !== '@prisma/adapter-better-sqlite3') return undefined
  const client = candidate.client
  if (typeof client?.prepare !== 'function') return undefined
  const format = candidate.adapterOptions?.timestampFormat
  if (format !== undefined && format !== 'iso8601') return undefined
  const kept = new Map<string, { statement: Statement; kinds: ColumnKind[] }>()
  return (query) => {
    try {
      let known = kept.get(query.sql)
      if (!known) {
        const statement = client.prepare(query.sql)
        if (!statement.reader) return undefined
        if (kept.size >= KEPT) kept.clear()
        const kinds = statement.columns().map((column) => kindOf(column.type))
        known = { statement: statement.raw(true), kinds }
        kept.set(query.sql, known)
      }
      const args = query.args.map((value, index) =>
        argumentOf(value, query.argTypes[index]?.scalarType ?? '')
      )
      const rows = known.statement.all(args)
      const kinds = kindsOf(known.kinds, rows)
      return rows.map((row) =>
        row.map((value, column) => rowValue(value, kinds[column] as ColumnKind))
      )
    } catch {
      // Read again through the adapter, whose error the layer knows.
      return undefined
    }
  }
}
