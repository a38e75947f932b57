/**
 * @module
 * The `compiled` engine's reads of a page that embeds to-one relations (docs/member-shape.md), or
 * shows a link whose key only the related row holds (a relation read with its key alone,
 * plan/read-shape.ts): the page's statement with each related table joined, as Prisma's nested
 * `select` reads it in the page's query. Each relation is a `LEFT JOIN` of a derived table of the related columns under
 * names of their own, so that the page's conditions and order, written with its own columns'
 * plain names (compiled/sql.ts), name no column of a joined table:
 *
 * ```sql
 * SELECT "id", "bookId", "__e0"."__e0_k", "__e0"."__e0_0" FROM "Loan"
 *   LEFT JOIN (SELECT "id" AS "__e0_k", "title" AS "__e0_0" FROM "Book") AS "__e0"
 *   ON "__e0"."__e0_k" = "Loan"."bookId" WHERE … ORDER BY … LIMIT …
 * ```
 *
 * SQLite, PostgreSQL and MariaDB merge such a derived table into the join; a foreign key on the
 * related side (`"articleId"` of an article's body) is unique, so the join adds no row. The related
 * row is the object of the asked fields Prisma answers, typed as its own columns are
 * (compiled/row-values.ts), or null when the member has none (no related row joined: its `k` is NULL). Which related rows the caller may see is
 * checked after the page, as on the `prisma` engine (embedded-scope.ts).
 */
import type { CompiledJoin, CompiledModel, ModelSource } from '../../contract/model-source.js'
import { dialectOf, qualifiedTable, selectStatement } from '../../database/dialects.js'
import type { ReadShape } from '../../plan/read-shape.js'
import { type ColumnReads, columnsOf, keyColumns } from './columns.js'
import { rowReader } from './row-values.js'
import { CompiledStatements } from './sql.js'

/** One relation a page embeds: its field, how it is joined, and the related fields asked. */
interface Embed {
  field: string
  relation: CompiledJoin
  fields: readonly string[]
}

/**
 * The model's own fields and the embeds of `shape`, or undefined when one is neither a column of
 * the model's `select` nor a relation joined with fields of its related columns.
 */
function embedsOf(
  model: ModelSource,
  compiled: CompiledModel,
  shape: ReadShape
): { own: readonly string[]; embeds: Embed[] } | undefined {
  const own = shape.fields
  if (!own.every((name) => model.select[name] === true && compiled.columns[name])) return undefined
  const embeds: Embed[] = []
  for (const { relation: field, fields } of shape.joined) {
    const relation = compiled.joins?.[field]
    if (!relation || !fields.every((name) => relation.columns[name])) return undefined
    embeds.push({ field, relation, fields })
  }
  return { own, embeds }
}

/** The name of the `index`th embed's derived table, and of its key (`k`) and field columns. */
const aliasOf = (index: number, column?: number | `k${string}`) =>
  column === undefined ? `__e${index}` : `__e${index}_${column}`

/**
 * The `LEFT JOIN` of one embed's derived table to the page's `table`, on each pair of its columns
 * (the first's related column named `k`, the others' `k1`, `k2`…).
 */
function joinOf(provider: string, table: string, embed: Embed, index: number): string {
  const { quote } = dialectOf(provider)
  const { relation, fields } = embed
  const pairs = [relation.on, ...(relation.alsoOn ?? [])]
  const keyOf = (at: number) => aliasOf(index, at === 0 ? 'k' : `k${at}`)
  const columns = [
    ...pairs.map(([, to], at) => `${quote(to)} AS ${quote(keyOf(at))}`),
    ...columnsOf(relation.columns, fields).map(
      ([column], at) => `${quote(column)} AS ${quote(aliasOf(index, at))}`
    ),
  ]
  const derived = `SELECT ${columns.join(', ')} FROM ${qualifiedTable(provider, relation.table)}`
  const alias = quote(aliasOf(index))
  const on = pairs.map(([from], at) => `${alias}.${quote(keyOf(at))} = ${table}.${quote(from)}`)
  return ` LEFT JOIN (${derived}) AS ${alias} ON ${on.join(' AND ')}`
}

/** The columns one embed adds to the page's select list: its related key, then its fields. */
function selectedOf(provider: string, embed: Embed, index: number): string[] {
  const { quote } = dialectOf(provider)
  const alias = quote(aliasOf(index))
  const names = [aliasOf(index, 'k'), ...embed.fields.map((_, at) => aliasOf(index, at))]
  return names.map((name) => `${alias}.${quote(name)}`)
}

/**
 * The reader of rows holding the page's own fields, then each embed's related key and fields:
 * the object Prisma answers, each embed its related row's fields or null.
 */
function embeddedReader(
  own: ColumnReads['read'],
  width: number,
  embeds: readonly Embed[],
  typed: boolean,
  enums: CompiledModel['enums']
): ColumnReads['read'] {
  const readers = embeds.map(({ field, relation, fields }) => ({
    field,
    size: fields.length,
    read: rowReader(
      fields,
      columnsOf(relation.columns, fields).map((column) => column[1]),
      typed,
      enums
    ),
  }))
  return (row) => {
    const member = own(row) as Record<string, unknown>
    let at = width
    for (const { field, size, read } of readers) {
      member[field] = row[at] === null ? null : read(row.slice(at + 1, at + 1 + size))
      at += 1 + size
    }
    return member
  }
}

/**
 * The reads of a page's shape that embeds to-one relations, each joined; undefined when it
 * embeds none, or one the model's compiled form does not join (docs/performance.md).
 */
export function embeddedReads(
  model: ModelSource,
  compiled: CompiledModel,
  shape: ReadShape,
  typed: boolean
): ColumnReads | undefined {
  const parts = embedsOf(model, compiled, shape)
  if (!parts || parts.embeds.length === 0) return undefined
  const { own, embeds } = parts
  // A joined column named as one of the model's would make the model's ambiguous.
  const names = [...own, ...Object.values(compiled.columns).map(([column]) => column)]
  if (own.length === 0 || names.some((name) => name.startsWith('__e'))) return undefined
  const { provider } = model
  const table = qualifiedTable(provider, model.table)
  const ownColumns = columnsOf(compiled.columns, own)
  const from = ` FROM ${table}`
  const base = selectStatement(
    provider,
    model.table,
    own.map((field, index) => [field, ownColumns[index]?.[0] ?? field])
  )
  const joined = embeds.flatMap((embed, index) => selectedOf(provider, embed, index))
  const statement = `${base.slice(0, -from.length)}, ${joined.join(', ')}${from}`
  const joins = embeds.map((embed, index) => joinOf(provider, table, embed, index)).join('')
  const statements = new CompiledStatements(
    { ...compiled, select: statement },
    provider,
    table,
    joins,
    keyColumns(compiled.columns, model.key)
  )
  const read = rowReader(
    own,
    ownColumns.map((column) => column[1]),
    typed,
    compiled.enums
  )
  return {
    statements,
    read: embeddedReader(read, own.length, embeds, typed, compiled.enums),
    width: own.length + joined.length,
  }
}
