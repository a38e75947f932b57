// MySQL/MariaDB DDL derived mechanically from a Prisma schema's DMMF, for the databases Prisma's
// wasm schema engine cannot reach (it has no MySQL connector; push-schema.mjs). Nothing here is
// written per table: every statement follows from the DMMF by the rules of Prisma's own MySQL
// renderer (prisma-engines: schema-engine/connectors/sql-schema-connector, sql_schema_calculator.rs
// and flavour/mysql/renderer.rs; psl's ConstraintNames), so that a schema applied here and one
// applied by `prisma migrate` / `prisma db push` have the same tables, columns, types, keys,
// indexes and foreign keys, under the same names:
//
//   scalar types   Int INTEGER, BigInt BIGINT, Float DOUBLE, Decimal DECIMAL(65, 30),
//                  String VARCHAR(191), Boolean BOOLEAN (TINYINT(1)), DateTime DATETIME(3),
//                  Json JSON, Bytes LONGBLOB; every `@db.*` native type; enums as ENUM('…')
//   attributes     @id / @@id (PRIMARY KEY), @default (autoincrement() as AUTO_INCREMENT, now()
//                  as CURRENT_TIMESTAMP(p), literals, dbgenerated(…); uuid()/cuid()/nanoid()/
//                  ulid() are the client's), @unique / @@unique (UNIQUE INDEX …_key), @@index
//                  (INDEX …_idx, with length and sort), @@fulltext, map: names, @map / @@map
//   relations      a FOREIGN KEY per relation with fields: ON DELETE RESTRICT (SET NULL when every
//                  field is optional) ON UPDATE CASCADE unless onDelete/onUpdate say otherwise;
//                  implicit many-to-many tables `_Relation` (A, B, `_AB_unique`, `_B_index`, both
//                  foreign keys ON DELETE CASCADE ON UPDATE CASCADE)
//   tables         DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci, as Prisma makes them
//
// Where it differs from Prisma (docs/databases.md says the same):
//   - A foreign key's own `map:` name is not in the DMMF: the default `<table>_<columns>_fkey` is
//     used.
//   - String defaults escape backslashes too (Prisma doubles quotes only, so MySQL would read `\n`
//     in a default as a newline); DateTime literal defaults are written `'YYYY-MM-DD hh:mm:ss.fff'`
//     (UTC), which MariaDB accepts, instead of RFC 3339.
//   - `relationMode = "prisma"`, views, `@@ignore`d models and `Unsupported(…)` fields are not
//     handled: the DMMF leaves them out or cannot say (relationMode), and the project uses none.
//   - It creates a schema; it does not diff one (mysql-push.mjs refuses to change existing tables).

import { createRequire } from 'node:module'
import { stripVTControlCharacters } from 'node:util'

const require = createRequire(import.meta.url)

/** The longest identifier MySQL accepts (psl: MySQL's max_identifier_length). */
export const MAX_IDENTIFIER_LENGTH = 64

/** The character set and collation of every table Prisma creates on MySQL. */
export const TABLE_OPTIONS = 'DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci'

/** Prisma's default native type of each scalar type on MySQL (psl's MySQL connector). */
const DEFAULT_NATIVE_TYPES = {
  Int: ['Int', []],
  BigInt: ['BigInt', []],
  Float: ['Double', []],
  Decimal: ['Decimal', ['65', '30']],
  Boolean: ['TinyInt', []],
  String: ['VarChar', ['191']],
  DateTime: ['DateTime', ['3']],
  Json: ['Json', []],
  Bytes: ['LongBlob', []],
}

/** `@db.*` native type name → SQL, as Prisma's MySQL renderer writes it (args appended). */
const NATIVE_TYPES = {
  Int: 'INTEGER',
  UnsignedInt: 'INTEGER UNSIGNED',
  SmallInt: 'SMALLINT',
  UnsignedSmallInt: 'SMALLINT UNSIGNED',
  TinyInt: 'TINYINT',
  UnsignedTinyInt: 'TINYINT UNSIGNED',
  MediumInt: 'MEDIUMINT',
  UnsignedMediumInt: 'MEDIUMINT UNSIGNED',
  BigInt: 'BIGINT',
  UnsignedBigInt: 'BIGINT UNSIGNED',
  Decimal: 'DECIMAL',
  Float: 'FLOAT',
  Double: 'DOUBLE',
  Bit: 'BIT',
  Char: 'CHAR',
  VarChar: 'VARCHAR',
  Binary: 'BINARY',
  VarBinary: 'VARBINARY',
  TinyBlob: 'TINYBLOB',
  Blob: 'BLOB',
  MediumBlob: 'MEDIUMBLOB',
  LongBlob: 'LONGBLOB',
  TinyText: 'TINYTEXT',
  Text: 'TEXT',
  MediumText: 'MEDIUMTEXT',
  LongText: 'LONGTEXT',
  Date: 'DATE',
  Time: 'TIME',
  DateTime: 'DATETIME',
  Timestamp: 'TIMESTAMP',
  Year: 'YEAR',
  Json: 'JSON',
}

/** Prisma's referential action names → SQL. */
const ACTIONS = {
  Cascade: 'CASCADE',
  Restrict: 'RESTRICT',
  NoAction: 'NO ACTION',
  SetNull: 'SET NULL',
  SetDefault: 'SET DEFAULT',
}

/** Defaults the Prisma client fills in: no column default. */
const CLIENT_DEFAULTS = new Set(['uuid', 'cuid', 'nanoid', 'ulid', 'cuid2'])

/** A backtick-quoted identifier. */
export function quoteIdentifier(name) {
  return `\`${name.replaceAll('`', '``')}\``
}

/** A single-quoted string literal (quotes doubled, backslashes escaped). */
export function quoteString(value) {
  return `'${String(value).replaceAll('\\', '\\\\').replaceAll("'", "''")}'`
}

/** `text` cut to at most `bytes` UTF-8 bytes, never inside a character (psl's floor_char_boundary). */
function truncateBytes(text, bytes) {
  if (Buffer.byteLength(text) <= bytes) return text
  let out = ''
  for (const char of text) {
    if (Buffer.byteLength(out + char) > bytes) break
    out += char
  }
  return out
}

/**
 * psl's default constraint names: `<table>_<columns>` plus the suffix, the front part cut so
 * that the whole stays within MySQL's 64 bytes (when it reaches `64 - suffix length`).
 */
export function constraintName(table, columns, suffix) {
  const joined = `${table}_${columns.join('_')}`
  const room = MAX_IDENTIFIER_LENGTH - suffix.length
  return `${Buffer.byteLength(joined) >= room ? truncateBytes(joined, room) : joined}${suffix}`
}

/** Renders an index column: name, `(length)`, ` ASC`/` DESC` when the schema gives them. */
function indexColumn(column, { length, sortOrder } = {}) {
  let rendered = quoteIdentifier(column)
  if (length != null) rendered += `(${length})`
  if (sortOrder) rendered += ` ${sortOrder.toUpperCase()}`
  return rendered
}

/** Formats a DateTime default as MySQL reads it: 'YYYY-MM-DD hh:mm:ss.fff' in UTC. */
function dateTimeLiteral(value) {
  const date = new Date(value)
  if (Number.isNaN(date.getTime())) throw new Error(`Invalid DateTime default ${value}`)
  return quoteString(date.toISOString().replace('T', ' ').replace('Z', ''))
}

/** Reads a DMMF datamodel into the lookups the renderer needs. */
class Model {
  constructor(dmmfModel, datamodel) {
    this.dmmf = dmmfModel
    this.name = dmmfModel.name
    this.table = dmmfModel.dbName ?? dmmfModel.name
    this.datamodel = datamodel
    this.scalars = dmmfModel.fields.filter((f) => f.kind === 'scalar' || f.kind === 'enum')
    for (const field of dmmfModel.fields) {
      if (field.kind === 'unsupported') {
        throw new Error(`${this.name}.${field.name}: Unsupported(…) fields are not handled`)
      }
    }
  }

  field(name) {
    const field = this.dmmf.fields.find((f) => f.name === name)
    if (!field) throw new Error(`Model ${this.name} has no field ${name}`)
    return field
  }

  column(name) {
    const field = this.field(name)
    return field.dbName ?? field.name
  }
}

/** The SQL type of a scalar or enum field. */
function columnType(field, enums) {
  if (field.kind === 'enum') {
    const values = enums.get(field.type).values.map((v) => quoteString(v.dbName ?? v.name))
    return `ENUM(${values.join(', ')})`
  }
  const [name, args] = field.nativeType ?? DEFAULT_NATIVE_TYPES[field.type] ?? []
  if (!name) throw new Error(`${field.name}: no MySQL type for ${field.type}`)
  // Prisma writes a Boolean's TINYINT as BOOLEAN (MySQL's alias of TINYINT(1)).
  if (name === 'TinyInt' && field.type === 'Boolean') return 'BOOLEAN'
  const sql = NATIVE_TYPES[name]
  if (!sql) throw new Error(`${field.name}: unknown MySQL native type @db.${name}`)
  return args.length > 0 ? `${sql}(${args.join(', ')})` : sql
}

/** The precision CURRENT_TIMESTAMP takes for a DateTime field's default now(). */
function timestampPrecision(field) {
  if (!field.nativeType) return 3
  const [name, args] = field.nativeType
  if (name === 'DateTime' || name === 'Timestamp') return args.length > 0 ? Number(args[0]) : 0
  return 3
}

/** The DEFAULT clause value of a field, or undefined when the column has none. */
function columnDefault(field, enums) {
  if (!('default' in field) || field.default === undefined) return undefined
  const value = field.default
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const { name, args = [] } = value
    if (name === 'autoincrement' || CLIENT_DEFAULTS.has(name)) return undefined
    if (name === 'now') return `CURRENT_TIMESTAMP(${timestampPrecision(field)})`
    if (name === 'dbgenerated')
      return args.length > 0 && args[0] !== '' ? String(args[0]) : undefined
    throw new Error(`${field.name}: unknown default function ${name}()`)
  }
  // MySQL takes no literal defaults on JSON and binary columns: Prisma leaves them out.
  if (field.type === 'Json' || field.type === 'Bytes') return undefined
  if (field.kind === 'enum') {
    const entry = enums.get(field.type).values.find((v) => v.name === value)
    return quoteString(entry?.dbName ?? value)
  }
  if (field.type === 'DateTime') return dateTimeLiteral(value)
  if (field.type === 'String') return quoteString(value)
  if (typeof value === 'boolean' || typeof value === 'number') return String(value)
  return String(value)
}

/** One column definition line. */
function columnDefinition(field, enums) {
  const parts = [quoteIdentifier(field.dbName ?? field.name), columnType(field, enums)]
  parts.push(field.isRequired ? 'NOT NULL' : 'NULL')
  const isAutoincrement =
    field.default !== null &&
    typeof field.default === 'object' &&
    field.default?.name === 'autoincrement'
  if (isAutoincrement) parts.push('AUTO_INCREMENT')
  const value = columnDefault(field, enums)
  if (value !== undefined) parts.push(`DEFAULT ${value}`)
  return parts.join(' ')
}

/** A CREATE TABLE statement in Prisma's layout: columns, a blank line, indexes, primary key. */
function createTable(table, columns, indexes, primaryKey) {
  const lines = columns.map((c) => `    ${c}`)
  const keys = [...indexes.map((i) => `    ${i}`)]
  if (primaryKey.length > 0) keys.push(`    PRIMARY KEY (${primaryKey.join(', ')})`)
  const body = keys.length > 0 ? `${lines.join(',\n')},\n\n${keys.join(',\n')}` : lines.join(',\n')
  return `CREATE TABLE ${quoteIdentifier(table)} (\n${body}\n) ${TABLE_OPTIONS}`
}

/** An ALTER TABLE … ADD CONSTRAINT … FOREIGN KEY statement. */
function addForeignKey({
  table,
  name,
  columns,
  referencedTable,
  referencedColumns,
  onDelete,
  onUpdate,
}) {
  return (
    `ALTER TABLE ${quoteIdentifier(table)} ADD CONSTRAINT ${quoteIdentifier(name)} ` +
    `FOREIGN KEY (${columns.map(quoteIdentifier).join(', ')}) ` +
    `REFERENCES ${quoteIdentifier(referencedTable)}(${referencedColumns.map(quoteIdentifier).join(', ')}) ` +
    `ON DELETE ${ACTIONS[onDelete]} ON UPDATE ${ACTIONS[onUpdate]}`
  )
}

const INDEX_KINDS = {
  unique: { keyword: 'UNIQUE INDEX', suffix: '_key' },
  normal: { keyword: 'INDEX', suffix: '_idx' },
  fulltext: { keyword: 'FULLTEXT INDEX', suffix: '_idx' },
}

/**
 * The DDL that creates the schema of a DMMF datamodel (`getDMMF(...).datamodel`) on MySQL or
 * MariaDB. Returns the tables (name, columns, CREATE TABLE statement) in the schema's order,
 * then the implicit many-to-many tables, and the foreign keys (ALTER TABLE statements, applied
 * after every table exists).
 *
 * @param {import('@prisma/dmmf').Datamodel} datamodel
 * @returns {{ tables: Array<{ name: string, columns: string[], sql: string }>, foreignKeys: Array<{ table: string, name: string, sql: string }> }}
 */
export function mysqlDdl(datamodel) {
  const enums = new Map(datamodel.enums.map((e) => [e.name, e]))
  const models = new Map(datamodel.models.map((m) => [m.name, new Model(m, datamodel)]))
  const indexes = datamodel.indexes ?? []
  const tables = []
  const foreignKeys = []

  for (const model of models.values()) {
    const columns = model.scalars.map((f) => columnDefinition(f, enums))
    const own = indexes.filter((i) => i.model === model.name)
    const keyColumns = (index) =>
      index.fields.map((f) => ({ column: model.column(f.name), options: f }))
    const id = own.find((i) => i.type === 'id')
    const primaryKey = id ? keyColumns(id).map((c) => indexColumn(c.column, c.options)) : []
    const clauses = own
      .filter((i) => i.type !== 'id')
      .map((index) => {
        const kind = INDEX_KINDS[index.type]
        if (!kind) throw new Error(`${model.name}: unknown index type ${index.type}`)
        const cols = keyColumns(index)
        const name =
          index.dbName ??
          constraintName(
            model.table,
            cols.map((c) => c.column),
            kind.suffix
          )
        return `${kind.keyword} ${quoteIdentifier(name)}(${cols.map((c) => indexColumn(c.column, c.options)).join(', ')})`
      })
    tables.push({
      name: model.table,
      columns: model.scalars.map((f) => f.dbName ?? f.name),
      sql: createTable(model.table, columns, clauses, primaryKey),
    })

    for (const field of model.dmmf.fields) {
      if (field.kind !== 'object' || !field.relationFromFields?.length) continue
      const target = models.get(field.type)
      const fromFields = field.relationFromFields.map((name) => model.field(name))
      const columnsFrom = fromFields.map((f) => f.dbName ?? f.name)
      // psl's referential arity: required when any referencing field is.
      const required = fromFields.some((f) => f.isRequired) || field.isRequired
      foreignKeys.push({
        table: model.table,
        name: constraintName(model.table, columnsFrom, '_fkey'),
        columns: columnsFrom,
        referencedTable: target.table,
        referencedColumns: field.relationToFields.map((name) => target.column(name)),
        onDelete: field.relationOnDelete ?? (required ? 'Restrict' : 'SetNull'),
        onUpdate: field.relationOnUpdate ?? 'Cascade',
      })
    }
  }

  for (const relation of implicitManyToMany(models)) {
    const { table, a, b } = relation
    const columnOf = (model) => {
      const [idField] = indexes.find((i) => i.model === model.name && i.type === 'id')?.fields ?? []
      if (!idField)
        throw new Error(`${model.name}: a many-to-many relation needs a single-field id`)
      const field = model.field(idField.name)
      return { type: columnType(field, enums), column: model.column(idField.name) }
    }
    const [colA, colB] = [columnOf(a), columnOf(b)]
    tables.push({
      name: table,
      columns: ['A', 'B'],
      sql: createTable(
        table,
        [`\`A\` ${colA.type} NOT NULL`, `\`B\` ${colB.type} NOT NULL`],
        [
          `UNIQUE INDEX ${quoteIdentifier(`${truncateBytes(table, MAX_IDENTIFIER_LENGTH - 10)}_AB_unique`)}(\`A\`, \`B\`)`,
          `INDEX ${quoteIdentifier(`${truncateBytes(table, MAX_IDENTIFIER_LENGTH - 8)}_B_index`)}(\`B\`)`,
        ],
        []
      ),
    })
    // Prisma's names for these keys avoid collisions: the table name cut to 57 bytes.
    const room = MAX_IDENTIFIER_LENGTH - '_fkey'.length - 2
    const stem = (exclusive) =>
      Buffer.byteLength(table) > room || (exclusive && Buffer.byteLength(table) === room)
        ? truncateBytes(table, room)
        : table
    for (const [letter, model, col, exclusive] of [
      ['A', a, colA, false],
      ['B', b, colB, true],
    ]) {
      foreignKeys.push({
        table,
        name: `${stem(exclusive)}_${letter}_fkey`,
        columns: [letter],
        referencedTable: model.table,
        referencedColumns: [col.column],
        onDelete: 'Cascade',
        onUpdate: 'Cascade',
      })
    }
  }

  return {
    tables,
    foreignKeys: foreignKeys.map((fk) => ({
      table: fk.table,
      name: fk.name,
      sql: addForeignKey(fk),
    })),
  }
}

/**
 * Implicit many-to-many relations (list fields on both sides, no `fields:`): their join table
 * `_<relation name>` and models A and B (A's name sorts first, as in Prisma).
 */
function implicitManyToMany(models) {
  const relations = new Map()
  for (const model of models.values()) {
    for (const field of model.dmmf.fields) {
      if (field.kind !== 'object' || !field.isList || relations.has(field.relationName)) continue
      const target = models.get(field.type)
      const back = target.dmmf.fields.find(
        (f) =>
          f.kind === 'object' &&
          f.relationName === field.relationName &&
          (f !== field || target !== model)
      )
      const isImplicit =
        back?.isList && !field.relationFromFields?.length && !back.relationFromFields?.length
      if (!isImplicit) continue
      const [a, b] = [model, target].sort((x, y) =>
        x.name < y.name ? -1 : x.name > y.name ? 1 : 0
      )
      relations.set(field.relationName, {
        table: truncateBytes(`_${field.relationName}`, MAX_IDENTIFIER_LENGTH),
        a,
        b,
      })
    }
  }
  return [...relations.values()]
}

/**
 * The statements of `mysqlDdl` as a migration script in the layout of Prisma Migrate's
 * migration.sql (`-- CreateTable`, `-- AddForeignKey`).
 */
export function renderMigration({ tables, foreignKeys }) {
  return [
    ...tables.map((t) => `-- CreateTable\n${t.sql};\n`),
    ...foreignKeys.map((fk) => `-- AddForeignKey\n${fk.sql};\n`),
  ].join('\n')
}

/**
 * The DMMF datamodel of a MySQL schema: `files` are `[{ path, content }]` (push-schema.mjs's
 * readSchemaFiles). Throws with Prisma's own validation message for an invalid schema, and when
 * the datasource provider is not "mysql".
 */
export function mysqlDatamodel(files) {
  const schemaWasm = require('@prisma/prisma-schema-wasm')
  const prismaSchema = files.map((f) => [f.path, f.content])
  const config = JSON.parse(
    schemaWasm.get_config(
      JSON.stringify({ prismaSchema, datasourceOverrides: {}, ignoreEnvVarErrors: true, env: {} })
    )
  )
  if (config.errors?.length > 0) {
    throw new Error(config.errors.map((e) => e.message).join('\n'))
  }
  const provider = config.config?.datasources?.[0]?.activeProvider
  if (provider !== 'mysql') {
    throw new Error(
      `The schema's datasource provider is "${provider}"; MySQL/MariaDB databases need "mysql" (schema-copy.mjs writes such a copy)`
    )
  }
  const { getDMMF } = require('@prisma/get-dmmf')
  const dmmf = getDMMF({ datamodel: prismaSchema })
  if (!dmmf.datamodel) {
    const message = dmmf.error?.message ?? dmmf.reason ?? 'invalid schema'
    let text = message
    try {
      text = JSON.parse(message).message ?? message
    } catch {}
    // Prisma's validation messages are coloured for terminals.
    throw new Error(stripVTControlCharacters(text))
  }
  return dmmf.datamodel
}
