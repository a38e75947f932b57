/**
 * The change log's tables (docs/syncing.md): a schema whose models say `@changes` declares the
 * log as a model of its own, mapped to `hydra_changes` (and on MySQL/MariaDB its clock, mapped to
 * `hydra_changes_clock`), so that `prisma migrate` creates them and never drops them. The
 * triggers that fill the log are the generator's (`changes.sql`, generator/src/emit/changes/).
 */
import type { DMMF } from '@prisma/generator-helper'
import type { Problem } from '../../problems.js'
import type { ChangeLogTables, ResourceModel, TableNameModel } from '../schema/model.js'
import { unloggableModels } from './change-log-models.js'

/** The log's table name, and its clock's (MySQL/MariaDB). */
const CHANGE_LOG_TABLE = 'hydra_changes'
const CHANGE_CLOCK_TABLE = 'hydra_changes_clock'

/** The providers whose triggers the generator writes. */
const PROVIDERS = ['sqlite', 'postgresql', 'mysql'] as const

/**
 * A field's Prisma type (or the types it may have), whether it is required, and the function of
 * the `@default` it needs, when the triggers leave the column to it.
 */
type FieldSpec = readonly [string | readonly string[], boolean, (string | undefined)?, NativeTypes?]

/** The native types a field may declare (`@db.Timestamp`), none declared being allowed too. */
type NativeTypes = readonly string[]

/**
 * Each field of the log's model. The id is an `Int` on SQLite, where only an `Int` id is the
 * table's `AUTOINCREMENT` key (Prisma makes a BigInt one a plain BIGINT column, which nothing
 * fills); elsewhere a BigInt (an `Int` holds 2^31 changes). The triggers write the id on
 * MySQL/MariaDB only (the clock's value), and the time, in UTC, on PostgreSQL and MySQL/MariaDB
 * only (their `now()` defaults are the session's time zone's): SQLite's defaults write the others
 * (its `now()` is UTC). The time's column holds no time zone (Prisma's default, or
 * `@db.Timestamp`/`@db.DateTime`): a `timestamptz` or MySQL `TIMESTAMP` would read the UTC time
 * written in the writer's session's zone, and retention would compare it in the pruner's.
 */
const logFields = (provider: string): Readonly<Record<string, FieldSpec>> => ({
  id:
    provider === 'sqlite'
      ? ['Int', true, 'autoincrement']
      : provider === 'mysql'
        ? [['BigInt', 'Int'], true]
        : [['BigInt', 'Int'], true, 'autoincrement'],
  tx: ['BigInt', false],
  model: ['String', true],
  op: ['String', true],
  key: ['Json', true],
  image: ['Json', true],
  at:
    provider === 'sqlite'
      ? ['DateTime', true, 'now']
      : ['DateTime', true, undefined, provider === 'mysql' ? ['DateTime'] : ['Timestamp']],
})
const CLOCK_FIELDS: Readonly<Record<string, FieldSpec>> = {
  id: ['Int', true],
  seq: ['BigInt', true],
}

/** The log's model to add to the schema, as docs/syncing.md shows it for `provider`. */
const logModel = (provider: string) => `model HydraChange {
  id    ${provider === 'sqlite' ? 'Int   ' : 'BigInt'}   @id @default(autoincrement())
  tx    BigInt?
  model String
  op    String
  key   Json
  image Json
  at    DateTime @default(now())

  @@index([model, tx, id])
  @@index([at])
  @@map("hydra_changes")
}`
/** The clock's model (MySQL/MariaDB). */
const CLOCK_MODEL = `model HydraChangeClock {
  id  Int    @id
  seq BigInt

  @@map("hydra_changes_clock")
}`

/**
 * The log's tables when some resource says `@changes`, with the problems of the schema's log
 * models (missing, or with a field missing, of another type or without its default) and of the
 * logged models that cannot be logged; `schema`, the schema's text, tells views from models.
 */
export function readChangeLog(
  datamodel: DMMF.Datamodel,
  provider: string,
  resources: readonly ResourceModel[],
  schema?: string
): { tables?: ChangeLogTables; problems: Problem[] } {
  const logged = resources.filter((resource) => resource.changes)
  const first = logged[0]
  if (!first) return { problems: [] }
  const problems: Problem[] = unloggableModels(
    datamodel,
    provider,
    logged,
    [CHANGE_LOG_TABLE, CHANGE_CLOCK_TABLE],
    schema
  )
  const report = (message: string) =>
    problems.push({
      severity: 'error',
      location: `Model "${first.name}"`,
      source: '@changes',
      message,
    })
  if (!(PROVIDERS as readonly string[]).includes(provider)) {
    report(
      `the change log is written for ${PROVIDERS.join(', ')}; this schema's provider is ${provider}`
    )
    return { problems }
  }
  const log = findTable(
    datamodel,
    CHANGE_LOG_TABLE,
    logFields(provider),
    logModel(provider),
    report
  )
  const clock =
    provider === 'mysql'
      ? findTable(datamodel, CHANGE_CLOCK_TABLE, CLOCK_FIELDS, CLOCK_MODEL, report)
      : undefined
  if (!log || (provider === 'mysql' && !clock) || problems.length > 0) return { problems }
  return { tables: { log, ...(clock ? { clock } : {}) }, problems }
}

/** The model mapped to `table` when it has `fields`; reports what is missing with `block`. */
function findTable(
  datamodel: DMMF.Datamodel,
  table: string,
  fields: Readonly<Record<string, FieldSpec>>,
  block: string,
  report: (message: string) => void
): TableNameModel | undefined {
  const model = datamodel.models.find((entry) => (entry.dbName ?? entry.name) === table)
  if (!model) {
    report(
      `the schema has no model mapped to "${table}", which the change log's triggers write: add (docs/syncing.md)\n${block}`
    )
    return undefined
  }
  const wrong = Object.entries(fields).filter(([name, [type, required, value, natives]]) => {
    const field = model.fields.find((entry) => entry.name === name)
    const native = field?.nativeType?.[0]
    return (
      !field ||
      (field.dbName ?? field.name) !== name ||
      !(typeof type === 'string' ? [type] : type).includes(field.type) ||
      field.isRequired !== required ||
      field.isList ||
      (value !== undefined && defaultFunction(field) !== value) ||
      (natives !== undefined && native != null && !natives.includes(native))
    )
  })
  if (wrong.length > 0) {
    const names = wrong.map(
      ([name, [type, required, value, natives]]) =>
        `${name} ${typeof type === 'string' ? type : type[0]}${required ? '' : '?'}${value ? ` @default(${value}())` : ''}${natives ? ` (no @db type, or @db.${natives[0]})` : ''}`
    )
    report(
      `model "${model.name}" (${table}) needs the fields ${names.join(', ')}: write it as (docs/syncing.md)\n${block}`
    )
    return undefined
  }
  return { name: table, schema: model.schema ?? null }
}

/** The function of a field's `@default` (`autoincrement`, `now`), if it has one. */
const defaultFunction = (field: DMMF.Field) =>
  field.default && typeof field.default === 'object' && 'name' in field.default
    ? field.default.name
    : undefined
