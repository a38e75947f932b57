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
import { infiniteChangesOptions } from '@prisma-hydra/runtime/client'
import { hydraMcp } from '@prisma-hydra/runtime/mcp'
import { InfiniteQueryObserver, QueryClient } from '@tanstack/query-core'
import type { Context } from 'hono'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createHydraApp, type HydraAccess } from '#fixtures/changes/hydra/index.js'
import { PrismaClient } from '#fixtures/changes/prisma/client.js'
import { withSettings } from '../src/adapter.js'
import { applyChangeLog } from './support/change-log.js'
import { createAdapter, freshDatabase, startServer, TEST_DATABASE } from './support/harness.js'
import { serveWithClient } from './support/mcp-servers.js'
import { checkedAgainstOpenApi } from './support/openapi-check.js'
import { startVarnish, varnishPresent } from './support/varnish.js'

const SCHEMA = new URL('./fixtures/changes/schema.prisma', import.meta.url).pathname

/** The caller, by `Authorization: User <name>`; none: anonymous. */
const callerOf = (c: Context) => c.req.header('authorization')?.replace(/^User /, '')

/**
 * `ann` and `bob` see their own notes; `pat`, the notes of owners starting with `a`, which the
 * log cannot evaluate (a text pattern); `quinn`, the notes without a price and those titled
 * `shared` (a text pattern too, behind a part that holds on a row of nulls); `after-k`, the
 * notes of owners after `k` in the column's order; anonymous callers see every note.
 */
const access: HydraAccess = {
  Note: {
    scope: (c) => {
      const caller = callerOf(c)
      if (caller === undefined) return undefined
      if (caller === 'pat') return { owner: { startsWith: 'a' } }
      if (caller === 'quinn') return { OR: [{ price: null }, { title: { contains: 'shared' } }] }
      if (caller === 'after-k') return { owner: { gt: 'k' } }
      return { owner: caller }
    },
    // The rule reads the request's credentials alone: anonymous answers may be shared.
    reads: 'credentials',
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
    // It names no part of the rule: the collection never tells a caller what its rule reads.
    expect(body.detail).toContain('its access rule reads what the change log cannot evaluate')
    expect(body.detail).not.toContain('owner')
  })

  it('answers a malformed or altered token with a 400 naming since', async () => {
    const valid = await tokenNow()
    const bytes = Buffer.from(valid, 'base64url')
    const altered = Buffer.from(bytes)
    altered[bytes.length - 1] = (altered[bytes.length - 1] as number) ^ 1
    const malformed = [
      '',
      'x',
      '!!!',
      `${valid}=`,
      `${valid}A`,
      altered.toString('base64url'),
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
    // A token of another feed of the same database is not one of this feed.
    const labels = await fetch(`${origin}/labels/changes`)
    const label = tokenOf((await labels.json()) as Record<string, unknown>)
    expect((await get(`/notes/changes?since=${label}`)).status).toBe(400)
  })

  it('pages a scoped caller alike whatever others wrote meanwhile', async () => {
    const titles = (pages: Record<string, unknown>[][]) =>
      pages.map((page) => page.map((member) => member.title))
    const quiet = await tokenNow('cy')
    for (let index = 0; index < 7; index++)
      await prisma.note.create({ data: { title: `cy ${index}`, owner: 'cy' } })
    const alone = await followUntil(quiet, 'cy', (members) => expect(members).toHaveLength(7))
    const busy = await tokenNow('cy')
    for (let index = 0; index < 7; index++) {
      for (let other = 0; other < 4; other++) {
        const note = await prisma.note.create({ data: { title: 'of dan', owner: 'dan' } })
        if (other === 1) await prisma.note.update({ where: { id: note.id }, data: { done: true } })
        if (other === 2) await prisma.note.delete({ where: { id: note.id } })
      }
      await prisma.note.create({ data: { title: `cy ${index}`, owner: 'cy' } })
    }
    const among = await followUntil(busy, 'cy', (members) => expect(members).toHaveLength(7))
    // Five members a page, the first not up to date, both times: the pages tell cy nothing of
    // dan's 35 writes.
    expect(titles(among.pages)).toEqual(titles(alone.pages))
    expect(titles(alone.pages)).toEqual([
      ['cy 0', 'cy 1', 'cy 2', 'cy 3', 'cy 4'],
      ['cy 5', 'cy 6'],
    ])
  })

  it('tells each caller what its copy may hold of a row that passed through its view', async () => {
    const callers = ['ann', 'bob', 'eve', 'dan'] as const
    const starts = await Promise.all(callers.map((caller) => tokenNow(caller)))
    const note = await prisma.note.create({ data: { title: 'passing', owner: 'ann' } })
    await prisma.note.update({ where: { id: note.id }, data: { owner: 'bob' } })
    await prisma.note.update({ where: { id: note.id }, data: { owner: 'eve' } })
    // dan never saw it: what dan is told ends with a note of his own, written after.
    const dans = await prisma.note.create({ data: { title: 'of dan', owner: 'dan' } })
    const expected = {
      ann: { [`/notes/${note.id}`]: ['Deleted', undefined] },
      bob: { [`/notes/${note.id}`]: ['Deleted', undefined] },
      eve: { [`/notes/${note.id}`]: ['Note', 'passing'] },
      dan: { [`/notes/${dans.id}`]: ['Note', 'of dan'] },
    }
    for (const [index, caller] of callers.entries())
      await followUntil(starts[index] as string, caller, (members) =>
        expect(copyOf(members), caller).toEqual(expected[caller])
      )
  })
  it('tells a later page of a change made while a page is read, past its first batch', async () => {
    // cy's note, then more of dan's notes than a batch of the log: cy's page reads two batches.
    const start = await tokenNow('cy')
    const mine = await prisma.note.create({ data: { title: 'before', owner: 'cy' } })
    for (let index = 0; index < 120; index++)
      await prisma.note.create({ data: { title: 'of dan', owner: 'dan' } })
    // cy's note is changed after the page read it, while it reads dan's (through an extension of
    // the app's client): the change is told, on this page's next.
    let reads = 0
    const changing = prisma.$extends({
      query: {
        note: {
          async $allOperations({ operation, args, query }) {
            if (operation.startsWith('find') && ++reads === 50)
              await prisma.note.update({ where: { id: mine.id }, data: { title: 'after' } })
            return query(args)
          },
        },
      },
    }) as unknown as PrismaClient
    const app = createHydraApp({ prisma: changing, access })
    const copy: Record<string, unknown> = {}
    let token = start
    await vi.waitFor(
      async () => {
        for (;;) {
          const answer = await app.request(`/notes/changes?since=${token}`, {
            headers: { Authorization: 'User cy' },
          })
          const body = (await answer.json()) as Record<string, unknown>
          expect(answer.status, JSON.stringify(body)).toBe(200)
          for (const member of body['hydra:member'] as Record<string, unknown>[])
            copy[member['@id'] as string] = member.title
          token = tokenOf(body)
          if (body.upToDate === true) break
        }
        expect(reads).toBeGreaterThanOrEqual(50)
        expect(copy).toEqual({ [`/notes/${mine.id}`]: 'after' })
      },
      { timeout: 30_000, interval: 200 }
    )
  })
})

describe("the tokens' key", () => {
  /** The row of the log that holds the key, as the app keeps it. */
  const keyRow = () => prisma.hydraChange.findFirst({ where: { id: -2 } })

  it('is kept in the log, so that another instance of the app reads the same tokens', async () => {
    const token = await tokenNow()
    expect(await keyRow()).not.toBeNull()
    const other = createHydraApp({ prisma, access })
    const answer = await other.request(`/notes/changes?since=${token}`)
    expect(answer.status).toBe(200)
  })

  it('answers a token of a key the log no longer holds with a 410', async () => {
    const token = await tokenNow()
    const kept = await keyRow()
    if (!kept) throw new Error('the log holds no key')
    await prisma.hydraChange.deleteMany({ where: { id: -2 } })
    try {
      // A new instance makes a new key; the old key's tokens are to be started over.
      const renewed = createHydraApp({ prisma, access })
      const answer = await renewed.request(`/notes/changes?since=${token}`)
      const body = (await answer.json()) as Record<string, unknown>
      expect([answer.status, body.detail]).toEqual([
        410,
        expect.stringContaining('read /notes again'),
      ])
      expect(await keyRow()).not.toBeNull()
    } finally {
      await prisma.hydraChange.deleteMany({ where: { id: -2 } })
      const { id, tx, model, op, key, image } = kept
      await prisma.hydraChange.create({
        data: { id, tx, model, op, key: key as object, image: image as object },
      })
    }
  })

  // On PostgreSQL a token holds the server's transaction ids, which deleting the log's last entries
  // leaves where they are: only a restore into another server takes the log's end back there.
  it.skipIf(TEST_DATABASE === 'postgresql')(
    'answers a token past the end of the log (a database restored from before it) with a 410',
    async () => {
      const start = await tokenNow()
      const note = await prisma.note.create({ data: { title: 'restored away', owner: 'ann' } })
      const { token } = await followUntil(start, undefined, (members) =>
        expect(summary(members)).toEqual([[`/notes/${note.id}`, 'Note', 'restored away']])
      )
      const [last] = await prisma.hydraChange.findMany({ orderBy: { id: 'desc' }, take: 1 })
      await prisma.hydraChange.deleteMany({ where: { id: { gte: last?.id ?? 0 } } })
      const { status, body } = await get(`/notes/changes?since=${token}`)
      expect([status, body.detail]).toEqual([410, expect.stringContaining('past the end')])
    }
  )
})

describe('caching', () => {
  const hasVarnish = varnishPresent('the change feed behind Varnish')
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

  it("gives a caller told of every row one token a position, which only its model's writes move", async () => {
    // Two tokens of now around a write of another model: the same (on PostgreSQL, once no
    // transaction of another test holds back one of the notes' entries between the two).
    await vi.waitFor(
      async () => {
        const before = await tokenNow()
        await prisma.label.create({ data: { noteId: 1, name: 'of another model', color: 'red' } })
        await prisma.label.deleteMany({ where: { name: 'of another model' } })
        expect(await tokenNow()).toBe(before)
      },
      { timeout: 30_000, interval: 200 }
    )
    // A scoped caller's tokens are its own: a new one each time.
    expect(await tokenNow('ann')).not.toBe(await tokenNow('ann'))
  })

  it('shares a page only with anonymous callers, tagged by its rows when not up to date', async () => {
    const start = await tokenNow()
    const notes = []
    for (let index = 0; index < 6; index++)
      notes.push(await prisma.note.create({ data: { title: `tagged ${index}`, owner: 'ann' } }))
    await followUntil(start, undefined, (members) => expect(members).toHaveLength(6))
    const tagged = createHydraApp({ prisma, access, cacheTags: { header: 'xkey' } })
    const closed = await tagged.request(`/notes/changes?since=${start}`)
    expect(closed.headers.get('cache-control')).toMatch(/^public, /)
    const tags = (closed.headers.get('xkey') ?? '').split(' ')
    // The rows it shows, not the model: an insert or another row's update leaves it cached.
    expect(tags).toEqual(expect.arrayContaining([`/notes/${notes[0]?.id}`, 'Note:rows']))
    expect(tags).not.toContain('Note')
    expect(tags).not.toContain('Note:any')
    // No rule bears on labels: a request with credentials (an app's own authentication, say)
    // is answered privately all the same.
    const labels = await tagged.request('/labels/changes', {
      headers: { Authorization: 'Bearer of the app' },
    })
    expect(labels.headers.get('cache-control')).toBe('private, max-age=1, stale-while-revalidate=0')
    expect((await tagged.request('/labels/changes')).headers.get('cache-control')).toMatch(
      /^public, /
    )
  })

  it.runIf(hasVarnish)(
    'is kept by Varnish: a page not up to date for an hour, the page up to date a second, no longer',
    async () => {
      const varnish = await startVarnish(origin)
      const cached = async (path: string, headers: Record<string, string> = {}) => {
        const response = await fetch(new URL(path, varnish.origin), { headers })
        return {
          cache: response.headers.get('x-cache'),
          control: response.headers.get('cache-control'),
          body: (await response.json()) as Record<string, unknown>,
        }
      }
      try {
        const start = await tokenNow()
        for (let index = 0; index < 7; index++)
          await prisma.note.create({ data: { title: `cached ${index}`, owner: 'ann' } })
        await followUntil(start, undefined, (members) => expect(members).toHaveLength(7))
        const closed = await cached(`/notes/changes?since=${start}`)
        expect([closed.body.upToDate, closed.control]).toEqual([
          false,
          'public, max-age=3600, s-maxage=3600, stale-while-revalidate=0',
        ])
        const again = await cached(`/notes/changes?since=${start}`)
        expect([again.cache, again.body]).toEqual(['HIT', closed.body])
        const tail = await cached(`/notes/changes?since=${tokenOf(closed.body)}`)
        expect(tail.body.upToDate).toBe(true)
        const next = `/notes/changes?since=${tokenOf(tail.body)}`
        expect((await cached(next)).body['hydra:member']).toEqual([])
        // A note written: once the app tells it, Varnish does a second later, never an older page.
        const note = await prisma.note.create({ data: { title: 'after the tail', owner: 'ann' } })
        await vi.waitFor(
          async () => {
            const direct = await fetch(new URL(next, origin))
            const members = ((await direct.json()) as Record<string, unknown>)['hydra:member']
            expect(summary(members as Record<string, unknown>[])).toEqual([
              [`/notes/${note.id}`, 'Note', 'after the tail'],
            ])
          },
          { timeout: 30_000, interval: 200 }
        )
        await sleep(1_100)
        const fresh = await cached(next)
        expect(summary(fresh.body['hydra:member'] as Record<string, unknown>[])).toEqual([
          [`/notes/${note.id}`, 'Note', 'after the tail'],
        ])
        // A scoped caller's pages are stored by no cache.
        const own = await cached(`/notes/changes?since=${start}`, { Authorization: 'User ann' })
        expect([
          own.control,
          (await cached(`/notes/changes?since=${start}`, { Authorization: 'User ann' })).cache,
        ]).toEqual(['private, no-store', 'MISS'])
      } finally {
        await varnish.stop()
      }
    }
  )
})

describe('TanStack Query', () => {
  it('reads the feed page by page until up to date, with infiniteChangesOptions', async () => {
    const start = await tokenNow()
    const notes = []
    for (let index = 0; index < 7; index++)
      notes.push(await prisma.note.create({ data: { title: `queried ${index}`, owner: 'ann' } }))
    await followUntil(start, undefined, (members) => expect(members).toHaveLength(7))
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
    try {
      const observer = new InfiniteQueryObserver(
        queryClient,
        infiniteChangesOptions<Record<string, unknown>>(`${origin}/notes/changes?since=${start}`, [
          'notes',
          'changes',
        ])
      )
      await observer.refetch()
      let result = observer.getCurrentResult()
      while (result.hasNextPage) result = await observer.fetchNextPage()
      const pages = result.data?.pages ?? []
      // Five a page, the last up to date; its next is where the next poll starts.
      expect(pages.map((page) => [page.changes.length, page.upToDate])).toEqual([
        [5, false],
        [2, true],
      ])
      expect(pages.flatMap((page) => page.changes.map((change) => change['@id']))).toEqual(
        notes.map((note) => `/notes/${note.id}`)
      )
      const poll = await queryClient.fetchInfiniteQuery(
        infiniteChangesOptions(pages.at(-1)?.next as string, ['notes', 'changes'])
      )
      expect(poll.pages.map((page) => [page.changes, page.upToDate])).toEqual([[[], true]])
    } finally {
      queryClient.clear()
    }
  })
})

describe('agents', () => {
  it('read the feed with fetch_iri: the token of now, then the changes since', async () => {
    const served = await serveWithClient(
      createHydraApp({ prisma, access, mcp: hydraMcp() }).fetch,
      'a feed reader'
    )
    try {
      const read = async (iri: string) => {
        const result = await served.client.callTool({ name: 'fetch_iri', arguments: { iri } })
        expect(result.isError, JSON.stringify(result)).not.toBe(true)
        return result.structuredContent as Record<string, unknown>
      }
      const now = await read('/notes/changes')
      expect([now['hydra:member'], now.upToDate]).toEqual([[], true])
      const next = (now['hydra:view'] as Record<string, string>)['hydra:next'] as string
      const note = await prisma.note.create({ data: { title: 'for the agent', owner: 'ann' } })
      await vi.waitFor(
        async () => {
          const page = await read(next)
          expect(summary(page['hydra:member'] as Record<string, unknown>[])).toEqual([
            [`/notes/${note.id}`, 'Note', 'for the agent'],
          ])
        },
        { timeout: 30_000, interval: 200 }
      )
    } finally {
      await served.close()
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
      // The labels' feed is quiet meanwhile: its token outlives the notes' pruning.
      const labels = tokenOf((await get('/labels/changes')).body)
      const logged = await prisma.hydraChange.count({ where: { model: 'Label' } })
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
      // The notes' requests prune the labels' entries too (earlier tests wrote some), whether or
      // not a client reads their feed.
      expect(logged).toBeGreaterThan(0)
      await vi.waitFor(
        async () => {
          await at('/notes/changes')
          expect(await prisma.hydraChange.count({ where: { model: 'Label' } })).toBe(0)
        },
        { timeout: 30_000, interval: 500 }
      )
      expect((await at(`/labels/changes?since=${labels}`)).status).toBe(200)
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

describe('the feed on what the scope reads and the keys the log holds', () => {
  it('refuses a scope with a part it cannot evaluate, whatever part decides first', async () => {
    // On a row of nulls `price: null` holds and decides the OR: the pattern is refused anyway.
    const { status } = await get('/notes/changes', 'quinn')
    expect(status).toBe(403)
  })

  it('tells a deletion to exactly the callers whose scope showed the row, as the column compares text', async () => {
    // Owners the database may compare otherwise than JavaScript: MariaDB's default collation
    // ignores case, accents and trailing spaces; orders differ by case.
    const owners = ['kim', 'Kim', 'kim ', 'kím', 'KIM', 'Lee', 'lee', 'Zed', 'jo']
    const notes = await Promise.all(
      owners.map((owner) => prisma.note.create({ data: { title: `text ${owner}`, owner } }))
    )
    const iris = new Set(notes.map((note) => `/notes/${note.id}`))
    const callers = ['kim', 'after-k']
    // What each caller's item route shows: the rows the database holds in its scope.
    const seen = new Map<string, string[]>()
    for (const caller of callers) {
      const shown: string[] = []
      for (const iri of iris) if ((await get(iri, caller)).status === 200) shown.push(iri)
      seen.set(caller, shown.sort())
    }
    expect(seen.get('kim')).toContain(`/notes/${notes[0]?.id}`)
    if (TEST_DATABASE === 'mysql') expect(seen.get('kim')).toHaveLength(5)
    const start = await tokenNow()
    await prisma.note.deleteMany({ where: { id: { in: notes.map((note) => note.id) } } })
    for (const caller of callers)
      await followUntil(start, caller, (members) => {
        const told = members.filter((member) => iris.has(member['@id'] as string))
        expect(told.every((member) => member['@type'] === 'Deleted')).toBe(true)
        // A key is told on each page its entries reach (on PostgreSQL the creations may be after
        // the token, behind a watermark another test's transaction held back): once each here.
        const keys = [...new Set(told.map((member) => member['@id'] as string))]
        expect(keys.sort(), caller).toEqual(seen.get(caller))
      })
    // Anonymous callers learn of every deletion: the database has committed them all.
    await followUntil(start, undefined, (members) =>
      expect(
        Object.entries(copyOf(members)).filter(
          ([iri, [type]]) => iris.has(iri) && type === 'Deleted'
        )
      ).toHaveLength(owners.length)
    )
  })

  // PostgreSQL's text holds no NUL character.
  it.skipIf(TEST_DATABASE === 'postgresql')(
    'tells a row whose key the item route cannot read back, under the IRI its collection writes',
    async () => {
      const labels = async (path: string) => (await get(path)).body
      const since = tokenOf(await labels('/labels/changes'))
      const name = 'nul\u0000name'
      await prisma.label.create({ data: { noteId: 7, name, color: 'red' } })
      const collection = (await labels('/labels'))['hydra:member'] as Record<string, unknown>[]
      const listed = collection.find((member) => member.name === name)
      expect(listed?.['@id']).toBeTypeOf('string')
      let after = since
      await vi.waitFor(
        async () => {
          const { status, body } = await get(`/labels/changes?since=${since}`)
          expect(status, JSON.stringify(body)).toBe(200)
          const { '@context': _, ...member } = listed ?? {}
          expect(body['hydra:member']).toEqual([member])
          after = tokenOf(body)
        },
        { timeout: 30_000, interval: 200 }
      )
      await prisma.label.delete({ where: { noteId_name: { noteId: 7, name } } })
      await vi.waitFor(
        async () => {
          const { status, body } = await get(`/labels/changes?since=${after}`)
          expect(status, JSON.stringify(body)).toBe(200)
          expect(body['hydra:member']).toEqual([{ '@id': listed?.['@id'], '@type': 'Deleted' }])
        },
        { timeout: 30_000, interval: 200 }
      )
    }
  )
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
