/**
 * The rule hunter (docs/security.md, "Side channels, and how each is closed"): a property-based
 * search for a leak on test/fixtures/rules, whose books and loans reach each other by every road
 * the runtime has (declared embeds both ways, a sub-collection, filters through the relation each
 * way, an order through it, `id[]`). fast-check draws rule sets (support/rule-sets.ts): guards and
 * scopes of each model, of the resource or of its `collection` or `item` operation, scopes among
 * them the idioms of "no row", hidden fields and links. Each set is a caller: a token `hono/jwt`
 * verifies, whose `sub` names the set its rules read. Every request, on both engines, must be
 * answered byte for byte as the oracle (support/rule-oracle.ts) writes it from the seeded rows
 * and the documented rules: members, `hydra:totalItems`, the view's links, the `hydra:search`
 * variables, the problem of a refusal; every `ETag` the hash of its own body; and an item or a
 * sub-collection the rules keep from the caller answered as one of a missing row, headers and
 * all. The seed is fixed (and printed), so a run is reproducible; RULE_HUNTER_SEED draws others.
 */

import { hydraErrorHandler, hydraNotFound, shareAdapter } from '@prisma-hydra/runtime'
import fc from 'fast-check'
import { Hono } from 'hono'
import { decode } from 'hono/jwt'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHydraApp } from '#fixtures/rules/hydra/index.js'
import { PrismaClient } from '#fixtures/rules/prisma/client.js'
import { authenticate, type LibraryEnv, tokenFor } from '../src/auth.js'
import { createAdapter, freshDatabase, startServer, type TestDatabase } from './support/harness.js'
import { entityTagOf, hunted } from './support/rule-coverage.js'
import { type Expected, expectedAnswer, type Searches } from './support/rule-oracle.js'
import { RuleReading } from './support/rule-reading.js'
import { BOOKS, LOANS, seedRules } from './support/rule-rows.js'
import { accessOf, type RuleSet, ruleSets } from './support/rule-sets.js'

const SECRET = 'rule hunter secret'
const SCHEMA = new URL('./fixtures/rules/schema.prisma', import.meta.url).pathname
const SEED = Number(process.env.RULE_HUNTER_SEED ?? 20_250_611)
const RUNS = 40

/** Each request in normal form (docs/paging.md): sorted parameters, encoded, the page last. */
const at = (path: string, ...params: Array<[string, string]>) =>
  params.length === 0
    ? path
    : `${path}?${params.map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`).join('&')}`

const REQUESTS = [
  at('/books'),
  at('/books', ['page', '2']),
  at('/books', ['page', '3']),
  at('/books', ['itemsPerPage', '2'], ['page', '2']),
  at('/books', ['pagination', 'false']),
  at('/books', ['title', 'Atlas']),
  at('/books', ['loans.borrower', 'Reader 1']),
  at('/books', ['order[title]', 'desc']),
  at('/books', ['order[title]', 'asc'], ['page', '2']),
  at('/books', ['id[]', '/books/2'], ['id[]', '5'], ['id[]', '4']),
  at('/books', ['id', '3']),
  ...[...BOOKS.map((book) => book.id), 99].map((id) => `/books/${id}`),
  ...[...BOOKS.map((book) => book.id), 99].map((id) => `/books/${id}/loans`),
  at('/books/4/loans', ['itemsPerPage', '2'], ['page', '2']),
  at('/books/1/loans', ['borrower', 'Reader 2']),
  at('/books/4/loans', ['order[loanedAt]', 'desc']),
  at('/books/1/loans', ['exists[returnedAt]', 'false']),
  at('/loans'),
  at('/loans', ['page', '2']),
  at('/loans', ['page', '4']),
  at('/loans', ['pagination', 'false']),
  at('/loans', ['itemsPerPage', '5'], ['page', '2']),
  at('/loans', ['borrower', 'Reader 2']),
  at('/loans', ['book', '/books/1']),
  at('/loans', ['book', '4']),
  at('/loans', ['book.title', 'Atlas']),
  at('/loans', ['book.title', 'Bonsai'], ['borrower', 'Reader 1']),
  at('/loans', ['exists[returnedAt]', 'false']),
  at('/loans', ['order[loanedAt]', 'desc']),
  at('/loans', ['order[book.title]', 'asc'], ['page', '2']),
  at('/loans', ['id[]', '1'], ['id[]', '/loans/7'], ['id[]', '12']),
  ...[...LOANS.map((loan) => loan.id), 99].map((id) => `/loans/${id}`),
]

/** The rule set of each caller, by its token's `sub`. */
const SETS = new Map<string, RuleSet>()
const setOf = (sub: string | undefined) => (sub === undefined ? undefined : SETS.get(sub))

let database: TestDatabase
let prisma: PrismaClient
const origins: string[] = []
const closers: Array<() => Promise<void>> = []
let searches: Searches

/** The routes of one rule set behind the token check, on one engine. */
function appOf(set: RuleSet, engine: object) {
  const app = new Hono<LibraryEnv>()
    .use(authenticate(SECRET))
    .route('/', createHydraApp({ prisma, access: accessOf(set, setOf), ...engine }))
  app.onError(hydraErrorHandler)
  app.notFound(hydraNotFound)
  return app
}

/**
 * A server of every rule set on one engine: each request goes to the routes built for its
 * token's set (the rules' shape is the set's own), which verify the token themselves.
 */
function dispatcher(engine: object) {
  const apps = new Map<string, ReturnType<typeof appOf>>()
  return (request: Request) => {
    const token = request.headers.get('Authorization')?.replace(/^Bearer /, '') ?? ''
    const sub = String(decode(token).payload.sub)
    const set = setOf(sub)
    if (!set) throw new Error(`No rule set is named ${sub}`)
    const app = apps.get(sub) ?? appOf(set, engine)
    apps.set(sub, app)
    return app.fetch(request)
  }
}

beforeAll(async () => {
  database = await freshDatabase(SCHEMA)
  const adapter = shareAdapter(createAdapter(database.url))
  prisma = new PrismaClient({ adapter })
  await seedRules(prisma)
  for (const engine of [{}, { engine: 'compiled' as const, adapter }]) {
    const server = await startServer(dispatcher(engine))
    origins.push(server.origin)
    closers.push(server.close)
  }
  // The search templates of the API without rules: the oracle takes from them what rules hide.
  const plain = createHydraApp({ prisma })
  const searchOf = async (path: string) =>
    ((await (await plain.request(path)).json()) as Record<string, unknown>)[
      'hydra:search'
    ] as Searches['books']
  searches = {
    books: await searchOf('/books'),
    loans: await searchOf('/loans'),
    bookLoans: await searchOf('/books/1/loans'),
  }
  console.log(`rule hunter: seed ${SEED}, ${RUNS} rule sets (RULE_HUNTER_SEED draws others)`)
}, 120_000)

afterAll(async () => {
  for (const close of closers) await close()
  await prisma?.$disconnect()
  await database?.remove()
})

interface Answer {
  status: number
  headers: Headers
  text: string
}

async function ask(origin: string, path: string, token: string): Promise<Answer> {
  const response = await fetch(`${origin}${path}`, {
    headers: { Authorization: `Bearer ${token}` },
  })
  return { status: response.status, headers: response.headers, text: await response.text() }
}

/** The headers of an answer that may differ between two answers of the same document. */
const TRANSIENT = new Set([
  'date',
  'content-length',
  'server-timing',
  'etag',
  'connection',
  'keep-alive',
])
const headersOf = (answer: Answer) =>
  [...answer.headers]
    .filter(([name]) => !TRANSIENT.has(name))
    .map(([name, value]) => `${name}: ${value}`)

/** Checks one answer against the oracle's, its headers, and an invisible row against a missing one. */
async function check(origin: string, path: string, token: string, wanted: Expected) {
  const answer = await ask(origin, path, token)
  const where = `${origin === origins[0] ? 'prisma' : 'compiled'} ${path}`
  // The document first (a readable difference), then its bytes (the order of its keys).
  expect({ status: answer.status, body: JSON.parse(answer.text) }, where).toStrictEqual(wanted)
  expect(answer.text, where).toBe(JSON.stringify(wanted.body))
  // Every answer a rule bears on is the caller's own.
  expect(answer.headers.get('cache-control'), where).toContain('private')
  expect(answer.headers.get('vary'), where).toBe('Accept, Authorization, Cookie')
  const tag = answer.headers.get('etag')
  if (tag !== null) expect(tag, where).toBe(entityTagOf(answer.text, answer.headers))
  // A row the rules keep from the caller is a missing row: the same answer as id 99's.
  const id = /^\/(books|loans)\/(\d+)(\/loans)?$/.exec(path)
  if (wanted.status === 404 && id && id[2] !== '99') {
    const twin = await ask(origin, path.replace(`/${id[2]}`, '/99'), token)
    expect(twin.status, where).toBe(404)
    expect(twin.text.replaceAll('\\"99\\"', `\\"${id[2]}\\"`), where).toBe(answer.text)
    expect(headersOf(twin), where).toStrictEqual(headersOf(answer))
  }
}

describe('the rule hunter', () => {
  it('answers every caller by the documented rules, on both engines', async () => {
    const drawn: RuleSet[] = []
    await fc.assert(
      fc.asyncProperty(ruleSets, async (set) => {
        const sub = `set-${drawn.length}`
        drawn.push(set)
        SETS.set(sub, set)
        const token = await tokenFor({ sub, role: 'reader' }, SECRET)
        const reading = new RuleReading(set)
        for (const path of REQUESTS) {
          const wanted = expectedAnswer(reading, path, searches)
          for (const origin of origins) await check(origin, path, token, wanted)
        }
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true }
    )
    // The seed's sets bear on each road: a rule left out would have changed some answer.
    expect(hunted(drawn)).toStrictEqual([])
  }, 600_000)
})
