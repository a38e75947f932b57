/**
 * @module
 * What the `compiled` engine reads of one `select`: the statements writing its columns and the
 * reader making each of their rows the object Prisma's client answers (compiled/row-values.ts).
 */
import type {
  CompiledColumn,
  CompiledModel,
  ModelKey,
  ModelSource,
} from '../../contract/model-source.js'
import { qualifiedTable, selectStatement } from '../../database/dialects.js'
import { keyNames } from '../row-keys.js'
import { rowReader } from './row-values.js'
import { CompiledStatements } from './sql.js'

/** The statements of one `select`, and the reader of their rows. */
export interface ColumnReads {
  statements: CompiledStatements
  read: (row: readonly unknown[]) => object
  /** How many columns a row of them holds (a page's count comes after them). */
  width: number
}

/** The column and Prisma type of each of `fields`, each a column of `columns`. */
export const columnsOf = (
  columns: CompiledModel['columns'],
  fields: readonly string[]
): CompiledColumn[] => fields.map((field) => columns[field] as CompiledColumn)

/**
 * The columns of `key` among `columns`; none when a field of it is not one (a page is then read
 * in one `SELECT`, compiled/sql.ts).
 */
export function keyColumns(columns: CompiledModel['columns'], key: ModelKey | undefined): string[] {
  const found = (key ? keyNames(key) : []).map((field) => columns[field]?.[0])
  return found.every((column) => column !== undefined) ? (found as string[]) : []
}

/**
 * The reads of `fields`, each a column of the model (`model`: its database and table):
 * `select` when given (the model's own, for its whole `select`), else the `SELECT` of their
 * columns.
 */
export function columnReads(
  model: Pick<ModelSource, 'provider' | 'table'> & { key?: ModelKey | undefined },
  compiled: Omit<CompiledModel, 'select'>,
  fields: readonly string[],
  typed: boolean,
  select?: string
): ColumnReads {
  const columns = columnsOf(compiled.columns, fields)
  const statement =
    select ??
    selectStatement(
      model.provider,
      model.table,
      fields.map((field, index) => [field, (columns[index] as CompiledColumn)[0]])
    )
  const statements = new CompiledStatements(
    { ...compiled, select: statement },
    model.provider,
    qualifiedTable(model.provider, model.table),
    '',
    keyColumns(compiled.columns, model.key)
  )
  const types = columns.map((column) => column[1])
  return { statements, read: rowReader(fields, types, typed, compiled.enums), width: fields.length }
}
