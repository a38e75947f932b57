/**
 * @module
 * The `compiled` engine's reads of rows of any model of the schema (the `prisma` engine's
 * `findManyEach`): what a page's embeds read after it, the first pages of its to-many relations
 * above all (embedded-pages.ts), written from the registry of compiled models (the generated
 * `compiledModels`) by the model's delegate. The rows a read asks `each` of are limited value by
 * value (compiled/sql.ts `eachOf`): every member's first page in one statement. A
 * read of a model the registry does not hold, of a field that is not a column, or of a condition
 * the SQL cannot write is undefined here: the layer reads it with Prisma.
 */
import type { CompiledModel, CompiledTable, ModelSource } from '../../contract/model-source.js'
import { qualifiedTable } from '../../database/dialects.js'
import type { RowsRead } from '../model-reads.js'
import { columnReads } from './columns.js'
import type { SqlQuery } from './query.js'
import type { MembersTable } from './sql.js'

/** One read written: its statement, and the reader making each of its rows Prisma's object. */
export interface RelatedQuery {
  query: SqlQuery
  read: (row: readonly unknown[]) => object
}

/** A model's delegate (`prisma.bookLoan`): its name with a lower-case first letter, as Prisma names it. */
const delegateOf = (name: string): string => `${name.charAt(0).toLowerCase()}${name.slice(1)}`

/**
 * The writer of reads of every model the registry of `compiled` holds, on `model`'s database;
 * undefined when the model's compiled form has no registry.
 */
export function relatedReads(
  model: ModelSource,
  compiled: CompiledModel,
  typed: boolean
): ((read: RowsRead) => RelatedQuery | undefined) | undefined {
  const { models } = compiled
  if (!models) return undefined
  const byDelegate = new Map(
    Object.entries(models).map(([name, table]) => [delegateOf(name), { name, table }])
  )
  return (read) => {
    const target = byDelegate.get(read.delegate)
    return target && writeRead(model.provider, target.name, target.table, compiled, read, typed)
  }
}

/** `read` of the model `name` (its `table`) as one statement, or undefined. */
function writeRead(
  provider: string,
  name: string,
  table: CompiledTable,
  compiled: CompiledModel,
  read: RowsRead,
  typed: boolean
): RelatedQuery | undefined {
  const { fields, joined } = read.shape
  if (fields.length === 0 || joined.length > 0) return undefined
  if (fields.some((field) => !table.columns[field])) return undefined
  const { statements, read: reader } = columnReads(
    { provider, table: table.table },
    { columns: table.columns, name, models: compiled.models, enums: compiled.enums },
    fields,
    typed
  )
  const { condition, order, take, each } = read
  const members = each && membersOf(provider, table, compiled, order?.[0]?.field)
  const query =
    (each && statements.eachOf({ condition, order }, each.values, each.take, fields, members)) ||
    statements.rows({ condition, order, take })
  return query && { query, read: reader }
}

/**
 * The table of the members whose first rows of `table` a read asks for, each member's by the
 * value of `field`: the model `field`'s own foreign key of one column leads to, and the key field
 * it references; undefined when it leads to none of the registry.
 */
function membersOf(
  provider: string,
  table: CompiledTable,
  compiled: CompiledModel,
  field: string | undefined
): MembersTable | undefined {
  const column = field === undefined ? undefined : table.columns[field]?.[0]
  const relation = Object.values(table.relations).find(
    ({ many, owned, on, through }) =>
      !many && owned && !through && on.length === 1 && on[0]?.[0] === column
  )
  const target = relation && compiled.models?.[relation.model]
  const referenced = relation?.on[0]?.[1]
  if (!target || referenced === undefined) return undefined
  const key = Object.keys(target.columns).find((name) => target.columns[name]?.[0] === referenced)
  return key === undefined
    ? undefined
    : { table: qualifiedTable(provider, target.table), columns: target.columns, key }
}
