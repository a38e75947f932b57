/**
 * The benchmark's database: `rows` events in a SQLite file under bench/.data/, one file per size,
 * reused while it holds exactly that many rows. The schema is applied by Prisma's own engine
 * (pushSchema); the rows are inserted with one better-sqlite3 prepared statement in one
 * transaction, createdAt written in the format the Prisma adapter writes.
 */
import { mkdir, rm } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { pushSchema } from '@prisma-hydra/prisma-offline/push-schema'
import Database from 'better-sqlite3'

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

function countRows(file: string): number {
  const db = new Database(file, { readonly: true, fileMustExist: true })
  try {
    return (db.prepare('SELECT count(*) AS n FROM "Event"').get() as { n: number }).n
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
    const insert = db.prepare('INSERT INTO "Event" ("id", "createdAt", "payload") VALUES (?, ?, ?)')
    db.transaction(() => {
      for (let id = 1; id <= rows; id++) {
        const row = eventRow(id)
        insert.run(row.id, sqliteDate(row.createdAt), row.payload)
      }
    })()
  } finally {
    db.close()
  }
  return { url, built: true }
}
