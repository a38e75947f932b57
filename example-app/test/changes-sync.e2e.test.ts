/**
 * Syncing a copy by the change feed under concurrent writers (docs/syncing.md, test/fixtures/changes):
 * writers insert, update and delete notes in interleavings a seeded generator draws, one of them
 * holding transactions open for a second and more, while readers (anonymous, and callers scoped
 * to their own notes) follow the feed from a token taken before they read the collection, as the
 * docs' client loop does. At the end each copy equals the table as that caller sees it: nothing
 * missing, nothing extra, nothing stale. On PostgreSQL the held transactions take their ids before
 * transactions that commit after them started, which the feed's watermark waits for. The readers
 * follow the feed with the client's followChanges, on both engines.
 * `CHANGES_SYNC_SEED` replays a seed.
 */
import { followChanges, isTombstone } from '@prisma-hydra/runtime/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHydraApp, type HydraAccess } from '#fixtures/changes/hydra/index.js'
import { PrismaClient } from '#fixtures/changes/prisma/client.js'
import { applyChangeLog } from './support/change-log.js'
import { createAdapter, freshDatabase, startServer } from './support/harness.js'
import { seededRandom } from './support/seeded-random.js'

const SCHEMA = new URL('./fixtures/changes/schema.prisma', import.meta.url).pathname
const OWNERS = ['ann', 'bob', 'cy'] as const
const SEED = Number(process.env.CHANGES_SYNC_SEED ?? Date.now() % 1_000_000)

const access: HydraAccess = {
  Note: {
    scope: (c) => {
      const caller = c.req.header('authorization')?.replace(/^User /, '')
      return caller === undefined ? undefined : { owner: caller }
    },
  },
}

let prisma: PrismaClient
let remove: () => Promise<void>
/** The app on each engine: readers follow both while the writers write. */
const servers: Record<'prisma' | 'compiled', { origin: string; close: () => Promise<void> }> =
  {} as never

beforeAll(async () => {
  const database = await freshDatabase(SCHEMA)
  remove = database.remove
  prisma = new PrismaClient({ adapter: createAdapter(database.url) })
  await applyChangeLog(prisma)
  servers.prisma = await startServer(createHydraApp({ prisma, access }).fetch)
  servers.compiled = await startServer(createHydraApp({ prisma, access, engine: 'compiled' }).fetch)
}, 120_000)

afterAll(async () => {
  await servers.prisma?.close()
  await servers.compiled?.close()
  await prisma?.$disconnect()
  await remove?.()
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

type Copy = Map<string, { title: unknown; owner: unknown }>

const sorted = (copy: Copy) => [...copy.entries()].sort(([a], [b]) => a.localeCompare(b))

async function get(origin: string, path: string, caller: string | undefined) {
  const headers: Record<string, string> = caller ? { Authorization: `User ${caller}` } : {}
  const response = await fetch(new URL(path, origin), { headers })
  const body = (await response.json()) as Record<string, unknown>
  if (response.status !== 200)
    throw new Error(`${path}: ${response.status} ${JSON.stringify(body)}`)
  return body
}

const nextOf = (body: Record<string, unknown>) =>
  (body['hydra:view'] as Record<string, string> | undefined)?.['hydra:next']

/**
 * A reader: the token of now, then the collection, then the feed; once `done` says the writers
 * are, until its copy equals `expected` (on PostgreSQL the watermark may be held back a while by
 * other transactions of the server) or a minute has passed.
 */
async function syncedCopy(
  origin: string,
  caller: string | undefined,
  done: () => boolean,
  expected: () => Promise<Copy>
): Promise<Copy> {
  const copy: Copy = new Map()
  const options = { headers: caller ? { Authorization: `User ${caller}` } : {} }
  let feed = new URL('/notes/changes', origin).href
  for await (const page of followChanges(feed, options)) feed = page.next
  for (let page: string | undefined = '/notes'; page; ) {
    const body = await get(origin, page, caller)
    for (const member of body['hydra:member'] as Record<string, unknown>[])
      copy.set(member['@id'] as string, { title: member.title, owner: member.owner })
    page = nextOf(body)
  }
  let deadline = Number.POSITIVE_INFINITY
  for (;;) {
    const finished = done()
    if (finished && deadline === Number.POSITIVE_INFINITY) deadline = Date.now() + 60_000
    for await (const page of followChanges<Record<string, unknown>>(feed, options)) {
      for (const change of page.changes) {
        if (isTombstone(change)) copy.delete(change['@id'])
        else copy.set(change['@id'] as string, { title: change.title, owner: change.owner })
      }
      feed = page.next
    }
    if (finished) {
      const table = await expected()
      if (JSON.stringify(sorted(copy)) === JSON.stringify(sorted(table))) return copy
      if (Date.now() > deadline) return copy
    }
    await sleep(finished ? 200 : 20)
  }
}

/** One writer: `steps` changes drawn by `draw`, some in transactions held open `hold` ms. */
async function writer(draw: () => number, steps: number, hold: number): Promise<void> {
  const pick = <T>(values: readonly T[]) => values[Math.floor(draw() * values.length)] as T
  for (let step = 0; step < steps; step++) {
    const ids = (await prisma.note.findMany({ select: { id: true } })).map((note) => note.id)
    const kind = ids.length === 0 ? 0 : Math.floor(draw() * 3)
    const id = ids.length > 0 ? pick(ids) : 0
    const title = `t${Math.floor(draw() * 1e6)}`
    const owner = pick(OWNERS)
    const write = async (client: Pick<PrismaClient, 'note'>) => {
      if (kind === 0) await client.note.create({ data: { title, owner } })
      // A row another writer deleted meanwhile is no change: deleteMany and updateMany say so.
      else if (kind === 1) await client.note.updateMany({ where: { id }, data: { title, owner } })
      else await client.note.deleteMany({ where: { id } })
    }
    if (hold > 0 && draw() < 0.5)
      await prisma.$transaction(
        async (tx) => {
          await write(tx)
          await sleep(hold)
          // A second write after the others moved on, in the same transaction.
          await tx.note.create({ data: { title: `${title}-late`, owner } })
        },
        { timeout: 30_000, maxWait: 30_000 }
      )
    else await write(prisma)
    await sleep(Math.floor(draw() * 15))
  }
}

/** The table as `caller` sees it. */
async function table(caller: string | undefined): Promise<Copy> {
  const rows = await prisma.note.findMany({ where: caller ? { owner: caller } : {} })
  return new Map(rows.map((row) => [`/notes/${row.id}`, { title: row.title, owner: row.owner }]))
}

describe('syncing a copy by the feed', () => {
  it('ends with each copy equal to the table as its caller sees it', async () => {
    console.log(`changes-sync seed: ${SEED} (CHANGES_SYNC_SEED)`)
    const draw = seededRandom(SEED)
    for (let index = 0; index < 8; index++)
      await prisma.note.create({
        data: { title: `seed ${index}`, owner: OWNERS[index % 3] as string },
      })
    let finished = false
    const callers = [undefined, 'ann', 'bob'] as const
    const engines = ['prisma', 'compiled'] as const
    const readers = engines.flatMap((engine) =>
      callers.map((caller) =>
        syncedCopy(
          servers[engine].origin,
          caller,
          () => finished,
          () => table(caller)
        )
      )
    )
    const writers = [
      writer(seededRandom(Math.floor(draw() * 1e9)), 25, 0),
      writer(seededRandom(Math.floor(draw() * 1e9)), 25, 0),
      writer(seededRandom(Math.floor(draw() * 1e9)), 6, 1500),
    ]
    try {
      await Promise.all(writers)
    } finally {
      finished = true
    }
    const copies = await Promise.all(readers)
    for (const [e, engine] of engines.entries())
      for (const [index, caller] of callers.entries())
        expect(
          sorted(copies[e * callers.length + index] as Copy),
          `${caller ?? 'anonymous'} on ${engine}, seed ${SEED}`
        ).toEqual(sorted(await table(caller)))
    expect((await table(undefined)).size).toBeGreaterThan(0)
  }, 180_000)
})
