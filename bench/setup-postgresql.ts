/**
 * The benchmark's PostgreSQL databases: `rows` events in a database of their own on the server of
 * BENCH_POSTGRES_URL (`prisma_hydra_bench_events_<rows>`), reused while it holds exactly that many
 * rows. Like setup.ts for SQLite: the schema is applied by Prisma's own engine (pushSchema, from
 * the PostgreSQL copy of schema.prisma that `npm run bench:prepare` writes), and the rows are
 * the same (eventRow), inserted by one `INSERT ... SELECT` over `generate_series` and checked
 * against eventRow afterwards. `VACUUM ANALYZE` then leaves the table as it is in steady service
 * (statistics gathered, every page all-visible) rather than as a bulk load leaves it.
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

/** The PostgreSQL copy of schema.prisma, written with its client by `npm run bench:prepare`. */
export const POSTGRESQL_SCHEMA_PATH = fileURLToPath(
  new URL('./.generated-postgresql/schema.prisma', import.meta.url)
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
    const [rows] = await run(url, ['SELECT count(*) FROM "Event"'])
    return Number(rows?.[0]?.[0])
  } catch {
    return -1
  }
}

/** Throws unless the first, a middle and the last row are those of eventRow. */
async function checkRows(url: string, rows: number): Promise<void> {
  const ids = [1, Math.ceil(rows / 2), rows]
  const [found = []] = await run(url, [
    `SELECT id, (extract(epoch FROM "createdAt") * 1000)::bigint::text, payload FROM "Event" WHERE id IN (${ids.join(', ')}) ORDER BY id`,
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
 * Returns the URL of the database of `rows` events on the server of `serverUrl`, building it
 * first (dropped and created anew) unless it already holds exactly `rows` rows.
 */
export async function preparePostgresDatabase(
  serverUrl: string,
  rows: number
): Promise<{ url: string; built: boolean }> {
  if (!Number.isSafeInteger(rows) || rows < 1) throw new Error(`Not a table size: ${rows}`)
  try {
    await access(POSTGRESQL_SCHEMA_PATH)
  } catch {
    throw new Error(`${POSTGRESQL_SCHEMA_PATH} is missing: run \`npm run bench:prepare\` first`)
  }
  const url = withDatabase(serverUrl, `prisma_hydra_bench_events_${rows}`)
  if ((await countRows(url)) === rows) {
    await pushSchema({ schemaPath: POSTGRESQL_SCHEMA_PATH, url, force: false }) // in sync: executes nothing
    await checkRows(url, rows)
    return { url, built: false }
  }
  await dropDatabase(url)
  await createDatabase(url)
  await pushSchema({ schemaPath: POSTGRESQL_SCHEMA_PATH, url })
  // eventRow in SQL: Prisma stores a DateTime as a `timestamp(3)` in UTC.
  await run(url, [
    `INSERT INTO "Event" ("id", "createdAt", "payload")
     SELECT id,
            to_timestamp(${START / 1000} + (id - 1) / ${EVENTS_PER_SECOND}) AT TIME ZONE 'UTC',
            'event ' || id || ': ' || repeat('x', ${PAYLOAD_PADDING})
     FROM generate_series(1, ${rows}) AS id`,
    'VACUUM ANALYZE "Event"',
  ])
  await checkRows(url, rows)
  return { url, built: true }
}
