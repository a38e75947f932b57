/**
 * The databases a benchmark can run the generated app on, one entry each. A benchmark takes every
 * entry of DATABASES (or those named in BENCH_DATABASES, e.g. `BENCH_DATABASES=sqlite`) and asks
 * each for an app over a table of a given size; it never needs to know which database it is.
 *
 * Adding PostgreSQL is one more entry, built like `sqlite` below:
 * - its client: a copy of schema.prisma with `provider = "postgresql"`, generated into its own
 *   output by `npm run bench:prepare` (a Prisma client is generated for one provider);
 * - its rows: a setup like setup.ts that fills `Event` with the same rows at a URL given in an
 *   environment variable (BENCH_POSTGRES_URL), once per size (e.g. one table per size or
 *   database per size);
 * - its app: `createHydraApp({ prisma: new PrismaClient({ adapter: new PrismaPg({ connectionString }) }) })`
 *   with `@prisma/adapter-pg`;
 * - the entry listed in DATABASES only when BENCH_POSTGRES_URL is set, so that a machine without
 *   a server still runs the SQLite figures.
 */
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3'
import { createHydraApp } from './.generated/hydra/index.js'
import { PrismaClient } from './.generated/prisma/client.js'
import { EVENTS_PER_SECOND, prepareDatabase } from './setup.js'

/** The generated app over one table, requested in-process (`app.request`, no network). */
export interface BenchApp {
  request(path: string): Response | Promise<Response>
  close(): Promise<void>
  /** Whether the rows were inserted now rather than reused. */
  built: boolean
  /** Where the rows live, for the report. */
  location: string
}

export interface BenchDatabase {
  /** Selects the entry in BENCH_DATABASES. */
  id: string
  /** Shown in tables and charts. */
  name: string
  /** The driver adapter and what the table holds, for the report. */
  description: string
  /** The generated app over a table of exactly `rows` events (the same rows for every database). */
  open(rows: number): Promise<BenchApp>
}

const sqlite: BenchDatabase = {
  id: 'sqlite',
  name: 'SQLite',
  description: `through \`@prisma/adapter-better-sqlite3\`, one file per size in bench/.data/ (bench/setup.ts): \`Event\` rows with ${EVENTS_PER_SECOND} rows per second of \`createdAt\`, \`@@index([createdAt, id])\``,
  async open(rows) {
    const { url, built } = await prepareDatabase(rows)
    const prisma = new PrismaClient({ adapter: new PrismaBetterSqlite3({ url }) })
    const app = createHydraApp({ prisma })
    return {
      request: (path) => app.request(path),
      close: () => prisma.$disconnect(),
      built,
      location: url,
    }
  },
}

export const DATABASES: readonly BenchDatabase[] = [sqlite]

/** The entries BENCH_DATABASES names (comma-separated ids), or all of them. */
export function selectedDatabases(): readonly BenchDatabase[] {
  const { BENCH_DATABASES } = process.env
  if (!BENCH_DATABASES) return DATABASES
  const ids = BENCH_DATABASES.split(',').map((id) => id.trim())
  const unknown = ids.filter((id) => !DATABASES.some((database) => database.id === id))
  if (unknown.length > 0) {
    throw new Error(
      `BENCH_DATABASES: no database ${unknown.join(', ')}; known: ${DATABASES.map((database) => database.id).join(', ')}`
    )
  }
  return DATABASES.filter((database) => ids.includes(database.id))
}
