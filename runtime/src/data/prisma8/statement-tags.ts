/**
 * @module
 * The cache tags a Prisma 8 write statement purges (docs/caching.md#purge-on-write-on-prisma-8):
 * those a Prisma 7 write purges (data/written-rows.ts) as far as the statement tells them. Prisma 8
 * hands its middleware the statement, not the call that made it: the table it writes (named in
 * the contract's models), the columns an update sets, and, when it has `RETURNING` (every ORM
 * write), the rows it wrote. So:
 *
 * - every write purges its model's tag (`Book`), but an insert or a delete of one row returning
 *   every field of it, which purges the value tags of its values and `Book:any` instead
 *   (data/value-tags.ts): the pages whose conditions the row meets;
 * - an update or delete returning its rows purges their IRIs (`/books/3`), unless the update sets
 *   a key column (the IRI before it is in no row returned) or a row lacks a key column;
 * - an update or delete without `RETURNING` (the SQL builder's, the ORM's `updateAndCount` and
 *   `deleteAndCount`) names no row: the model's rows tag (`Book:rows`);
 * - an insert purges no row (no answer shows a row before it exists), unless it is an upsert
 *   (`ON CONFLICT DO UPDATE`), which then purges as an update;
 * - a delete also purges, by their model and rows tags, every model its relations reach, as a
 *   Prisma 7 delete does (a cascade or `SetNull` changes them);
 * - a nested ORM write is statements of its own, each purging as above.
 *
 * Raw SQL (`db.raw`) names no table: it purges nothing.
 */
import { rowsTag } from '../../contract/cache-tags.js'
import { keyFields } from '../../contract/keys.js'
import { adapterTimestamp } from '../compiled/server-timestamp.js'
import { rowValueTags } from '../value-tags.js'
import { nestedModels, ownForeignKeys, type RelationTargets } from '../written-models.js'
import type { RowIris, WriteTags } from '../written-rows.js'

/**
 * What the tags read of a write statement's AST (orm-family-sql's `InsertAst`, `UpdateAst`,
 * `DeleteAst`, the `plan.ast` its middleware sees): its kind, its table, the columns an update
 * or an upsert sets, and the columns its `RETURNING` projects under each alias.
 */
export interface StatementAst {
  readonly kind: string
  readonly table?: { readonly name?: string; readonly namespaceId?: string | undefined }
  readonly set?: Readonly<Record<string, unknown>>
  readonly onConflict?: {
    readonly action?: { readonly kind?: string; readonly set?: Readonly<Record<string, unknown>> }
  }
  readonly returning?: ReadonlyArray<{
    readonly alias?: string
    readonly expr?: { readonly kind?: string; readonly column?: string }
  }>
}

/**
 * A model of the contract as the tags read it: its name, by column its fields, and by enum field
 * the member each value stored names (the client's name of a value a `@map` stores otherwise).
 */
interface StoredModel {
  readonly name: string
  readonly fields: ReadonlyMap<string, string>
  readonly enums: ReadonlyMap<string, ReadonlyMap<unknown, string>>
}

/** The contract's models as the tags read them: by table, and their relations. */
export interface ContractModels {
  /** By `namespace.table`, the model stored in it. */
  readonly tables: ReadonlyMap<string, StoredModel>
  /** By model, its relation fields and the model each leads to (for a delete's cascades). */
  readonly targets: RelationTargets
}

/**
 * What is read of a Prisma 8 contract (`contract.json` as the runtime deserializes it, the
 * middleware's `ctx.contract`): its models by namespace, each with its relations and its
 * storage (table, namespace, the column of each field).
 */
interface ContractShape {
  domain?: {
    namespaces?: Record<
      string,
      {
        enum?: Record<string, { members?: { name?: string; value?: unknown }[] }>
        models?: Record<
          string,
          {
            fields?: Record<string, { valueSet?: { entityName?: string } }>
            relations?: Record<string, { to?: { model?: string } }>
            storage?: {
              table?: string
              namespaceId?: string
              fields?: Record<string, { column?: string }>
            }
          }
        >
      }
    >
  }
}

/** By enum field of a model, the member each stored value names. */
function enumFields(
  fields: Record<string, { valueSet?: { entityName?: string } }>,
  enums: Record<string, { members?: { name?: string; value?: unknown }[] }>
): Map<string, Map<unknown, string>> {
  const byField = new Map<string, Map<unknown, string>>()
  for (const [field, { valueSet }] of Object.entries(fields)) {
    const members = valueSet?.entityName === undefined ? undefined : enums[valueSet.entityName]
    if (!members) continue
    byField.set(
      field,
      new Map((members.members ?? []).map(({ name, value }) => [value ?? name, name ?? '']))
    )
  }
  return byField
}

const tableKey = (namespace: string | undefined, table: string) => `${namespace ?? ''}.${table}`

/** Reads the models of a Prisma 8 contract; an unknown shape reads as no model. */
export function contractModels(contract: unknown): ContractModels {
  const tables = new Map<string, StoredModel>()
  const targets = new Map<string, Map<string, string>>()
  const namespaces = (contract as ContractShape | undefined)?.domain?.namespaces ?? {}
  for (const [namespace, { models = {}, enum: enums = {} }] of Object.entries(namespaces)) {
    for (const [name, model] of Object.entries(models)) {
      const relations = new Map<string, string>()
      for (const [field, relation] of Object.entries(model.relations ?? {}))
        if (relation.to?.model !== undefined) relations.set(field, relation.to.model)
      targets.set(name, relations)
      const storage = model.storage
      if (storage?.table === undefined) continue
      const fields = new Map<string, string>()
      for (const [field, { column }] of Object.entries(storage.fields ?? {}))
        fields.set(column ?? field, field)
      const stored = { name, fields, enums: enumFields(model.fields ?? {}, enums) }
      tables.set(tableKey(storage.namespaceId ?? namespace, storage.table), stored)
      // A statement whose table carries no namespace: the first model stored under its name.
      if (!tables.has(tableKey(undefined, storage.table)))
        tables.set(tableKey(undefined, storage.table), stored)
    }
  }
  return { tables, targets }
}

/** The statement kinds that write rows. */
const WRITES: ReadonlySet<string> = new Set(['insert', 'update', 'delete'])

/** Whether `ast` is a write of rows (an insert, an update or a delete). */
export const isWrite = (ast: unknown): ast is StatementAst =>
  typeof ast === 'object' && ast !== null && WRITES.has((ast as { kind?: unknown }).kind as string)

type Row = Readonly<Record<string, unknown>>

/**
 * A key's value as the driver returned it, read as Prisma 7's client would read it, since item
 * IRIs are written from such values: a DateTime's text (PostgreSQL's own,
 * `2026-01-02 03:04:05.678+00`) becomes a `Date`; one no `Date` holds (`infinity`, a year before
 * 1 AD) is undefined, so that the write purges its model's rows tag.
 */
function keyValue(kind: string, value: unknown): unknown {
  if (kind !== 'DateTime' || typeof value !== 'string') return value
  const date = new Date(adapterTimestamp(value))
  return Number.isNaN(date.getTime()) ? undefined : date
}

/**
 * The keys of `rows` as `resource` names them (field values by field name), read through the
 * `RETURNING` aliases of `ast`; undefined when a row lacks a key field.
 */
function rowKeys(
  resource: RowIris,
  model: StoredModel,
  ast: StatementAst,
  rows: readonly Row[]
): Row[] | undefined {
  // alias -> field: the driver's rows are keyed by the projection's aliases.
  const aliases = new Map<string, string>()
  for (const item of ast.returning ?? []) {
    const column = item.expr?.kind === 'column-ref' ? item.expr.column : undefined
    const field = column === undefined ? undefined : model.fields.get(column)
    if (item.alias !== undefined && field !== undefined) aliases.set(item.alias, field)
  }
  const kinds = new Map(keyFields(resource.id).map(({ name, kind }) => [name, kind]))
  const names = [...kinds.keys()]
  const keys: Row[] = []
  for (const row of rows) {
    const key: Record<string, unknown> = {}
    for (const [alias, value] of Object.entries(row)) {
      const field = aliases.get(alias)
      const kind = field === undefined ? undefined : kinds.get(field)
      if (field !== undefined && kind !== undefined) key[field] = keyValue(kind, value)
    }
    if (names.some((name) => key[name] === undefined || key[name] === null)) return undefined
    keys.push(key)
  }
  return keys
}

/**
 * The value tags and `Book:any` an insert or a delete of one row purges (data/value-tags.ts), read
 * from the row its `RETURNING` gave: every field of its model by its alias, an enum's stored value
 * as its member's name; undefined when the row lacks a field or holds a value no member stores.
 */
function rowTags(
  model: StoredModel,
  ast: StatementAst,
  row: Row,
  tagged: ReadonlySet<string>
): string[] | undefined {
  const values: Record<string, unknown> = {}
  for (const item of ast.returning ?? []) {
    const column = item.expr?.kind === 'column-ref' ? item.expr.column : undefined
    const field = column === undefined ? undefined : model.fields.get(column)
    if (item.alias === undefined || field === undefined || !(item.alias in row)) continue
    const value = row[item.alias]
    const members = model.enums.get(field)
    if (members && value !== null && !members.has(value)) return undefined
    values[field] = members && value !== null ? members.get(value) : value
  }
  return rowValueTags(model.name, values, new Set(model.fields.values()), tagged)
}

/** The columns an update or an upsert sets; undefined for a plain insert or a delete. */
function setColumns(ast: StatementAst): readonly string[] | undefined {
  if (ast.kind === 'update') return Object.keys(ast.set ?? {})
  const set = ast.kind === 'insert' ? ast.onConflict?.action?.set : undefined
  return set === undefined ? undefined : Object.keys(set)
}

/** Whether `columns` holds a column of `resource`'s key. */
function setsKey(resource: RowIris, model: StoredModel, columns: readonly string[]) {
  const names = new Set(keyFields(resource.id).map(({ name }) => name))
  return columns.some((column) => names.has(model.fields.get(column) ?? column))
}

/**
 * What a write statement purges once committed (the module's list); undefined when it writes a
 * table no model of the contract is stored in. `rows` are the rows its `RETURNING` gave (the
 * driver's, keyed by alias), undefined when it had none.
 */
export function statementTags(
  models: ContractModels,
  resources: ReadonlyMap<string, RowIris>,
  ast: StatementAst,
  rows: readonly Row[] | undefined
): WriteTags | undefined {
  const table = ast.table?.name
  const model =
    table === undefined
      ? undefined
      : (models.tables.get(tableKey(ast.table?.namespaceId, table)) ??
        models.tables.get(tableKey(undefined, table)))
  if (!model) return undefined
  const name = model.name
  const owned = ownForeignKeys(resources, models.targets)
  const set = setColumns(ast)
  // A plain insert or a delete of one row whose values it returned: the pages its values narrow to.
  const row = ast.kind !== 'update' && set === undefined && rows?.length === 1 ? rows[0] : undefined
  // A model whose resource names no tagged fields purges its model tag (data/written-rows.ts).
  const tagged = resources.get(name)?.valueFields
  const values = row && tagged && rowTags(model, ast, row, tagged)
  const tags = new Set(values ?? [name])
  const written = { tags, models: new Set([name]) }
  if (ast.kind === 'delete')
    for (const reached of nestedModels(models.targets, name, 'delete', undefined, owned)) {
      written.models.add(reached)
      tags.add(reached)
      tags.add(rowsTag(reached))
    }
  // A plain insert: its rows existed in no answer.
  if (ast.kind === 'insert' && set === undefined) return written
  const resource = resources.get(name)
  const keys =
    resource && rows && ast.returning?.length && !(set && setsKey(resource, model, set))
      ? rowKeys(resource, model, ast, rows)
      : undefined
  if (!resource || !keys) tags.add(rowsTag(name))
  else for (const key of keys) tags.add(resource.iriOf(key, ''))
  return written
}
