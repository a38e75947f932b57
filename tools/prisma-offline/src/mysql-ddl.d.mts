import type { Datamodel } from '@prisma/dmmf'

/** The longest identifier MySQL accepts. */
export const MAX_IDENTIFIER_LENGTH: number
/** The character set and collation of every table Prisma creates on MySQL. */
export const TABLE_OPTIONS: string

/** A table of the schema: its name, column names in order and CREATE TABLE statement. */
export interface MysqlTable {
  name: string
  columns: string[]
  sql: string
}

/** A foreign key: its table, constraint name and ALTER TABLE statement. */
export interface MysqlForeignKey {
  table: string
  name: string
  sql: string
}

/** The MySQL/MariaDB DDL of a DMMF datamodel, by Prisma's own mapping. */
export function mysqlDdl(datamodel: Datamodel): {
  tables: MysqlTable[]
  foreignKeys: MysqlForeignKey[]
}

/** The statements as a script in the layout of Prisma Migrate's migration.sql. */
export function renderMigration(ddl: {
  tables: MysqlTable[]
  foreignKeys: MysqlForeignKey[]
}): string

/** The DMMF datamodel of a schema whose datasource provider is "mysql"; throws otherwise. */
export function mysqlDatamodel(files: Array<{ path: string; content: string }>): Datamodel

/** psl's default constraint name: `<table>_<columns><suffix>`, cut to 64 bytes. */
export function constraintName(table: string, columns: string[], suffix: string): string
/** A backtick-quoted identifier. */
export function quoteIdentifier(name: string): string
/** A single-quoted string literal. */
export function quoteString(value: unknown): string
