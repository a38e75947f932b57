/**
 * The benchmark's databases on a server (PostgreSQL, MariaDB/MySQL): `rows` events in a database
 * of their own on the server of a URL (`prisma_hydra_bench_events_<rows>`), reused while it holds
 * exactly that many rows. One routine for every server; what differs between them is one entry of
 * DIALECTS. Like setup.ts for SQLite: the schema is applied by Prisma's own engine (pushSchema,
 * from the copy of schema.prisma that `npm run bench:prepare` writes for the provider), the rows
 * are eventRow's, inserted by one `INSERT ... SELECT` over a generated sequence and checked against
 * eventRow afterwards (first, middle and last row), the samples of bench/filters.ts and the
 * catalogue of the shaped page (bench/setup-catalogue.ts) copied from them; then the database
 * gathers its statistics.
 */
import { access } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { createDriverAdapter, pushSchema } from '@prisma-hydra/prisma-offline/push-schema'
import {
  createDatabase,
  dropDatabase,
  withDatabase,
} from '@prisma-hydra/prisma-offline/scratch-database'
import {
  EVENTS_PER_SECOND,
  eventRow,
  PAYLOAD_PADDING,
  SAMPLES_FROM_EVENTS,
  START,
} from './setup.js'
import { CATEGORIES, catalogueStatements } from './setup-catalogue.js'

/** What one kind of server needs: its schema copy and its SQL for the same steps. */
interface Dialect {
  /** The copy of schema.prisma for the provider, written with its client by bench:prepare. */
  schemaPath: string
  /** Counts the rows of `Event`, `Sample`, `Product` and `Category`. */
  count: string
  /** `createdAt` in milliseconds since the epoch, as text, independent of the session's zone. */
  epochMs: string
  /** The `Event` table quoted. */
  table: string
  /** eventRow in SQL for ids 1 to `rows` (Prisma stores a DateTime in UTC, to milliseconds). */
  fill(rows: number): string
  /** The samples of bench/filters.ts from the events. */
  samples: string
  /** The catalogue of the shaped page from the events (bench/setup-catalogue.ts). */
  catalogue: string[]
  /** Gathers the statistics after the bulk load. */
  analyze: string
}

const copy = (folder: string) =>
  fileURLToPath(new URL(`./${folder}/schema.prisma`, import.meta.url))

/** The integers 1 to `rows` as a derived table `seq(n)`: cross joins of ten digits (MySQL). */
function digitSequence(rows: number): string {
  const digits = Array.from({ length: 10 }, (_, d) => (d ? `SELECT ${d}` : 'SELECT 0 AS d')).join(
    ' UNION ALL '
  )
  const places = Math.max(1, Math.ceil(Math.log10(rows + 1)))
  const tables = Array.from({ length: places }, (_, i) => `(${digits}) AS d${i}`)
  const value = Array.from({ length: places }, (_, i) => `d${i}.d * ${10 ** i}`).join(' + ')
  return `(SELECT ${value} + 1 AS n FROM ${tables.join(' CROSS JOIN ')}) AS seq`
}

export const DIALECTS = {
  postgresql: {
    schemaPath: copy('.generated-postgresql'),
    table: '"Event"',
    count:
      'SELECT (SELECT count(*) FROM "Event"), (SELECT count(*) FROM "Sample"), (SELECT count(*) FROM "Product"), (SELECT count(*) FROM "Category")',
    epochMs: '(extract(epoch FROM "createdAt") * 1000)::bigint::text',
    fill: (rows) => `INSERT INTO "Event" ("id", "createdAt", "payload")
      SELECT id,
             to_timestamp(${START / 1000} + (id - 1) / ${EVENTS_PER_SECOND}) AT TIME ZONE 'UTC',
             'event ' || id || ': ' || repeat('x', ${PAYLOAD_PADDING})
      FROM generate_series(1, ${rows}) AS id`,
    // Leaves the table as in steady service (statistics, every page all-visible), not as a bulk
    // load leaves it.
    samples: SAMPLES_FROM_EVENTS,
    catalogue: catalogueStatements('postgresql'),
    analyze: 'VACUUM ANALYZE',
  },
  mysql: {
    schemaPath: copy('.generated-mysql'),
    table: '`Event`',
    count:
      'SELECT (SELECT COUNT(*) FROM `Event`), (SELECT COUNT(*) FROM `Sample`), (SELECT COUNT(*) FROM `Product`), (SELECT COUNT(*) FROM `Category`)',
    epochMs: "CAST(TIMESTAMPDIFF(SECOND, '1970-01-01 00:00:00', `createdAt`) * 1000 AS CHAR)",
    fill: (rows) => `INSERT INTO \`Event\` (\`id\`, \`createdAt\`, \`payload\`)
      SELECT n,
             TIMESTAMPADD(SECOND, ${START / 1000} + (n - 1) DIV ${EVENTS_PER_SECOND}, '1970-01-01 00:00:00'),
             CONCAT('event ', n, ': ', REPEAT('x', ${PAYLOAD_PADDING}))
      FROM ${digitSequence(rows)}
      WHERE n <= ${rows}`,
    samples: SAMPLES_FROM_EVENTS.replace(/"/g, '`'),
    catalogue: catalogueStatements('mysql'),
    analyze:
      'ANALYZE TABLE `Event`, `Sample`, `Country`, `Seller`, `Category`, `Product`, `Variant`',
  },
} satisfies Record<string, Dialect>
export type ServerProvider = keyof typeof DIALECTS

/** Runs `statements` (no parameters) one by one on the database at `url`; returns their rows. */
export async function runStatements(
  url: string,
  statements: readonly string[]
): Promise<unknown[][][]> {
  const connection = await (await createDriverAdapter(url)).connect()
  try {
    const results: unknown[][][] = []
    for (const sql of statements) {
      results.push((await connection.queryRaw({ sql, args: [], argTypes: [] })).rows)
    }
    return results
  } finally {
    await connection.dispose()
  }
}

/**
 * The rows `Event` holds at `url` when `Sample` and `Product` hold as many and `Category` its
 * rows; -1 when they differ or the database or a table does not exist (an earlier schema's).
 */
async function countRows(dialect: Dialect, url: string): Promise<number> {
  try {
    const [rows] = await runStatements(url, [dialect.count])
    const [events, samples, products, categories] = (rows?.[0] ?? []).map(Number)
    return events === samples && events === products && categories === CATEGORIES
      ? (events ?? -1)
      : -1
  } catch {
    return -1
  }
}

/** Throws unless the first, a middle and the last row are those of eventRow. */
async function checkRows(dialect: Dialect, url: string, rows: number): Promise<void> {
  const ids = [1, Math.ceil(rows / 2), rows]
  const [found = []] = await runStatements(url, [
    `SELECT id, ${dialect.epochMs}, payload FROM ${dialect.table} WHERE id IN (${ids.join(', ')}) ORDER BY id`,
  ])
  const expected = ids.map((id) => {
    const row = eventRow(id)
    return [row.id, String(row.createdAt.getTime()), row.payload].join(' | ')
  })
  const actual = found.map((row) => row.map(String).join(' | '))
  if (actual.join('\n') !== expected.join('\n')) {
    throw new Error(
      `${url}: rows differ from eventRow:\n${actual.join('\n')}\nexpected:\n${expected.join('\n')}`
    )
  }
}

/**
 * Returns the URL of the database of `rows` events on the `provider` server of `serverUrl`,
 * building it first (dropped and created anew) unless it already holds exactly `rows` rows.
 */
export async function prepareServerDatabase(
  provider: ServerProvider,
  serverUrl: string,
  rows: number
): Promise<{ url: string; built: boolean }> {
  const dialect: Dialect = DIALECTS[provider]
  if (!Number.isSafeInteger(rows) || rows < 1) throw new Error(`Not a table size: ${rows}`)
  try {
    await access(dialect.schemaPath)
  } catch {
    throw new Error(`${dialect.schemaPath} is missing: run \`npm run bench:prepare\` first`)
  }
  const url = withDatabase(serverUrl, `prisma_hydra_bench_events_${rows}`)
  if ((await countRows(dialect, url)) === rows) {
    await pushSchema({ schemaPath: dialect.schemaPath, url, force: false }) // in sync: executes nothing
    await checkRows(dialect, url, rows)
    return { url, built: false }
  }
  await dropDatabase(url)
  await createDatabase(url)
  await pushSchema({ schemaPath: dialect.schemaPath, url })
  await runStatements(url, [
    dialect.fill(rows),
    dialect.samples,
    ...dialect.catalogue,
    dialect.analyze,
  ])
  await checkRows(dialect, url, rows)
  return { url, built: true }
}

/** PostgreSQL's database of `rows` events on the server of `serverUrl`. */
export const preparePostgresDatabase = (serverUrl: string, rows: number) =>
  prepareServerDatabase('postgresql', serverUrl, rows)

/** MariaDB's (or MySQL's) database of `rows` events on the server of `serverUrl`. */
export const prepareMariadbDatabase = (serverUrl: string, rows: number) =>
  prepareServerDatabase('mysql', serverUrl, rows)
