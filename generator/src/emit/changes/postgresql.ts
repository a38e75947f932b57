/**
 * The change log's triggers on PostgreSQL (docs/syncing.md): each row's change stamped with the
 * writing transaction's id (`pg_current_xact_id()`), which readers compare with the oldest
 * transaction still running, so that they only read below what can no longer change.
 */
import type { ChangeLogTables, ResourceModel, TableNameModel } from '../../config/schema/model.js'
import {
  argumentPairs,
  type ChangeLogDialect,
  chunkedObject,
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
  object: (pairs) =>
    chunkedObject(
      pairs,
      (chunk) => `jsonb_build_object(${argumentPairs(chunk)})`,
      (object, chunk) => `(${object} || jsonb_build_object(${argumentPairs(chunk)}))`
    ),
  value(row, column) {
    const reference = `${row}.${quote(column.column)}`
    if (column.type === 'BigInt' || column.type === 'Decimal') return `${reference}::text`
    if (column.type === 'Bytes') return `encode(${reference}, 'hex')`
    return reference
  },
  enumText: (reference) => `${reference}::text`,
}

const table = (name: TableNameModel) =>
  name.schema ? `${quote(name.schema)}.${quote(name.name)}` : quote(name.name)

/** The function and trigger that log the changes of `resource`'s rows. */
export function postgresqlTriggers(
  resource: ResourceModel,
  tables: ChangeLogTables,
  enums: StoredEnums
): string[] {
  const log = table(tables.log)
  const target = table(resource.table)
  const functionName = objectName('hydra_changes', resource.table.name)
  const fn = resource.table.schema
    ? `${quote(resource.table.schema)}.${quote(functionName)}`
    : quote(functionName)
  const entry = (op: string, row: 'NEW' | 'OLD') => {
    const { key, image } = rowObjects(dialect, resource, row, enums)
    // `at` in UTC, not the writer's session time zone (docs/syncing.md#retention).
    return `INSERT INTO ${log} ("tx", "model", "op", "key", "image", "at") VALUES (pg_current_xact_id()::text::bigint, ${literal(resource.name)}, ${op}, ${key}, ${image}, now() AT TIME ZONE 'UTC');`
  }
  const keys = keyColumns(resource)
  const moved = keys
    .map((column) => `NEW.${quote(column.column)} IS DISTINCT FROM OLD.${quote(column.column)}`)
    .join(' OR ')
  const code = [
    'BEGIN',
    "  IF TG_OP = 'INSERT' THEN",
    `    ${entry("'insert'", 'NEW')}`,
    "  ELSIF TG_OP = 'DELETE' THEN",
    `    ${entry("'delete'", 'OLD')}`,
    `  ELSIF ${moved} THEN`,
    `    ${entry("'delete'", 'OLD')}`,
    `    ${entry("'insert'", 'NEW')}`,
    '  ELSE',
    `    ${entry("'update'", 'OLD')}`,
    '  END IF;',
    '  RETURN NULL;',
    'END',
  ].join('\n')
  const tag = dollarTag(code)
  // The log's table is named unqualified (but with @@schema): the function resolves it through
  // the search_path of its creation (the migration's), not through each writer's.
  const body = `CREATE OR REPLACE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS ${tag}\n${code}\n${tag};`
  const trigger = quote('hydra_changes')
  return [
    body,
    `DROP TRIGGER IF EXISTS ${trigger} ON ${target};`,
    `CREATE TRIGGER ${trigger} AFTER INSERT OR UPDATE OR DELETE ON ${target} FOR EACH ROW EXECUTE FUNCTION ${fn}();`,
  ]
}

/** A dollar-quote tag that `code` does not hold, so that no name in it can end the body. */
function dollarTag(code: string): string {
  let tag = '$hydra$'
  for (let count = 1; code.includes(tag); count += 1) tag = `$hydra${count}$`
  return tag
}
