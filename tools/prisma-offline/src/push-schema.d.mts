/** Applies a Prisma schema to the database at `url` with Prisma's own (wasm) schema engine. */
export function pushSchema(options: {
  schemaPath: string
  url: string
  /** Accept data-loss warnings (default true); with false, a push that would lose data is refused. */
  force?: boolean
}): Promise<{ executedSteps: number; warnings: string[] }>

/** The Prisma datasource provider of a database URL. */
export function providerOf(url: string): 'sqlite' | 'postgresql' | 'mysql'

/** A result set as driver adapters return it. */
export interface AdapterResultSet {
  columnNames: string[]
  rows: unknown[][]
}

/** A connection of a driver adapter (the subset used outside the engine). */
export interface AdapterConnection {
  queryRaw(query: { sql: string; args: unknown[]; argTypes: unknown[] }): Promise<AdapterResultSet>
  executeRaw(query: { sql: string; args: unknown[]; argTypes: unknown[] }): Promise<number>
  dispose(): Promise<void>
}

/** A driver adapter factory for `url` (SQLite, PostgreSQL or MySQL/MariaDB). */
export function createDriverAdapter(url: string): Promise<{
  provider: string
  connect(): Promise<AdapterConnection>
}>
