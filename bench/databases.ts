/**
 * The databases a benchmark can run the generated app on, one entry each. A benchmark takes every
 * entry of DATABASES (or those named in BENCH_DATABASES, e.g. `BENCH_DATABASES=sqlite`) and asks
 * each for an app over a table of a given size; it never needs to know which database it is.
 *
 * - `sqlite`: always; a client generated from schema.prisma into bench/.generated/, the rows in
 *   one file per size (setup.ts).
 * - `postgresql`: only when BENCH_POSTGRES_URL names a server (any database URL of it, e.g.
 *   `postgres://postgres@127.0.0.1:5432/test`), so that a machine without one still runs the
 *   SQLite figures; a client generated from a PostgreSQL copy of schema.prisma into
 *   bench/.generated-postgresql/ (both by `npm run bench:prepare`), the same rows in one database
 *   per size on that server (setup-postgresql.ts), `@prisma/adapter-pg`.
 */
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3'
import { checkServer } from '@prisma-hydra/prisma-offline/scratch-database'
import { createHydraApp } from './.generated/hydra/index.js'
import { PrismaClient } from './.generated/prisma/client.js'
import { EVENTS_PER_SECOND, prepareDatabase } from './setup.js'
import { preparePostgresDatabase } from './setup-postgresql.js'

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
  /** How the count of full paging reads the table (Prisma's `count()`), for the report. */
  counting: string
  /** The generated app over a table of exactly `rows` events (the same rows for every database). */
  open(rows: number): Promise<BenchApp>
}

const sqlite: BenchDatabase = {
  id: 'sqlite',
  name: 'SQLite',
  description: `through \`@prisma/adapter-better-sqlite3\`, one file per size in bench/.data/ (bench/setup.ts): \`Event\` rows with ${EVENTS_PER_SECOND} rows per second of \`createdAt\`, \`@@index([createdAt, id])\``,
  counting:
    "keeps no row count, and Prisma's `count()` (`SELECT COUNT(*) FROM (SELECT id FROM Event LIMIT -1 OFFSET 0)`) steps over every row",
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

/** A database URL without its password, for the report. */
export function shown(url: string): string {
  const parsed = new URL(url)
  if (parsed.password) parsed.password = '***'
  return parsed.toString()
}

/** The PostgreSQL entry for the server of `serverUrl`, whose version `version()` reported. */
function postgresql(serverUrl: string, version: string): BenchDatabase {
  return {
    id: 'postgresql',
    name: 'PostgreSQL',
    description: `${/^PostgreSQL (\S+)/.exec(version)?.[1] ?? version} through \`@prisma/adapter-pg\`, one database per size on ${shown(serverUrl).replace(/\/[^/]*$/, '')} (bench/setup-postgresql.ts): the same rows, \`VACUUM ANALYZE\`d once inserted`,
    // EXPLAIN of the statement as Prisma sends it (a prepared statement, $1 = 0) on 1,000,000 rows.
    counting:
      'keeps no row count either: Prisma\'s `count()` (`SELECT COUNT(*) FROM (SELECT id FROM "Event" WHERE 1=1 OFFSET $1)`, `$1` = 0) is planned as a sequential scan of the whole table (checked with EXPLAIN on PostgreSQL 15 and 1,000,000 rows)',
    async open(rows) {
      const { url, built } = await preparePostgresDatabase(serverUrl, rows)
      // Loaded only here: a run without BENCH_POSTGRES_URL never needs the PostgreSQL client.
      const [{ PrismaPg }, { PrismaClient }, { createHydraApp }] = await Promise.all([
        import('@prisma/adapter-pg'),
        import('./.generated-postgresql/prisma/client.js'),
        import('./.generated-postgresql/hydra/index.js'),
      ])
      const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: url }) })
      const app = createHydraApp({ prisma })
      return {
        request: (path) => app.request(path),
        close: () => prisma.$disconnect(),
        built,
        location: shown(url),
      }
    },
  }
}

const { BENCH_POSTGRES_URL } = process.env

export const DATABASES: readonly BenchDatabase[] = [
  sqlite,
  // Asked for its version first: a server that does not answer stops the run with the reason.
  ...(BENCH_POSTGRES_URL
    ? [postgresql(BENCH_POSTGRES_URL, await checkServer(BENCH_POSTGRES_URL))]
    : []),
]

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
