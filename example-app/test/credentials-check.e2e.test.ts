/**
 * The promise of `reads: 'credentials'` checked outside production (docs/caching.md#what-is-checked):
 * the example app under a rule of Book declaring it. A scope reading the `X-Region` header, whose
 * anonymous answers a shared cache would hand every region, fails the request loudly (a 500 whose
 * log names the rule and the header), as do one iterating the headers and ones reaching them
 * through Node's `Headers.prototype.entries`, a copy of the request (`new Request(c.req.raw)`) or
 * the property descriptors of Hono's objects, whose answers went through a shared cache to the
 * next anonymous caller before; `util.inspect` shows a rule no header; a scope reading only the
 * caller's token serves its pages, shared for anonymous callers.
 */
import { inspect } from 'node:util'
import type { HydraLogger } from '@prisma-hydra/runtime'
import type { Context } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { HydraAccess } from '#generated/hydra/index.js'
import type { PrismaClient } from '#generated/prisma/client.js'
import { createApp } from '../src/app.js'
import { type LibraryEnv, tokenFor } from '../src/auth.js'
import { prepareDatabase } from '../src/database.js'
import { createPrismaClient } from '../src/prisma.js'
import { emptyDatabase, startServer, TEST_DATABASE, type TestDatabase } from './support/harness.js'

const SECRET = 'credentials check test secret'

let prisma: PrismaClient
let database: TestDatabase
const closers: Array<() => Promise<void>> = []

beforeAll(async () => {
  if (TEST_DATABASE !== 'sqlite') return
  database = await emptyDatabase()
  prisma = createPrismaClient(database.url)
  await prepareDatabase(prisma, database.url)
}, 120_000)

afterAll(async () => {
  for (const close of closers) await close()
  await prisma?.$disconnect()
  await database?.remove()
})

/** The example under `access`, served; the records it logs. */
async function served(access: HydraAccess<LibraryEnv>) {
  const records: Parameters<HydraLogger>[0][] = []
  const app = createApp(prisma, {
    auth: { secret: SECRET, access },
    logger: (record) => records.push(record),
  })
  const server = await startServer(app.fetch)
  closers.push(server.close)
  return { origin: server.origin, records }
}

// Nothing here depends on the database: SQLite's run alone holds it.
describe.skipIf(TEST_DATABASE !== 'sqlite')("reads: 'credentials', checked", () => {
  it('fails loudly on a rule reading X-Region, naming the rule and the header', async () => {
    const { origin, records } = await served({
      Book: {
        reads: 'credentials',
        scope: (c) => (c.req.header('X-Region') === 'eu' ? { genre: 'POETRY' } : undefined),
      },
    })
    for (const region of ['eu', 'us']) {
      const response = await fetch(`${origin}/books`, { headers: { 'X-Region': region } })
      expect(response.status, region).toBe(500)
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/)
    }
    const errors = records.filter((record) => record.level === 'error')
    expect(errors).toHaveLength(2)
    const cause = String((errors[0]?.fields.error as Error | undefined)?.message)
    expect(cause).toContain('The scope of Book read the request header X-Region')
    expect(cause).toContain("reads: 'credentials'")
  })

  it('fails loudly on a rule reading the headers by iterating them', async () => {
    const { origin, records } = await served({
      Book: {
        reads: 'credentials',
        scope: (c) =>
          new Map([...c.req.raw.headers]).get('x-region') === 'eu'
            ? { genre: 'POETRY' }
            : undefined,
      },
    })
    const response = await fetch(`${origin}/books`, { headers: { 'X-Region': 'eu' } })
    expect(response.status).toBe(500)
    const errors = records.filter((record) => record.level === 'error')
    expect(errors).toHaveLength(1)
    const cause = String((errors[0]?.fields.error as Error | undefined)?.message)
    expect(cause).toContain('The scope of Book read every request header (iterating Headers)')
  })

  // Node's Headers and Request read every header through their internal state, which a rule
  // reaches through the prototype's methods or a copy of the request; Hono's `raw` and `env` are
  // own fields, which a rule reaches through their property descriptors. Where the read goes
  // through undici's private fields (as on Node 24), undici's own TypeError refuses it, so only
  // the refusal is asserted there, not its message (`undefined`).
  const bypasses: [string, (c: Context<LibraryEnv>) => unknown, string?][] = [
    [
      'Headers.prototype.entries.call',
      (c) => new Map(Headers.prototype.entries.call(c.req.raw.headers)).get('x-region'),
    ],
    ['new Request(c.req.raw)', (c) => new Request(c.req.raw).headers.get('x-region')],
    [
      "the descriptor of c.req's raw",
      (c) => Object.getOwnPropertyDescriptor(c.req, 'raw')?.value.headers.get('x-region'),
      'read the request header x-region',
    ],
    [
      "the descriptor of c's env",
      (c) => Object.getOwnPropertyDescriptor(c, 'env')?.value.incoming.headers['x-region'],
      'read the connection (c.env.incoming',
    ],
    [
      "the descriptor of c.env's incoming",
      (c) => Object.getOwnPropertyDescriptor(c.env, 'incoming')?.value.headers['x-region'],
      'read the connection (c.env.incoming',
    ],
  ]
  for (const [read, region, what] of bypasses)
    it(`refuses a rule reading the headers through ${read}`, async () => {
      const { origin, records } = await served({
        Book: {
          reads: 'credentials',
          scope: (c) => (region(c) === 'eu' ? { genre: 'POETRY' } : undefined),
        },
      })
      for (const headers of [{ 'X-Region': 'eu' }, {}]) {
        const response = await fetch(`${origin}/books`, { headers })
        expect(response.status).toBe(500)
        expect(response.headers.get('cache-control')).not.toMatch(/max-age/)
      }
      const errors = records.filter((record) => record.level === 'error')
      expect(errors).toHaveLength(2)
      for (const error of errors) expect(error.fields.error).toBeInstanceOf(TypeError)
      const cause = String((errors[0]?.fields.error as Error | undefined)?.message)
      if (what) expect(cause).toContain(`The scope of Book ${what}`)
    })

  // Node's `util.inspect` shows a proxy's target without calling its traps: the views a rule
  // gets must not hold the request.
  const inspected: [string, (c: Context<LibraryEnv>) => unknown][] = [
    ['c.req', (c) => c.req],
    ['c', (c) => c],
    ['c.req.raw', (c) => c.req.raw],
  ]
  for (const [name, subject] of inspected)
    it(`shows no request header to a rule inspecting ${name}`, async () => {
      const shown: string[] = []
      const { origin, records } = await served({
        Book: {
          reads: 'credentials',
          scope: (c) => {
            for (const showProxy of [false, true])
              shown.push(inspect(subject(c), { depth: Infinity, showHidden: true, showProxy }))
            return undefined
          },
        },
      })
      const response = await fetch(`${origin}/books`, { headers: { 'X-Region': 'inspected-eu' } })
      expect(response.status).toBe(200)
      expect(shown).toHaveLength(2)
      for (const text of shown) expect(text).not.toContain('inspected-eu')
      expect(records).toEqual([])
    })

  it('serves a rule reading only the Authorization header, shared for anonymous callers', async () => {
    const { origin, records } = await served({
      Book: {
        reads: 'credentials',
        scope: (c) => (c.req.header('Authorization') ? undefined : { genre: { not: 'POETRY' } }),
      },
    })
    const anonymous = await fetch(`${origin}/books/recent`, { headers: { 'X-Region': 'eu' } })
    expect(anonymous.status).toBe(200)
    expect(anonymous.headers.get('cache-control')).toBe('max-age=30, s-maxage=120')
    const token = await tokenFor({ sub: 'Librarian', role: 'librarian' }, SECRET)
    const headers = { Authorization: `Bearer ${token}` }
    const staff = await fetch(`${origin}/books/recent`, { headers })
    expect(staff.status).toBe(200)
    expect(staff.headers.get('cache-control')).toBe('private, max-age=30')
    expect(records).toEqual([])
  })
})
