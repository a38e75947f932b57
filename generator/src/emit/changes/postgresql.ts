/**
 * The change log's triggers on PostgreSQL (docs/syncing.md): each row's change stamped with the
 * writing transaction's id (`pg_current_xact_id()`), which readers compare with the oldest
 * transaction still running, so that they only read below what can no longer change.
 */
import type { ChangeLogTables, ResourceModel, TableNameModel } from '../../config/schema/model.js'
import {
  type ChangeLogDialect,
  chunkedObject,
  keyColumns,
  literal,
  objectName,
  quoteWith,
  rowObjects,
} from './dialect.js'

const quote = quoteWith('"')

const dialect: ChangeLogDialect = {
  quote,
  object: (pairs) =>
    chunkedObject(
      pairs,
      (chunk) =>
        `jsonb_build_object(${chunk.map(([key, value]) => `${key}, ${value}`).join(', ')})`,
      (object, chunk) =>
        `(${object} || jsonb_build_object(${chunk.map(([key, value]) => `${key}, ${value}`).join(', ')}))`
    ),
  value(row, column) {
    const reference = `${row}.${quote(column.column)}`
    if (column.type === 'BigInt' || column.type === 'Decimal') return `${reference}::text`
    if (column.type === 'Bytes') return `encode(${reference}, 'hex')`
    return reference
  },
}

const table = (name: TableNameModel) =>
  name.schema ? `${quote(name.schema)}.${quote(name.name)}` : quote(name.name)

/** The function and trigger that log the changes of `resource`'s rows. */
export function postgresqlTriggers(resource: ResourceModel, tables: ChangeLogTables): string[] {
  const log = table(tables.log)
  const target = table(resource.table)
  const functionName = objectName('hydra_changes', resource.table.name)
  const fn = resource.table.schema
    ? `${quote(resource.table.schema)}.${quote(functionName)}`
    : quote(functionName)
  const entry = (op: string, row: 'NEW' | 'OLD') => {
    const { key, image } = rowObjects(dialect, resource, row)
    return `INSERT INTO ${log} ("tx", "model", "op", "key", "image") VALUES (pg_current_xact_id()::text::bigint, ${literal(resource.name)}, ${op}, ${key}, ${image});`
  }
  const keys = keyColumns(resource)
  const moved = keys
    .map((column) => `NEW.${quote(column.column)} IS DISTINCT FROM OLD.${quote(column.column)}`)
    .join(' OR ')
  const body = [
    `CREATE OR REPLACE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $hydra$`,
    'BEGIN',
    "  IF TG_OP = 'INSERT' THEN",
    `    ${entry("'insert'", 'NEW')}`,
    '  ELSE',
    `    ${entry('lower(TG_OP)', 'OLD')}`,
    `    IF TG_OP = 'UPDATE' AND (${moved}) THEN`,
    `      ${entry("'insert'", 'NEW')}`,
    '    END IF;',
    '  END IF;',
    '  RETURN NULL;',
    'END',
    '$hydra$;',
  ].join('\n')
  const trigger = quote('hydra_changes')
  return [
    body,
    `DROP TRIGGER IF EXISTS ${trigger} ON ${target};`,
    `CREATE TRIGGER ${trigger} AFTER INSERT OR UPDATE OR DELETE ON ${target} FOR EACH ROW EXECUTE FUNCTION ${fn}();`,
  ]
}
