/**
 * The change feed (docs/syncing.md, test/fixtures/changes): `GET /notes/changes` over the log the
 * generated triggers write, served over HTTP by createHydraApp. Without `since`, the token of now;
 * with it, the notes changed since, in commit order, each as the caller reads it now, and a
 * tombstone for each that left the caller's view, told only to a caller whose scope held on the
 * row as logged; pages of the collection's size; a malformed token a 400, a token the log no
 * longer covers a 410, a scope the log cannot evaluate a 403. On PostgreSQL the feed reads below
 * the watermark, which any transaction of the server holds back (other tests' too): each read
 * waits until what it expects is readable.
 */
import type { Context } from 'hono'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createHydraApp, type HydraAccess } from '#fixtures/changes/hydra/index.js'
import { PrismaClient } from '#fixtures/changes/prisma/client.js'
import { withSettings } from '../src/adapter.js'
import { applyChangeLog } from './support/change-log.js'
import { createAdapter, freshDatabase, startServer, TEST_DATABASE } from './support/harness.js'
import { checkedAgainstOpenApi } from './support/openapi-check.js'

const SCHEMA = new URL('./fixtures/changes/schema.prisma', import.meta.url).pathname

/** The caller, by `Authorization: User <name>`; none: anonymous. */
const callerOf = (c: Context) => c.req.header('authorization')?.replace(/^User /, '')

/**
 * `ann` and `bob` see their own notes; `pat`, the notes of owners starting with `a`, which the
 * log cannot evaluate (a text pattern); anonymous callers see every note.
 */
const access: HydraAccess = {
  Note: {
    scope: (c) => {
      const caller = callerOf(c)
      if (caller === undefined) return undefined
      return caller === 'pat' ? { owner: { startsWith: 'a' } } : { owner: caller }
    },
  },
}

let prisma: PrismaClient
let remove: () => Promise<void>
let origin: string
let close: () => Promise<void>
/** The same app on the compiled engine. */
let twin: { origin: string; close: () => Promise<void> }
/** Every answer of the app, checked against its own OpenAPI document. */
let openApi: ReturnType<typeof checkedAgainstOpenApi>

beforeAll(async () => {
  const database = await freshDatabase(SCHEMA)
  remove = database.remove
  prisma = new PrismaClient({ adapter: createAdapter(database.url) })
  await applyChangeLog(prisma)
  openApi = checkedAgainstOpenApi(createHydraApp({ prisma, access }).fetch)
  ;({ origin, close } = await startServer(openApi.fetch))
  twin = await startServer(createHydraApp({ prisma, access, engine: 'compiled' }).fetch)
}, 120_000)

afterAll(async () => {
  await close?.()
  await twin?.close()
  await prisma?.$disconnect()
  await remove?.()
})

interface Answer {
  status: number
  body: Record<string, unknown>
}

async function get(path: string, caller?: string): Promise<Answer> {
  const headers: Record<string, string> = caller ? { Authorization: `User ${caller}` } : {}
  const response = await fetch(`${origin}${path}`, { headers })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

/** The token of now, as a client takes it before reading the collection. */
async function tokenNow(caller?: string): Promise<string> {
  const { status, body } = await get('/notes/changes', caller)
  expect(status).toBe(200)
  expect(body['hydra:member']).toEqual([])
  expect(body.upToDate).toBe(true)
  return tokenOf(body)
}

function tokenOf(body: Record<string, unknown>): string {
  const next = (body['hydra:view'] as Record<string, string>)['hydra:next'] as string
  return new URL(next, origin).searchParams.get('since') as string
}

/** Every page from `since` until up to date: each page's members, and the token to resume from. */
async function follow(since: string, caller?: string) {
  const pages: Record<string, unknown>[][] = []
  let token = since
  for (;;) {
    const { status, body } = await get(`/notes/changes?since=${token}`, caller)
    expect(status, JSON.stringify(body)).toBe(200)
    pages.push(body['hydra:member'] as Record<string, unknown>[])
    token = tokenOf(body)
    if (body.upToDate === true) return { pages, members: pages.flat(), token }
  }
}

/** follow, until `check` passes (the watermark of PostgreSQL may be held back for a while). */
async function followUntil(
  since: string,
  caller: string | undefined,
  check: (members: Record<string, unknown>[]) => void
) {
  let result: Awaited<ReturnType<typeof follow>> | undefined
  await vi.waitFor(
    async () => {
      result = await follow(since, caller)
      check(result.members)
    },
    { timeout: 30_000, interval: 200 }
  )
  return result as Awaited<ReturnType<typeof follow>>
}

/** What a client applying the members in order holds of each IRI it was told of. */
function copyOf(members: Record<string, unknown>[]) {
  const copy: Record<string, [unknown, unknown]> = {}
  for (const member of members) copy[member['@id'] as string] = [member['@type'], member.title]
  return copy
}

const summary = (members: Record<string, unknown>[]) =>
  members.map((member) => [member['@id'], member['@type'], member.title])

describe('the change feed', () => {
  it('answers the changes since a token: members as they are now, tombstones of deletions', async () => {
    const start = await tokenNow()
    const first = await prisma.note.create({ data: { title: 'first', owner: 'ann' } })
    const second = await prisma.note.create({ data: { title: 'second', owner: 'ann' } })
    const third = await prisma.note.create({ data: { title: 'third', owner: 'bob' } })
    await prisma.note.update({ where: { id: first.id }, data: { title: 'first, edited' } })
    await prisma.note.delete({ where: { id: second.id } })
    // Each key once, where its last change stands; the member as the collection reads it now.
    const { members, token } = await followUntil(start, undefined, (members) =>
      expect(summary(members)).toEqual([
        [`/notes/${third.id}`, 'Note', 'third'],
        [`/notes/${first.id}`, 'Note', 'first, edited'],
        [`/notes/${second.id}`, 'Deleted', undefined],
      ])
    )
    const item = await get(`/notes/${first.id}`)
    const { '@context': _, ...asItem } = item.body
    expect(members[1]).toEqual(asItem)
    expect(Object.keys(members[2] as object)).toEqual(['@id', '@type'])
    // Resuming from the token gives nothing more; a new change, that alone.
    expect((await follow(token)).members).toEqual([])
    await prisma.note.update({ where: { id: third.id }, data: { done: true } })
    await followUntil(token, undefined, (members) =>
      expect(members.map((member) => [member['@id'], member.done])).toEqual([
        [`/notes/${third.id}`, true],
      ])
    )
  })

  it('pages the entries by the collection size, in commit order', async () => {
    const start = await tokenNow()
    const created: { title: string }[] = []
    for (let index = 0; index < 7; index++)
      created.push(await prisma.note.create({ data: { title: `paged ${index}`, owner: 'ann' } }))
    const { pages } = await followUntil(start, undefined, (members) =>
      expect(members.map((member) => member.title)).toEqual(created.map((note) => note.title))
    )
    // Five entries a page (`@pagination(itemsPerPage: 5)`), the last one up to date.
    expect(pages.map((page) => page.length).slice(0, 2)).toEqual([5, 2])
  })

  it('tells a scoped caller of its own rows only, and tombstones only of rows it could see', async () => {
    const start = await tokenNow('ann')
    const moving = await prisma.note.create({ data: { title: 'moving', owner: 'ann' } })
    const kept = await prisma.note.create({ data: { title: 'kept', owner: 'ann' } })
    const bobs = await prisma.note.create({ data: { title: 'of bob', owner: 'bob' } })
    const gone = await prisma.note.create({ data: { title: 'gone', owner: 'bob' } })
    await prisma.note.update({ where: { id: moving.id }, data: { owner: 'bob' } })
    await prisma.note.delete({ where: { id: gone.id } })
    await prisma.note.update({ where: { id: bobs.id }, data: { title: 'of bob, edited' } })
    // ann: her note, and a tombstone of the one that moved out of her view; nothing of bob's,
    // on any page (a key changed on two pages is told on each).
    await followUntil(start, 'ann', (members) =>
      expect(copyOf(members)).toEqual({
        [`/notes/${kept.id}`]: ['Note', 'kept'],
        [`/notes/${moving.id}`]: ['Deleted', undefined],
      })
    )
    // bob: the note that moved into his view, and his own; a tombstone of his deleted note.
    await followUntil(start, 'bob', (members) =>
      expect(copyOf(members)).toEqual({
        [`/notes/${moving.id}`]: ['Note', 'moving'],
        [`/notes/${gone.id}`]: ['Deleted', undefined],
        [`/notes/${bobs.id}`]: ['Note', 'of bob, edited'],
      })
    )
    // A caller without a scope: every member and every tombstone.
    await followUntil(start, undefined, (members) =>
      expect(copyOf(members)).toEqual({
        [`/notes/${kept.id}`]: ['Note', 'kept'],
        [`/notes/${moving.id}`]: ['Note', 'moving'],
        [`/notes/${gone.id}`]: ['Deleted', undefined],
        [`/notes/${bobs.id}`]: ['Note', 'of bob, edited'],
      })
    )
  })

  /**
   * A page's text without its view's `next`: on PostgreSQL a page that is not full resumes from the
   * server's watermark, which other test files' transactions move between two requests.
   */
  const withoutNext = (text: string): string =>
    JSON.stringify(JSON.parse(text), (key, value) =>
      key === 'hydra:next' || key === 'next' ? undefined : value
    )

  it('answers the same bytes on the compiled engine', async () => {
    const start = await tokenNow()
    const note = await prisma.note.create({ data: { title: 'twin', owner: 'ann' } })
    const other = await prisma.note.create({ data: { title: 'twin of bob', owner: 'bob' } })
    await prisma.note.update({ where: { id: other.id }, data: { owner: 'ann' } })
    await prisma.note.delete({ where: { id: note.id } })
    await followUntil(start, undefined, (members) => expect(members).toHaveLength(2))
    for (const caller of [undefined, 'ann', 'bob']) {
      const headers: Record<string, string> = caller ? { Authorization: `User ${caller}` } : {}
      const [own, compiled] = await Promise.all(
        [origin, twin.origin].map(async (server) => {
          const response = await fetch(`${server}/notes/changes?since=${start}`, { headers })
          return `${response.status} ${withoutNext(await response.text())}`
        })
      )
      expect(compiled, caller ?? 'anonymous').toBe(own)
    }
  })

  it('refuses a caller whose scope the log cannot evaluate', async () => {
    const { status, body } = await get('/notes/changes', 'pat')
    expect(status).toBe(403)
    expect(body.detail).toContain('owner')
  })

  it('answers a malformed token with a 400 naming since', async () => {
    const valid = await tokenNow()
    const decoded = Buffer.from(valid, 'base64url').toString()
    const malformed = [
      '',
      'x',
      '!!!',
      `${valid}=`,
      Buffer.from(`${decoded}.1`).toString('base64url'),
      Buffer.from(`0${decoded}`).toString('base64url'),
      Buffer.from('-1').toString('base64url'),
      Buffer.from('99999999999999999999').toString('base64url'),
      'a'.repeat(200),
      '%00',
    ]
    for (const since of malformed) {
      const { status, body } = await get(`/notes/changes?since=${since}`)
      expect([since, status]).toEqual([since, 400])
      expect(body.detail).toMatch(/^since: /)
    }
  })
})

describe('finding the feed', () => {
  it('links the collection to its feed, by the changes term of the API vocabulary', async () => {
    const response = await fetch(`${origin}/notes`)
    expect(response.status).toBe(200)
    expect(response.headers.get('link')).toContain(
      `<${origin}/notes/changes>; rel="${origin}/docs.jsonld#changes"`
    )
    // A model without @changes has no feed and no such link.
    const drafts = await fetch(`${origin}/drafts`)
    expect(drafts.headers.get('link')).not.toContain('#changes')
    expect((await fetch(`${origin}/drafts/changes`)).status).toBe(404)
  })

  it('documents the feed in the Hydra documentation and the OpenAPI document', async () => {
    const docs = await get('/docs.jsonld')
    const operations = JSON.stringify(docs.body)
    expect(operations).toContain('"hydra:title":"getNoteChanges"')
    expect(operations).toContain('"hydra:template":"/notes/changes{?since}"')
    expect(operations).not.toContain('getDraftChanges')
    const openapi = await get('/openapi.json')
    const paths = openapi.body.paths as Record<string, { get: Record<string, unknown> }>
    const feed = paths['/notes/changes']?.get ?? {}
    expect(feed.operationId).toBe('getNoteChanges')
    expect((feed.parameters as { name: string }[]).map((parameter) => parameter.name)).toEqual([
      'since',
    ])
    expect(Object.keys(feed.responses as object)).toEqual(
      expect.arrayContaining(['200', '400', '403', '410'])
    )
    // Every response it names is declared; its 410 is its own, naming its collection.
    const declared = (openapi.body.components as { responses: object }).responses
    for (const status of ['400', '403']) expect(declared).toHaveProperty(status)
    expect(JSON.stringify((feed.responses as Record<string, unknown>)['410'])).toContain(
      'read /notes again'
    )
    expect(paths['/drafts/changes']).toBeUndefined()
  })

  it('answered every request of this file as its OpenAPI document says', async () => {
    const result = await openApi.result()
    expect(result.violations).toEqual([])
    expect(result.byPath['/notes/changes']).toBeGreaterThan(10)
  })
})

describe('retention', () => {
  it('refuses an age below a second when the app is made, naming the option', () => {
    for (const retainSeconds of [0, 0.5, -1, Number.NaN])
      expect(() => createHydraApp({ prisma, changes: { retainSeconds } })).toThrow(
        'changes.retainSeconds'
      )
  })

  it('prunes entries older than the age set, and answers a token before them 410', async () => {
    const retained = await startServer(
      createHydraApp({ prisma, access, changes: { retainSeconds: 2 } }).fetch
    )
    try {
      const at = async (path: string) => {
        const response = await fetch(`${retained.origin}${path}`)
        return { status: response.status, body: (await response.json()) as Record<string, unknown> }
      }
      const start = await tokenNow()
      await prisma.note.create({ data: { title: 'old', owner: 'ann' } })
      await followUntil(start, undefined, (members) => expect(members).toHaveLength(1))
      // The entry is older than two seconds (SQLite's clock counts whole seconds) once pruned.
      let expired: { status: number; body: Record<string, unknown> } | undefined
      await vi.waitFor(
        async () => {
          expired = await at(`/notes/changes?since=${start}`)
          expect(expired.status).toBe(410)
        },
        { timeout: 30_000, interval: 500 }
      )
      expect(expired?.body.detail).toContain('read /notes again')
      expect(await prisma.hydraChange.count({ where: { model: 'Note' } })).toBe(0)
      // A token taken now follows from there (read where nothing prunes: on PostgreSQL a
      // watermark held back by another test could keep the entry until it is old enough).
      const fresh = await at('/notes/changes')
      const token = tokenOf(fresh.body)
      const note = await prisma.note.create({ data: { title: 'new', owner: 'ann' } })
      await vi.waitFor(
        async () => {
          const page = await get(`/notes/changes?since=${token}`)
          expect(page.status).toBe(200)
          expect(summary(page.body['hydra:member'] as Record<string, unknown>[])).toEqual([
            [`/notes/${note.id}`, 'Note', 'new'],
          ])
        },
        { timeout: 30_000, interval: 200 }
      )
    } finally {
      await retained.close()
    }
  })
})

/**
 * The log's time (docs/syncing.md#retention) in sessions whose time zone is not UTC: 13 hours
 * ahead of it and 12 behind, on a database of its own. SQLite has no session time zone.
 */
describe.skipIf(TEST_DATABASE === 'sqlite')("the log's time, in UTC in every session", () => {
  const ZONES = { ahead: ['Etc/GMT-13', '+13:00'], behind: ['Etc/GMT+12', '-12:00'] } as const
  let base: PrismaClient
  const zoned: Partial<Record<keyof typeof ZONES, PrismaClient>> = {}
  let drop: () => Promise<void>

  /** `url` whose sessions all start in the time zone `zone` (PostgreSQL's name, MariaDB's offset). */
  const inZone = (url: string, [name, offset]: readonly [string, string]) =>
    TEST_DATABASE === 'postgresql'
      ? withSettings(url, { options: `-c TimeZone=${name}` })
      : withSettings(url, { initSql: `SET time_zone = '${offset}'` })

  beforeAll(async () => {
    const database = await freshDatabase(SCHEMA)
    drop = database.remove
    base = new PrismaClient({ adapter: createAdapter(database.url) })
    await applyChangeLog(base)
    for (const [zone, setting] of Object.entries(ZONES))
      zoned[zone as keyof typeof ZONES] = new PrismaClient({
        adapter: createAdapter(inZone(database.url, setting)),
      })
  }, 120_000)

  afterAll(async () => {
    for (const client of Object.values(zoned)) await client.$disconnect()
    await base?.$disconnect()
    await drop?.()
  })

  /** The client of `zone`, checked to be in it: its session's clock is not UTC's. */
  async function clientIn(zone: keyof typeof ZONES): Promise<PrismaClient> {
    const client = zoned[zone] as PrismaClient
    const [row] = await client.$queryRawUnsafe<{ hours: unknown }[]>(
      TEST_DATABASE === 'postgresql'
        ? `SELECT round(extract(epoch FROM (LOCALTIMESTAMP - (now() AT TIME ZONE 'UTC'))) / 3600)::int AS hours`
        : 'SELECT ROUND(TIMESTAMPDIFF(SECOND, UTC_TIMESTAMP(), NOW()) / 3600) AS hours'
    )
    expect(Number(row?.hours)).toBe(zone === 'ahead' ? 13 : -12)
    return client
  }

  /** How far in seconds the entry of note `id` was written from UTC's clock now. */
  async function offsetOfEntry(id: number): Promise<number> {
    const [row] = await base.$queryRawUnsafe<{ off: unknown }[]>(
      TEST_DATABASE === 'postgresql'
        ? `SELECT extract(epoch FROM ("at" - (now() AT TIME ZONE 'UTC')))::int AS off FROM hydra_changes WHERE model = 'Note' AND "key"->>'id' = '${id}'`
        : `SELECT TIMESTAMPDIFF(SECOND, UTC_TIMESTAMP(3), \`at\`) AS off FROM hydra_changes WHERE model = 'Note' AND JSON_VALUE(\`key\`, '$.id') = ${id}`
    )
    return Number(row?.off)
  }

  /** Until note `id`'s entry can be pruned: on PostgreSQL, once it is below the watermark. */
  async function readable(id: number): Promise<void> {
    if (TEST_DATABASE !== 'postgresql') return
    const entry = (await base.hydraChange.findMany({ where: { model: 'Note' } })).find(
      (row) => (row.key as { id: number }).id === id
    )
    await vi.waitFor(
      async () => {
        const [row] = await base.$queryRawUnsafe<{ w: string }[]>(
          'SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS w'
        )
        expect(BigInt(row?.w as string)).toBeGreaterThan(entry?.tx as bigint)
      },
      { timeout: 30_000, interval: 200 }
    )
  }

  const logged = async (id: number) =>
    (await base.hydraChange.findMany({ where: { model: 'Note' } })).some(
      (row) => (row.key as { id: number }).id === id
    )

  it("writes each entry at the time of UTC, whatever the writer's time zone", async () => {
    for (const zone of ['ahead', 'behind'] as const) {
      const client = await clientIn(zone)
      const note = await client.note.create({ data: { title: zone, owner: 'ann' } })
      expect(Math.abs(await offsetOfEntry(note.id)), zone).toBeLessThan(60)
    }
  })

  it("prunes by the age in UTC, whatever the pruning session's time zone", async () => {
    // Ahead of UTC: an hour's retention keeps an entry just written.
    const ahead = await clientIn('ahead')
    const kept = await base.note.create({ data: { title: 'kept', owner: 'ann' } })
    await readable(kept.id)
    const keeping = await startServer(
      createHydraApp({ prisma: ahead, changes: { retainSeconds: 3600 } }).fetch
    )
    try {
      expect((await fetch(`${keeping.origin}/notes/changes`)).status).toBe(200)
    } finally {
      await keeping.close()
    }
    expect(await logged(kept.id)).toBe(true)
    // Behind UTC: a second's retention prunes it, once a second old.
    const behind = await clientIn('behind')
    const pruning = await startServer(
      createHydraApp({ prisma: behind, changes: { retainSeconds: 1 } }).fetch
    )
    try {
      await vi.waitFor(
        async () => {
          expect((await fetch(`${pruning.origin}/notes/changes`)).status).toBe(200)
          expect(await logged(kept.id)).toBe(false)
        },
        { timeout: 30_000, interval: 500 }
      )
    } finally {
      await pruning.close()
    }
  })
})

/**
 * With read replicas (docs/syncing.md#the-feed): the feed reads its members on the primary, where
 * it reads the log. The replica here never catches up (a database of its own, with the schema and
 * none of the rows): a member read there would be missing, and told as a tombstone.
 */
describe('read replicas', () => {
  let lagging: PrismaClient
  let dropReplica: () => Promise<void>

  beforeAll(async () => {
    const replica = await freshDatabase(SCHEMA)
    dropReplica = replica.remove
    lagging = new PrismaClient({ adapter: createAdapter(replica.url) })
  }, 120_000)

  afterAll(async () => {
    await lagging?.$disconnect()
    await dropReplica?.()
  })

  it('reads the members on the primary, not on a replica that lags', async () => {
    const replicated = await startServer(
      createHydraApp({ prisma, access, replicas: [lagging] }).fetch
    )
    try {
      const at = async (path: string) => {
        const response = await fetch(`${replicated.origin}${path}`)
        return { status: response.status, body: (await response.json()) as Record<string, unknown> }
      }
      const start = tokenOf((await at('/notes/changes')).body)
      const note = await prisma.note.create({ data: { title: 'on the primary', owner: 'ann' } })
      // The collection reads the replica, which does not hold the note.
      const collection = await at('/notes?pagination=false')
      expect(collection.status).toBe(200)
      expect(collection.body['hydra:totalItems']).toBe(0)
      await vi.waitFor(
        async () => {
          const page = await at(`/notes/changes?since=${start}`)
          expect(page.status).toBe(200)
          expect(summary(page.body['hydra:member'] as Record<string, unknown>[])).toEqual([
            [`/notes/${note.id}`, 'Note', 'on the primary'],
          ])
        },
        { timeout: 30_000, interval: 200 }
      )
    } finally {
      await replicated.close()
    }
  })
})
