/**
 * The benchmark's database: `rows` events in a SQLite file under bench/.data/, one file per size,
 * reused while it holds exactly that many rows. The schema is applied by Prisma's own engine
 * (pushSchema); the rows are inserted by one `INSERT ... SELECT` over a recursive CTE, createdAt
 * written in the format the Prisma adapter writes, and checked against eventRow; the samples of
 * bench/filters.ts are copied from them (SAMPLES_FROM_EVENTS), and so is the catalogue of the
 * shaped page (bench/setup-catalogue.ts).
 */
import { mkdir, rm } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { pushSchema } from '@prisma-hydra/prisma-offline/push-schema'
import Database from 'better-sqlite3'
import { CATEGORIES, catalogueStatements } from './setup-catalogue.js'

export const SCHEMA_PATH = fileURLToPath(new URL('./schema.prisma', import.meta.url))
const DATA = fileURLToPath(new URL('./.data/', import.meta.url))

/** Ten events a second from this instant on: createdAt repeats, so the id tie-breaker matters. */
export const START = Date.UTC(2024, 0, 1)
export const EVENTS_PER_SECOND = 10
/** Every payload is `event <id>: ` and this many `x`. */
export const PAYLOAD_PADDING = 64

/** The row `id` (1 to the table's size), on every database. */
export const eventRow = (id: number) => ({
  id,
  createdAt: new Date(START + Math.floor((id - 1) / EVENTS_PER_SECOND) * 1000),
  payload: `event ${id}: ${'x'.repeat(PAYLOAD_PADDING)}`,
})

/** createdAt as @prisma/adapter-better-sqlite3 stores a DateTime (ISO 8601, `+00:00`). */
const sqliteDate = (date: Date) => date.toISOString().replace('Z', '+00:00')

/** The rows of the samples (bench/filters.ts): the events' ids and dates, `kind` and `batch`. */
export const SAMPLES_FROM_EVENTS =
  'INSERT INTO "Sample" ("id", "createdAt", "kind", "batch") SELECT "id", "createdAt", "id" % 10, "id" % 10 FROM "Event"'
/** The value of `kind` and `batch` of row `id`. */
export const sampleKind = (id: number) => id % 10

/**
 * The rows `Event` holds, when `Sample` and `Product` hold as many and `Category` its rows (a
 * database of an earlier schema has none); otherwise -1.
 */
function countRows(file: string): number {
  const db = new Database(file, { readonly: true, fileMustExist: true })
  try {
    const { events, samples, products, categories } = db
      .prepare(
        'SELECT (SELECT count(*) FROM "Event") AS events, (SELECT count(*) FROM "Sample") AS samples, (SELECT count(*) FROM "Product") AS products, (SELECT count(*) FROM "Category") AS categories'
      )
      .get() as { events: number; samples: number; products: number; categories: number }
    return events === samples && events === products && categories === CATEGORIES ? events : -1
  } catch {
    return -1
  } finally {
    db.close()
  }
}

/** Returns the database URL, building the database first unless it already has `rows` rows. */
export async function prepareDatabase(rows: number): Promise<{ url: string; built: boolean }> {
  const file = `${DATA}events-${rows}.db`
  const url = `file:${file}`
  await mkdir(DATA, { recursive: true })
  let existing = -1
  try {
    existing = countRows(file)
  } catch {
    // No database yet.
  }
  if (existing === rows) {
    await pushSchema({ schemaPath: SCHEMA_PATH, url, force: false }) // in sync: executes nothing
    return { url, built: false }
  }
  await rm(file, { force: true })
  await pushSchema({ schemaPath: SCHEMA_PATH, url })
  const db = new Database(file)
  try {
    // eventRow in SQL, one statement: a recursive CTE counts the ids, strftime writes createdAt in
    // the adapter's format. A million rows take about a second, against several row by row.
    db.exec(`INSERT INTO "Event" ("id", "createdAt", "payload")
      WITH RECURSIVE ids(id) AS (SELECT 1 UNION ALL SELECT id + 1 FROM ids WHERE id < ${rows})
      SELECT id,
             strftime('%Y-%m-%dT%H:%M:%S.000+00:00', ${START / 1000} + (id - 1) / ${EVENTS_PER_SECOND}, 'unixepoch'),
             'event ' || id || ': ' || '${'x'.repeat(PAYLOAD_PADDING)}'
      FROM ids`)
    // The rows are eventRow's: the first, a middle and the last one checked.
    const read = db.prepare<[number], { id: number; createdAt: string; payload: string }>(
      'SELECT "id", "createdAt", "payload" FROM "Event" WHERE "id" = ?'
    )
    for (const id of [1, Math.ceil(rows / 2), rows]) {
      const row = eventRow(id)
      const found = read.get(id)
      if (found?.createdAt !== sqliteDate(row.createdAt) || found.payload !== row.payload) {
        throw new Error(`${file}: row ${id} is ${JSON.stringify(found)}, not eventRow's`)
      }
    }
    db.exec(SAMPLES_FROM_EVENTS)
    for (const sql of catalogueStatements('sqlite')) db.exec(sql)
    db.exec('ANALYZE')
  } finally {
    db.close()
  }
  return { url, built: true }
}
