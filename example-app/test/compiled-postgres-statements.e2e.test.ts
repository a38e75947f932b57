/**
 * The `compiled` engine's statements on PostgreSQL, named so that each connection prepares them
 * once (runtime/src/data/compiled/postgres.ts, docs/performance.md): a statement read again is
 * named and the server holds it for the connection, answering the bytes the `prisma` engine
 * answers; a connection holds at most the engine's bound of them however many distinct statements
 * are read; a connection whose server forgot its statements (a pooler's, `DEALLOCATE ALL`) and a
 * statement whose columns changed since it was prepared are answered right, read again unnamed.
 *
 * Each client's pool has one connection, so that `pg_prepared_statements`, read through the same
 * client, lists every statement the app prepared on it. The file runs in a process of its own:
 * the names are the process's.
 */
import { PrismaPg } from '@prisma/adapter-pg'
import { shareAdapter } from '@prisma-hydra/runtime'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PrismaClient } from '#generated/prisma/client.js'
import { createApp } from '../src/app.js'
import { prepareDatabase } from '../src/database.js'
import { createPrismaClient } from '../src/prisma.js'
import { rememberAdapter } from '../src/shared-adapters.js'
import { emptyDatabase, startServer, type TestDatabase } from './support/harness.js'

/** The most statement texts the engine names (runtime/src/data/compiled/postgres.ts). */
const KEPT = 32

/** The answer to `path` from the server at `origin`: its status, type, tag and body. */
async function answered(origin: string, path: string): Promise<string> {
  const response = await fetch(`${origin}${path}`)
  const headers = ['content-type', 'etag'].map((name) => response.headers.get(name))
  return `${response.status} ${JSON.stringify(headers)}\n${await response.text()}`
}

const ids = (n: number) => Array.from({ length: n }, (_, i) => `id[]=${i + 1}`).join('&')

describe('PostgreSQL: statements named per connection', () => {
  let database: TestDatabase
  let seeded: PrismaClient
  const opened: Array<() => Promise<void>> = []

  /** The app on both engines over a client whose pool has one connection. */
  async function serve() {
    const adapter = shareAdapter(new PrismaPg({ connectionString: database.url, max: 1 }))
    const client = new PrismaClient({ adapter })
    rememberAdapter(client, adapter)
    const [own, compiled] = await Promise.all([
      startServer(createApp(client, {}).fetch),
      startServer(createApp(client, { engine: 'compiled' }).fetch),
    ])
    opened.push(async () => {
      await own.close()
      await compiled.close()
      await client.$disconnect()
    })
    /** Reads `path` from both apps: the same answer, returned. */
    const both = async (path: string) => {
      const twin = await answered(compiled.origin, path)
      expect(twin, path).toBe(await answered(own.origin, path))
      return twin
    }
    /** The engine's statements the server holds for the pool's one connection. */
    const held = async () => {
      const rows = await client.$queryRawUnsafe<Array<{ name: string }>>(
        "SELECT name FROM pg_prepared_statements WHERE name LIKE 'prisma\\_hydra\\_%'"
      )
      return rows.map((row) => row.name)
    }
    return { client, both, held }
  }

  beforeAll(async () => {
    database = await emptyDatabase()
    seeded = createPrismaClient(database.url)
    await prepareDatabase(seeded, database.url)
  })

  afterAll(async () => {
    for (const close of opened) await close()
    await seeded?.$disconnect()
    await database?.remove()
  })

  it('names a statement read a second time, and reads it by that name', async () => {
    const served = await serve()
    const path = '/authors?page=2&itemsPerPage=3'
    const first = await served.both(path)
    expect(await served.held()).toEqual([])
    expect(await served.both(path)).toBe(first)
    const named = await served.held()
    expect(named).toHaveLength(1)
    for (let round = 0; round < 5; round++) expect(await served.both(path)).toBe(first)
    expect(await served.held()).toEqual(named)
  })

  it('answers right, unnamed from then on, once the server forgets the statements', async () => {
    const served = await serve()
    const path = '/authors?page=1&itemsPerPage=4'
    const first = await served.both(path)
    await served.both(path)
    expect(await served.held()).toHaveLength(1)
    // As a pooler's server connection that never saw the statement: the name is unknown there.
    await served.client.$executeRawUnsafe('DEALLOCATE ALL')
    expect(await served.both(path)).toBe(first)
    for (const other of ['/authors?page=3&itemsPerPage=2', '/books?page=2']) {
      await served.both(other)
      await served.both(other)
    }
    expect(await served.held()).toEqual([])
  })

  it('reads a statement whose columns changed again unnamed, and names it anew', async () => {
    const served = await serve()
    const path = '/authors?page=2&itemsPerPage=2'
    await served.both(path)
    await served.both(path)
    const [before] = await served.held()
    // The statement's result type changes: PostgreSQL refuses to run it as prepared, and the
    // pool closes the connection the failure came on.
    await served.client.$executeRawUnsafe(
      'ALTER TABLE "Author" ALTER COLUMN "name" TYPE varchar(500)'
    )
    const changed = await served.both(path)
    expect(changed.startsWith('200 ')).toBe(true)
    await served.both(path)
    expect(await served.both(path)).toBe(changed)
    const after = await served.held()
    expect(after).toHaveLength(1)
    expect(after).not.toContain(before)
  })

  // Last: the names are the process's, and this one gives them all.
  it('holds at most its bound of statements for a connection', async () => {
    const served = await serve()
    // A list of n ids is a statement of its own for each n: together more than the bound.
    for (let n = 1; n <= KEPT + 4; n++) {
      await served.both(`/authors?${ids(n)}`)
      await served.both(`/authors?${ids(n)}`)
    }
    const held = await served.held()
    expect(held.length).toBeGreaterThan(KEPT / 2)
    expect(held.length).toBeLessThanOrEqual(KEPT)
  })
})
