/**
 * A script's purges (docs/caching.md#purge-on-write): a process that writes through a client
 * extended with `hydraInvalidation` and exits with `process.exit`, as a cron import does
 * (test/support/purge-script.ts). Its purge leaves after the write's answer: awaited with
 * `invalidation.settled()` it reaches the shared cache in front of the example (an HTTP proxy
 * purged by `xkey`, test/support/shared-cache.ts), and the cached page is fetched afresh; not
 * awaited, it is lost with the process and the cache keeps the old page.
 */
import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PrismaClient } from '#generated/prisma/client.js'
import { createApp } from '../src/app.js'
import { prepareDatabase } from '../src/database.js'
import { createPrismaClient } from '../src/prisma.js'
import { emptyDatabase, startServer, TEST_DATABASE, type TestDatabase } from './support/harness.js'
import { sharedCache } from './support/shared-cache.js'

const APP = new URL('..', import.meta.url).pathname

let prisma: PrismaClient
let database: TestDatabase
let server: { origin: string; close: () => Promise<void> }
let cache: Awaited<ReturnType<typeof sharedCache>>

beforeAll(async () => {
  if (TEST_DATABASE !== 'sqlite') return
  database = await emptyDatabase()
  prisma = createPrismaClient(database.url)
  await prepareDatabase(prisma, database.url)
  server = await startServer(createApp(prisma, { cacheTags: { header: 'xkey' } }).fetch)
  cache = await sharedCache(server.origin, 'xkey')
}, 120_000)

afterAll(async () => {
  await cache?.close()
  await server?.close()
  await prisma?.$disconnect()
  await database?.remove()
})

/** Runs the script renaming book `id` to `title`; resolves with its exit code and output. */
function runScript(id: number, title: string, settled: boolean) {
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href
  const child = spawn(
    process.execPath,
    [`--conditions=${TEST_DATABASE}`, '--import', tsx, 'test/support/purge-script.ts'],
    {
      cwd: APP,
      env: {
        ...process.env,
        DATABASE_URL: database.url,
        PURGE_URL: `${cache.origin}/`,
        BOOK_ID: String(id),
        TITLE: title,
        SETTLED: settled ? '1' : '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    }
  )
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk))
  return new Promise<{ code: number | null; output: string }>((resolve) =>
    child.on('exit', (code) => resolve({ code, output }))
  )
}

/** The first book's title on `/books/recent` through the cache, and whether it was a hit. */
async function newest(): Promise<{ cached: string | null; title: string }> {
  const response = await fetch(`${cache.origin}/books/recent`, {
    headers: { Accept: 'application/ld+json' },
  })
  const body = (await response.json()) as { 'hydra:member': { title: string }[] }
  return { cached: response.headers.get('x-cache'), title: body['hydra:member'][0]?.title ?? '' }
}

// Nothing here depends on the database: SQLite's run alone holds it.
describe.skipIf(TEST_DATABASE !== 'sqlite')('a script that writes and exits', () => {
  it('purges the cache when it awaits settled(), and loses the purge when it does not', async () => {
    const first = await newest()
    expect((await newest()).cached).toBe('HIT')
    const book = await prisma.book.findFirstOrThrow({ where: { title: first.title } })
    const purges = cache.purges.length

    const hurried = await runScript(book.id, 'Renamed without waiting', false)
    expect(hurried).toEqual({ code: 0, output: 'written\n' })
    // The write committed, but its purge died with the process: the cache keeps the old page.
    expect(cache.purges.length).toBe(purges)
    expect(await newest()).toEqual({ cached: 'HIT', title: first.title })

    const patient = await runScript(book.id, 'Renamed and purged', true)
    expect(patient).toEqual({ code: 0, output: 'written\n' })
    // The script's extension is given no resources: its update purges the model and its rows.
    expect(cache.purges.slice(purges)).toEqual([['Book', 'Book:rows']])
    expect(await newest()).toEqual({ cached: 'MISS', title: 'Renamed and purged' })
  }, 60_000)
})
