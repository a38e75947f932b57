/**
 * @module
 * A scope's comparisons of text on a row as the change log keeps it (docs/syncing.md#rules-on-the-feed),
 * answered as the row's column compares text, not in JavaScript's order. SQLite compares its
 * columns as Prisma declares them (no collation: `BINARY`, the order of the text's UTF-8 bytes,
 * which is the order of its code points), here. PostgreSQL is asked, its column's type and
 * collation read once from its catalog; but for an equality on a `text` or `varchar` column of a
 * deterministic collation, which is byte equality, answered here. MySQL and MariaDB are asked
 * under the column's character set and collation, read once from `information_schema.COLUMNS`
 * (their defaults ignore case, accents and trailing spaces). A field whose column is not found
 * (none named, the table not read) is not covered: its tests are refused.
 */
import type { ModelColumns } from '../../contract/model-source.js'
import type { Comparison } from '../../plan/condition.js'
import type { ChangeLogClient } from './log-sql.js'

/** A test of text: a comparison with one value, or `in` a list. */
export type TextOp = Comparison | 'in'

/** The text tests of one model's fields, as its columns answer them. */
export interface TextComparison {
  /** Reads, once, what {@link covers} and {@link holds} need of the database. */
  ready(): Promise<void>
  /** Whether the text tests of `field` are answered (after {@link ready}). */
  covers(field: string): boolean
  /** Whether `own op values` holds as the column of `field` compares text. */
  holds(field: string, own: string, op: TextOp, values: readonly string[]): Promise<boolean>
}

/** `own op values` in the order of code points, SQLite's `BINARY` (UTF-8 bytes). */
function byCodePoints(own: string, op: TextOp, values: readonly string[]): boolean {
  if (op === 'in') return values.includes(own)
  const other = values[0] ?? ''
  const order = compareCodePoints(own, other)
  if (op === 'equals') return order === 0
  if (op === 'lt') return order < 0
  if (op === 'lte') return order <= 0
  if (op === 'gt') return order > 0
  return order >= 0
}

function compareCodePoints(a: string, b: string): number {
  const [left, right] = [[...a], [...b]]
  for (let index = 0; index < Math.min(left.length, right.length); index++) {
    const difference = (left[index]?.codePointAt(0) ?? 0) - (right[index]?.codePointAt(0) ?? 0)
    if (difference !== 0) return difference
  }
  return left.length - right.length
}

const SQL_OPS: Readonly<Record<Comparison, string>> = {
  equals: '=',
  lt: '<',
  lte: '<=',
  gt: '>',
  gte: '>=',
}

/** How one column compares: the SQL of a value read as the column reads it, and its equality. */
interface ColumnText {
  /** The SQL reading the value of placeholder `place` as the column's text. */
  read(place: string): string
  /** Whether its equality is JavaScript's (byte equality). */
  exactEquality: boolean
}

/** The columns' text of one database, by field; undefined where it does not compare text. */
type ColumnsText = Map<string, ColumnText>

/** The table of `model` as SQL names it, each part quoted by `quote`. */
function tableOf(model: ModelColumns, quote: (name: string) => string): string {
  const { name, schema } = model.table
  return schema ? `${quote(schema)}.${quote(name)}` : quote(name)
}

async function rowsOf(
  client: ChangeLogClient,
  query: string,
  ...values: unknown[]
): Promise<Record<string, unknown>[]> {
  return (await client.$queryRawUnsafe(query, ...values)) as Record<string, unknown>[]
}

/** Each field's column as PostgreSQL's catalog types and collates it. */
async function postgresColumns(client: ChangeLogClient, model: ModelColumns): Promise<ColumnsText> {
  const quoted = tableOf(model, (name) => `"${name.replaceAll('"', '""')}"`)
  // format_type with no modifier: `bpchar`, not `character` (one character long).
  const rows = await rowsOf(
    client,
    `SELECT a.attname AS name, format_type(a.atttypid, -1) AS type,
       CASE WHEN a.attcollation = 0 THEN NULL
         ELSE quote_ident(n.nspname) || '.' || quote_ident(c.collname) END AS collation,
       coalesce(c.collisdeterministic, true) AS deterministic
     FROM pg_attribute a
     LEFT JOIN pg_collation c ON c.oid = a.attcollation
     LEFT JOIN pg_namespace n ON n.oid = c.collnamespace
     WHERE a.attrelid = to_regclass($1) AND a.attnum > 0 AND NOT a.attisdropped`,
    quoted
  )
  const byColumn = new Map(rows.map((row) => [String(row.name), row]))
  const text: ColumnsText = new Map()
  for (const [field, column] of Object.entries(model.columns)) {
    const row = byColumn.get(column)
    if (!row) continue
    const type = String(row.type)
    const collation = row.collation === null ? '' : ` COLLATE ${String(row.collation)}`
    text.set(field, {
      read: (place) => `CAST(${place} AS ${type})${collation}`,
      exactEquality:
        (type === 'text' || type === 'character varying') && row.deterministic === true,
    })
  }
  return text
}

/** A name of MySQL's catalog that SQL may hold as it is (a character set, a collation). */
const PLAIN_NAME = /^[A-Za-z0-9_]+$/

/** Each text field's column as MySQL's catalog sets its character set and collation. */
async function mysqlColumns(client: ChangeLogClient, model: ModelColumns): Promise<ColumnsText> {
  const rows = await rowsOf(
    client,
    `SELECT COLUMN_NAME AS name, CHARACTER_SET_NAME AS charset, COLLATION_NAME AS collation
     FROM information_schema.COLUMNS
     WHERE TABLE_SCHEMA = COALESCE(?, DATABASE()) AND TABLE_NAME = ?`,
    model.table.schema,
    model.table.name
  )
  const byColumn = new Map(rows.map((row) => [String(row.name), row]))
  const text: ColumnsText = new Map()
  for (const [field, column] of Object.entries(model.columns)) {
    const row = byColumn.get(column)
    // A column of no character set (not text) is left unread: its scopes are refused.
    if (!row || row.charset == null || row.collation == null) continue
    const [charset, collation] = [String(row.charset), String(row.collation)]
    if (!PLAIN_NAME.test(charset) || !PLAIN_NAME.test(collation)) continue
    text.set(field, {
      read: (place) => `CONVERT(${place} USING ${charset}) COLLATE ${collation}`,
      exactEquality: false,
    })
  }
  return text
}

/** The text comparison of a model's fields on `provider`, asking `client`. */
export function textComparison(
  client: ChangeLogClient,
  provider: string | undefined,
  model: ModelColumns | undefined
): TextComparison {
  if (provider === 'sqlite')
    return {
      ready: async () => {},
      covers: () => true,
      holds: async (_field, own, op, values) => byCodePoints(own, op, values),
    }
  const read =
    provider === 'postgresql' ? postgresColumns : provider === 'mysql' ? mysqlColumns : undefined
  const place = (index: number) => (provider === 'postgresql' ? `$${index}` : '?')
  let loading: Promise<ColumnsText> | undefined
  let columns: ColumnsText = new Map()
  return {
    async ready() {
      if (!read || !model) return
      loading ??= read(client, model)
      try {
        columns = await loading
      } catch (error) {
        // Read again by the next request: the database may answer then.
        loading = undefined
        throw error
      }
    },
    covers: (field) => columns.has(field),
    async holds(field, own, op, values) {
      const column = columns.get(field)
      if (!column) throw new TypeError(`The text of ${field} is not read: ask covers first.`)
      if (op === 'in' && values.length === 0) return false
      if (column.exactEquality && (op === 'equals' || op === 'in')) return values.includes(own)
      const others = values.map((_, index) => column.read(place(index + 2)))
      const test =
        op === 'in'
          ? `${column.read(place(1))} IN (${others.join(', ')})`
          : `${column.read(place(1))} ${SQL_OPS[op]} ${others[0]}`
      const [row] = await rowsOf(
        client,
        `SELECT CASE WHEN ${test} THEN 1 ELSE 0 END AS held`,
        own,
        ...values
      )
      return Number(row?.held) === 1
    },
  }
}
