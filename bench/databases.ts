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
 *   per size on that server (setup-servers.ts), `@prisma/adapter-pg`.
 * - `mariadb`: the same for BENCH_MARIADB_URL (e.g. `mysql://root@127.0.0.1:3306/test`): a client
 *   generated from a MySQL copy into bench/.generated-mysql/, one database per size on that
 *   server (setup-servers.ts), `@prisma/adapter-mariadb`.
 */
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3'
import { checkServer } from '@prisma-hydra/prisma-offline/scratch-database'
import { createHydraApp, type HydraAccess } from './.generated/hydra/index.js'
import { PrismaClient } from './.generated/prisma/client.js'
import { EVENTS_PER_SECOND, prepareDatabase } from './setup.js'
import { prepareMariadbDatabase, preparePostgresDatabase } from './setup-servers.js'

/**
 * The transaction timeout of every benchmark client. Prisma's default, 5 s, also bounds the batch
 * transaction of full paging (page + count): on MariaDB, a count of 1,000,000 rows and a deep
 * offset page took longer than that on the loaded 2-core machine, and the page failed (P2028).
 */
const TRANSACTION_OPTIONS = { timeout: 60_000 }

/** The generated app over one table, requested in-process (`app.request`, no network). */
export interface BenchApp {
  request(path: string, init?: RequestInit): Response | Promise<Response>
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
  /**
   * The generated app over a table of exactly `rows` events (the same rows for every database),
   * with `access` rules (docs/security.md) when given.
   */
  open(rows: number, access?: HydraAccess): Promise<BenchApp>
}

const sqlite: BenchDatabase = {
  id: 'sqlite',
  name: 'SQLite',
  description: `through \`@prisma/adapter-better-sqlite3\`, one file per size in bench/.data/ (bench/setup.ts): \`Event\` rows with ${EVENTS_PER_SECOND} rows per second of \`createdAt\`, \`@@index([createdAt, id])\``,
  counting:
    "keeps no row count, and Prisma's `count()` (`SELECT COUNT(*) FROM (SELECT id FROM Event LIMIT -1 OFFSET 0)`) steps over every row",
  async open(rows, access) {
    const { url, built } = await prepareDatabase(rows)
    const prisma = new PrismaClient({
      adapter: new PrismaBetterSqlite3({ url }),
      transactionOptions: TRANSACTION_OPTIONS,
    })
    const app = createHydraApp({ prisma, access })
    return {
      request: (path, init) => app.request(path, init),
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
    description: `${/^PostgreSQL (\S+)/.exec(version)?.[1] ?? version} through \`@prisma/adapter-pg\`, one database per size on ${shown(serverUrl).replace(/\/[^/]*$/, '')} (bench/setup-servers.ts): the same rows, \`VACUUM ANALYZE\`d once inserted`,
    // EXPLAIN of the statement as Prisma sends it (a prepared statement, $1 = 0) on 1,000,000 rows.
    counting:
      'keeps no row count either: Prisma\'s `count()` (`SELECT COUNT(*) FROM (SELECT id FROM "Event" WHERE 1=1 OFFSET $1)`, `$1` = 0) is planned as a sequential scan of the whole table (checked with EXPLAIN on PostgreSQL 15 and 1,000,000 rows)',
    async open(rows, access) {
      const { url, built } = await preparePostgresDatabase(serverUrl, rows)
      // Loaded only here: a run without BENCH_POSTGRES_URL never needs the PostgreSQL client.
      const [{ PrismaPg }, { PrismaClient }, { createHydraApp }] = await Promise.all([
        import('@prisma/adapter-pg'),
        import('./.generated-postgresql/prisma/client.js'),
        import('./.generated-postgresql/hydra/index.js'),
      ])
      const prisma = new PrismaClient({
        adapter: new PrismaPg({ connectionString: url }),
        transactionOptions: TRANSACTION_OPTIONS,
      })
      // The clients of every provider type a scope with the same where inputs.
      const app = createHydraApp({ prisma, access: access as never })
      return {
        request: (path, init) => app.request(path, init),
        close: () => prisma.$disconnect(),
        built,
        location: shown(url),
      }
    },
  }
}

/** The MariaDB/MySQL entry for the server of `serverUrl`, whose version `version()` reported. */
function mariadb(serverUrl: string, version: string): BenchDatabase {
  return {
    id: 'mariadb',
    name: /mariadb/i.test(version) ? 'MariaDB' : 'MySQL',
    description: `${version} through \`@prisma/adapter-mariadb\`, one database per size on ${shown(serverUrl).replace(/\/[^/]*$/, '')} (bench/setup-servers.ts): the same rows, \`ANALYZE TABLE\`d once inserted`,
    counting:
      "keeps no exact row count either (InnoDB): Prisma's `count()` makes it read every entry of an index of the table",
    async open(rows, access) {
      const { url, built } = await prepareMariadbDatabase(serverUrl, rows)
      // Loaded only here: a run without BENCH_MARIADB_URL never needs the MySQL client.
      const [{ PrismaMariaDb }, { PrismaClient }, { createHydraApp }] = await Promise.all([
        import('@prisma/adapter-mariadb'),
        import('./.generated-mysql/prisma/client.js'),
        import('./.generated-mysql/hydra/index.js'),
      ])
      const prisma = new PrismaClient({
        adapter: new PrismaMariaDb(url),
        transactionOptions: TRANSACTION_OPTIONS,
      })
      // The clients of every provider type a scope with the same where inputs.
      const app = createHydraApp({ prisma, access: access as never })
      return {
        request: (path, init) => app.request(path, init),
        close: () => prisma.$disconnect(),
        built,
        location: shown(url),
      }
    },
  }
}

const { BENCH_POSTGRES_URL, BENCH_MARIADB_URL } = process.env

export const DATABASES: readonly BenchDatabase[] = [
  sqlite,
  // Asked for its version first: a server that does not answer stops the run with the reason.
  ...(BENCH_POSTGRES_URL
    ? [postgresql(BENCH_POSTGRES_URL, await checkServer(BENCH_POSTGRES_URL))]
    : []),
  ...(BENCH_MARIADB_URL ? [mariadb(BENCH_MARIADB_URL, await checkServer(BENCH_MARIADB_URL))] : []),
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

/** The database servers a run can add, each by its environment variable. */
const SERVERS = [
  {
    id: 'postgresql',
    name: 'PostgreSQL',
    variable: 'BENCH_POSTGRES_URL',
    example: 'postgres://postgres@127.0.0.1:5432/test',
    setup: "bench/setup-servers.ts, the schema pushed by Prisma's engine",
  },
  {
    id: 'mariadb',
    name: 'MariaDB/MySQL',
    variable: 'BENCH_MARIADB_URL',
    example: 'mysql://root@127.0.0.1:3306/test',
    setup: 'bench/setup-servers.ts, the tables made by the DDL derived from the schema',
  },
] as const

/** For the report: which servers ran and how the others are added (`command`: the npm script). */
export function serverCoverage(command: string, ran: readonly BenchDatabase[]): string {
  return SERVERS.map((server) => {
    if (ran.some((database) => database.id === server.id)) {
      return `${server.name} is in the list of databases because \`${server.variable}\` names a server (any database URL of it): \`npm run bench:prepare\` generates a client for it from a copy of bench/schema.prisma, and one database per size is built there (\`prisma_hydra_bench_events_<rows>\`, ${server.setup}, reused while it holds exactly that many rows).`
    }
    if (process.env[server.variable]) return `${server.name} is left out by \`BENCH_DATABASES\`.`
    return `${server.name} is left out of this run: \`${server.variable}=${server.example} npm run ${command}\` (any database URL of the server) adds its rows.`
  }).join('\n\n')
}
