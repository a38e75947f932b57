/**
 * The benchmark's MariaDB/MySQL databases: `rows` events in a database of their own on the server
 * of BENCH_MARIADB_URL (`prisma_hydra_bench_events_<rows>`), reused while it holds exactly that
 * many rows. Like setup-postgresql.ts: the tables come from pushSchema (for MySQL, the DDL derived
 * from the MySQL copy of schema.prisma that `npm run bench:prepare` writes), the rows are those of
 * eventRow, inserted by one `INSERT ... SELECT` over a generated sequence and checked against
 * eventRow afterwards; `ANALYZE TABLE` then gathers the optimizer's statistics.
 */
import { access } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { createDriverAdapter, pushSchema } from '@prisma-hydra/prisma-offline/push-schema'
import {
  createDatabase,
  dropDatabase,
  withDatabase,
} from '@prisma-hydra/prisma-offline/scratch-database'
import { EVENTS_PER_SECOND, eventRow, PAYLOAD_PADDING, START } from './setup.js'

/** The MySQL copy of schema.prisma, written with its client by `npm run bench:prepare`. */
export const MYSQL_SCHEMA_PATH = fileURLToPath(
  new URL('./.generated-mysql/schema.prisma', import.meta.url)
)

/** Runs `statements` (no parameters) one by one on the database at `url`; returns their rows. */
async function run(url: string, statements: readonly string[]): Promise<unknown[][][]> {
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

/** The rows `Event` holds at `url`; -1 when the database or the table does not exist. */
async function countRows(url: string): Promise<number> {
  try {
    const [rows] = await run(url, ['SELECT COUNT(*) FROM `Event`'])
    return Number(rows?.[0]?.[0])
  } catch {
    return -1
  }
}

/** `createdAt` in milliseconds since the epoch, independent of the session's time zone. */
const EPOCH_MS = "TIMESTAMPDIFF(SECOND, '1970-01-01 00:00:00', `createdAt`) * 1000"

/** Throws unless the first, a middle and the last row are those of eventRow. */
async function checkRows(url: string, rows: number): Promise<void> {
  const ids = [1, Math.ceil(rows / 2), rows]
  const [found = []] = await run(url, [
    `SELECT id, CAST(${EPOCH_MS} AS CHAR), payload FROM \`Event\` WHERE id IN (${ids.join(', ')}) ORDER BY id`,
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

/** The integers 1 to `rows` as a derived table `seq(n)`: cross joins of ten digits. */
function sequence(rows: number): string {
  const digits =
    'SELECT 0 AS d UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9'
  const places = Math.max(1, Math.ceil(Math.log10(rows + 1)))
  const tables = Array.from({ length: places }, (_, i) => `(${digits}) AS d${i}`)
  const value = Array.from({ length: places }, (_, i) => `d${i}.d * ${10 ** i}`).join(' + ')
  return `(SELECT ${value} + 1 AS n FROM ${tables.join(' CROSS JOIN ')}) AS seq`
}

/**
 * Returns the URL of the database of `rows` events on the server of `serverUrl`, building it
 * first (dropped and created anew) unless it already holds exactly `rows` rows.
 */
export async function prepareMariadbDatabase(
  serverUrl: string,
  rows: number
): Promise<{ url: string; built: boolean }> {
  if (!Number.isSafeInteger(rows) || rows < 1) throw new Error(`Not a table size: ${rows}`)
  try {
    await access(MYSQL_SCHEMA_PATH)
  } catch {
    throw new Error(`${MYSQL_SCHEMA_PATH} is missing: run \`npm run bench:prepare\` first`)
  }
  const url = withDatabase(serverUrl, `prisma_hydra_bench_events_${rows}`)
  if ((await countRows(url)) === rows) {
    await pushSchema({ schemaPath: MYSQL_SCHEMA_PATH, url, force: false }) // in sync: executes nothing
    await checkRows(url, rows)
    return { url, built: false }
  }
  await dropDatabase(url)
  await createDatabase(url)
  await pushSchema({ schemaPath: MYSQL_SCHEMA_PATH, url })
  // eventRow in SQL: Prisma stores a DateTime as a DATETIME(3) in UTC.
  await run(url, [
    `INSERT INTO \`Event\` (\`id\`, \`createdAt\`, \`payload\`)
     SELECT n,
            TIMESTAMPADD(SECOND, ${START / 1000} + (n - 1) DIV ${EVENTS_PER_SECOND}, '1970-01-01 00:00:00'),
            CONCAT('event ', n, ': ', REPEAT('x', ${PAYLOAD_PADDING}))
     FROM ${sequence(rows)}
     WHERE n <= ${rows}`,
    'ANALYZE TABLE `Event`',
  ])
  await checkRows(url, rows)
  return { url, built: true }
}
