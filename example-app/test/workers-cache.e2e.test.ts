/**
 * The example's Worker behind its Cache API cache (docs/caching.md#cloudflare-workers), under
 * workerd (`wrangler dev --local`, test/workers-cache/worker.ts: src/worker.ts's app with books
 * shared between anonymous callers and routes writing books through the Worker's client):
 * anonymous catalogue pages come from the cache without a D1 statement, authenticated ones never
 * do, no caller gets another's answer through it, and a write through the extended client (one
 * row, `Many`, nested, a batch) is seen by the next request, while a transaction D1 refuses purges
 * nothing. Runs once (the `sqlite` project): D1 is its own database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_JWT_SECRET, tokenFor } from '../src/auth.js'
import { type RuntimeServer, startWorker } from './support/runtime-servers.js'

let worker: RuntimeServer
const tokens: Record<string, string | undefined> = { anonymous: undefined }

beforeAll(async () => {
  worker = await startWorker('test/workers-cache/wrangler.jsonc')
  tokens.reader = await tokenFor({ sub: 'Reader 3', role: 'reader' }, DEFAULT_JWT_SECRET)
  tokens.librarian = await tokenFor({ sub: 'Librarian', role: 'librarian' }, DEFAULT_JWT_SECRET)
}, 180_000)

afterAll(async () => {
  await worker?.stop()
})

/** A GET through the cache, or to the same app without it (`origin`). */
async function get(path: string, who = 'anonymous', origin = false) {
  const token = tokens[who]
  const headers: Record<string, string> = { Accept: 'application/ld+json' }
  if (token) headers.Authorization = `Bearer ${token}`
  if (origin) headers['X-Test-Origin'] = 'yes'
  const response = await fetch(`${worker.origin}${path}`, { headers })
  return { status: response.status, headers: response.headers, body: await response.text() }
}

/** The D1 statements the Worker prepared and the purges it made, so far. */
async function counts(): Promise<{ statements: number; purges: string[][] }> {
  return (await fetch(`${worker.origin}/test/counts`)).json()
}

const members = (body: string) =>
  JSON.parse(body)['hydra:member'] as { '@id': string; id: number; title: string }[]

/** `/books/recent` anonymously, once it comes from the cache (a second after a purge at most). */
async function cachedRecent() {
  for (let tries = 0; tries < 20; tries++) {
    const answer = await get('/books/recent')
    if (answer.headers.get('x-cache') === 'HIT') return answer
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error('/books/recent never came from the cache')
}

describe('what the Worker’s cache keeps', () => {
  it('answers anonymous catalogue pages from the cache, without D1', async () => {
    const first = await get('/books/recent')
    const before = await counts()
    const second = await get('/books/recent')
    const after = await counts()
    expect([first.headers.get('x-cache'), second.headers.get('x-cache')]).toEqual(['MISS', 'HIT'])
    expect(after.statements).toBe(before.statements)
    expect(second.body).toBe(first.body)
    expect(second.headers.get('age')).toMatch(/^\d+$/)
    expect(second.headers.get('cache-control')).toBe('max-age=30, s-maxage=120')
    expect(second.headers.get('vary')).toBe('Accept, Authorization, Cookie')
    // Tags are the cache's: clients never see them.
    expect(first.headers.get('cache-tag')).toBeNull()
    expect(second.headers.get('cache-tag')).toBeNull()
  })

  it('never answers or keeps an authenticated request', async () => {
    const anonymous = await cachedRecent()
    for (const who of ['librarian', 'reader', 'librarian']) {
      const before = await counts()
      const answer = await get('/books/recent', who)
      expect(answer.headers.get('x-cache'), who).toBe('BYPASS')
      expect(answer.headers.get('cache-control')).toBe('private, max-age=30')
      expect((await counts()).statements).toBeGreaterThan(before.statements)
    }
    const librarian = await get('/books/recent', 'librarian')
    // The librarian counts poetry the anonymous page leaves out: the answers differ.
    expect(JSON.parse(librarian.body)['hydra:totalItems']).toBeGreaterThan(
      JSON.parse(anonymous.body)['hydra:totalItems']
    )
    const again = await get('/books/recent')
    expect(again.headers.get('x-cache')).toBe('HIT')
    expect(again.body).toBe(anonymous.body)
  })

  it('gives no caller another caller’s answer (0 foreign answers)', async () => {
    const paths = ['/books/recent', '/languages', '/books?genre=POETRY', '/books/1', '/loans']
    const callers = ['anonymous', 'reader', 'librarian']
    // Each caller's own answers, from the app without the cache.
    const own = new Map<string, string>()
    for (const path of paths)
      for (const who of callers) own.set(`${who} ${path}`, (await get(path, who, true)).body)
    const foreign: string[] = []
    const hits: string[] = []
    for (let round = 0; round < 3; round++)
      for (const path of paths)
        for (const who of round % 2 === 0 ? [...callers].reverse() : callers) {
          const answer = await get(path, who)
          if (answer.headers.get('x-cache') === 'HIT') hits.push(`${who} ${path}`)
          if (answer.body !== own.get(`${who} ${path}`)) foreign.push(`${who} ${path}`)
        }
    expect(foreign).toEqual([])
    expect(new Set(hits)).toEqual(new Set(['anonymous /books/recent', 'anonymous /languages']))
    const poetry = (who: string) => JSON.parse(own.get(`${who} /books?genre=POETRY`) ?? '{}')
    expect(poetry('anonymous')['hydra:totalItems']).toBe(0)
    expect(poetry('librarian')['hydra:totalItems']).toBeGreaterThan(0)
  })
})

describe('purge on write', () => {
  async function write(id: number, via: string, title: string) {
    return fetch(`${worker.origin}/test/books/${id}/${via}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ title }),
    })
  }

  /** The purges after the first `count`, once there are more than `count`. */
  async function purgesAfter(count: number) {
    for (let tries = 0; tries < 100; tries++) {
      const { purges } = await counts()
      if (purges.length > count) return purges.slice(count)
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    return []
  }

  it('shows a single, Many, nested and batched write on the next request', async () => {
    const newest = members((await cachedRecent()).body)[0] as { id: number }
    const expected: [string, string[]][] = [
      // The Worker's client is given no resources: IRIs purge nothing in the Cache API, so each
      // write purges every answer showing a row of its models (docs/caching.md).
      ['update', ['Book', 'Book:rows']],
      ['updateMany', ['Book', 'Book:rows']],
      ['nested', ['Author', 'Author:rows', 'Book', 'Book:rows']],
      ['batch', ['Book', 'Book:rows']],
    ]
    for (const [via, tags] of expected) {
      await cachedRecent()
      const { purges } = await counts()
      expect((await write(newest.id, via, `Renamed by ${via}`)).status).toBe(204)
      expect((await purgesAfter(purges.length)).map((made) => [...made].sort())).toEqual([tags])
      const next = await get('/books/recent')
      expect(next.headers.get('x-cache'), via).toBe('MISS')
      expect(members(next.body)[0]?.title).toBe(`Renamed by ${via}`)
    }
  })

  it('purges nothing for a transaction D1 refuses', async () => {
    const cached = await cachedRecent()
    const before = await counts()
    const newest = members(cached.body)[0] as { id: number }
    const refused = await (await write(newest.id, 'rollback', 'Never seen')).json()
    expect(refused.outcome).toMatch(/does not support interactive transactions/)
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect((await counts()).purges).toEqual(before.purges)
    const after = await get('/books/recent')
    expect(after.headers.get('x-cache')).toBe('HIT')
    expect(after.body).toBe(cached.body)
  })
})
