/**
 * The change log's triggers on MySQL and MariaDB (docs/syncing.md): each logged change first
 * moves the one-row clock on, whose row lock its transaction then holds until it ends, so that
 * transactions writing logged rows commit one after another and the clock's values, the log's
 * keys, follow commit order.
 */
import type { ChangeLogTables, ResourceModel, TableNameModel } from '../../config/schema/model.js'
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

const quote = quoteWith('`')

const dialect: ChangeLogDialect = {
  quote,
  object: calledObject('JSON_OBJECT', 'JSON_INSERT'),
  value(row, column) {
    const reference = `${row}.${quote(column.column)}`
    if (column.type === 'BigInt' || column.type === 'Decimal') return `CAST(${reference} AS CHAR)`
    if (column.type === 'Bytes') return `LOWER(HEX(${reference}))`
    return reference
  },
  enumText: (reference) => reference,
}

const table = (name: TableNameModel) =>
  name.schema ? `${quote(name.schema)}.${quote(name.name)}` : quote(name.name)

/** The clock's one row, made when missing, starting past the log's last entry. */
export function mysqlClockRow(tables: ChangeLogTables): string {
  const clock = table(tables.clock as TableNameModel)
  return `INSERT IGNORE INTO ${clock} (\`id\`, \`seq\`) SELECT 1, COALESCE(MAX(\`id\`), 0) FROM ${table(tables.log)};`
}

/** The three triggers that log the changes of `resource`'s rows. */
export function mysqlTriggers(
  resource: ResourceModel,
  tables: ChangeLogTables,
  enums: StoredEnums
): string[] {
  const log = table(tables.log)
  const clock = table(tables.clock as TableNameModel)
  const target = table(resource.table)
  const entry = (op: string, row: 'NEW' | 'OLD') => {
    const { key, image } = rowObjects(dialect, resource, row, enums)
    return [
      `INSERT INTO ${clock} (\`id\`, \`seq\`) VALUES (1, 1) ON DUPLICATE KEY UPDATE \`seq\` = \`seq\` + 1;`,
      // `at` in UTC, not the writer's session time zone (docs/syncing.md#retention).
      `INSERT INTO ${log} (\`id\`, \`model\`, \`op\`, \`key\`, \`image\`, \`at\`) SELECT \`seq\`, ${literal(resource.name)}, ${literal(op)}, ${key}, ${image}, UTC_TIMESTAMP(3) FROM ${clock} WHERE \`id\` = 1;`,
    ]
  }
  const moved = keyColumns(resource)
    .map((column) => `NOT (NEW.${quote(column.column)} <=> OLD.${quote(column.column)})`)
    .join(' OR ')
  const trigger = (event: 'insert' | 'update' | 'delete', statements: string[]) => {
    const name = quote(objectName('hydra_changes', resource.table.name, event))
    const qualified = resource.table.schema ? `${quote(resource.table.schema)}.${name}` : name
    return [
      `DROP TRIGGER IF EXISTS ${qualified};`,
      [
        `CREATE TRIGGER ${qualified} AFTER ${event.toUpperCase()} ON ${target} FOR EACH ROW BEGIN`,
        ...statements.map((statement) => `  ${statement}`),
        'END;',
      ].join('\n'),
    ]
  }
  return [
    ...trigger('insert', entry('insert', 'NEW')),
    ...trigger('update', [
      `IF ${moved} THEN`,
      ...[...entry('delete', 'OLD'), ...entry('insert', 'NEW')].map((line) => `  ${line}`),
      'ELSE',
      ...entry('update', 'OLD').map((statement) => `  ${statement}`),
      'END IF;',
    ]),
    ...trigger('delete', entry('delete', 'OLD')),
  ]
}
