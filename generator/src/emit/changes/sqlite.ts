/**
 * The change log's triggers on SQLite (docs/syncing.md): SQLite has one writer at a time, so the
 * log's `AUTOINCREMENT` key, taken inside the writing transaction, follows commit order.
 */
import type { ChangeLogTables, ResourceModel } from '../../config/schema/model.js'
import {
  type ChangeLogDialect,
  calledObject,
  keyColumns,
  literal,
  objectName,
  quoteWith,
  rowObjects,
  type StoredEnums,
} from './dialect.js'

const quote = quoteWith('"')

const dialect: ChangeLogDialect = {
  quote,
  object: calledObject('json_object', 'json_insert'),
  value(row, column) {
    const reference = `${row}.${quote(column.column)}`
    if (column.type === 'BigInt' || column.type === 'Decimal') return `CAST(${reference} AS TEXT)`
    // hex(NULL) is '': a missing value stays null.
    if (column.type === 'Bytes')
      return `CASE WHEN ${reference} IS NULL THEN NULL ELSE lower(hex(${reference})) END`
    // SQLite keeps JSON as text: json() makes it JSON again, as the other databases log it.
    if (column.type === 'Json') return `json(${reference})`
    return reference
  },
  enumText: (reference) => reference,
}

/** The three triggers that log the changes of `resource`'s rows. */
export function sqliteTriggers(
  resource: ResourceModel,
  tables: ChangeLogTables,
  enums: StoredEnums
): string[] {
  const log = quote(tables.log.name)
  const target = quote(resource.table.name)
  const columns = '("model", "op", "key", "image")'
  const values = (op: string, row: 'NEW' | 'OLD') => {
    const { key, image } = rowObjects(dialect, resource, row, enums)
    return `${literal(resource.name)}, ${literal(op)}, ${key}, ${image}`
  }
  const moved = keyColumns(resource)
    .map((column) => `NEW.${quote(column.column)} IS NOT OLD.${quote(column.column)}`)
    .join(' OR ')
  const trigger = (event: 'insert' | 'update' | 'delete', statements: string[]) => {
    const name = quote(objectName('hydra_changes', resource.table.name, event))
    return [
      `DROP TRIGGER IF EXISTS ${name};`,
      [
        `CREATE TRIGGER ${name} AFTER ${event.toUpperCase()} ON ${target} FOR EACH ROW BEGIN`,
        ...statements.map((statement) => `  ${statement}`),
        'END;',
      ].join('\n'),
    ]
  }
  return [
    ...trigger('insert', [`INSERT INTO ${log} ${columns} VALUES (${values('insert', 'NEW')});`]),
    ...trigger('update', [
      `INSERT INTO ${log} ${columns} SELECT ${values('update', 'OLD')} WHERE NOT (${moved});`,
      `INSERT INTO ${log} ${columns} SELECT ${values('delete', 'OLD')} WHERE ${moved};`,
      `INSERT INTO ${log} ${columns} SELECT ${values('insert', 'NEW')} WHERE ${moved};`,
    ]),
    ...trigger('delete', [`INSERT INTO ${log} ${columns} VALUES (${values('delete', 'OLD')});`]),
  ]
}
