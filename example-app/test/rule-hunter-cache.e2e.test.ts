/**
 * The rule hunter (rule-hunter.e2e.test.ts) through a shared cache (docs/caching.md,
 * docs/security.md "Side channels, and how each is closed"). fast-check draws, for each app, a rule
 * set for the anonymous caller and one for each of three callers with a token; ONE app serves
 * them all, its rules reading the caller's set from the token's claims (its `sub`; none for the
 * anonymous caller), as a real app's rules read claims, and declaring so (`reads: 'credentials'`),
 * so that the runtime may let the anonymous answer be shared. A middleware gives every answer the
 * runtime left without `Cache-Control` five minutes of shared freshness (`public, s-maxage=300`,
 * as `cacheHeaders` would), and every request goes through the `http-cache-semantics` proxy
 * (support/shared-cache.ts; Varnish configured as docs/caching.md says with
 * `HYDRA_TEST_SHARED_CACHE=varnish`). Each request is asked anonymously first (the cache stores the
 * answer), then by each token, then anonymously again; every answer, on both engines, must be
 * byte for byte the one the oracle writes for that caller's set, the anonymous one asked again a
 * `HIT` of the cache exactly when it is a page or an item (its problems are `no-store`), and no
 * answer to a token ever one. A cache handing the anonymous answer to a token, or one caller's
 * to another, fails. The seed is fixed (and printed); RULE_HUNTER_SEED draws others.
 */

import { hydraErrorHandler, hydraNotFound, shareAdapter } from '@prisma-hydra/runtime'
import fc from 'fast-check'
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHydraApp } from '#fixtures/rules/hydra/index.js'
import { PrismaClient } from '#fixtures/rules/prisma/client.js'
import { authenticate, type LibraryEnv, tokenFor } from '../src/auth.js'
import { createAdapter, freshDatabase, type TestDatabase } from './support/harness.js'
import { hunted } from './support/rule-coverage.js'
import { type Expected, expectedAnswer, type Searches } from './support/rule-oracle.js'
import { RuleReading } from './support/rule-reading.js'
import {
  type Answer,
  ask,
  expectDocument,
  expectMissingTwin,
  REQUESTS,
  searchesOf,
} from './support/rule-requests.js'
import { seedRules } from './support/rule-rows.js'
import { accessOf, type RuleSet, ruleSets } from './support/rule-sets.js'
import { servedThroughSharedCache, sharedFreshness } from './support/shared-cache.js'

const SECRET = 'rule hunter cache secret'
const SCHEMA = new URL('./fixtures/rules/schema.prisma', import.meta.url).pathname
const SEED = Number(process.env.RULE_HUNTER_SEED ?? 20_250_611)
/** Apps drawn, each of the anonymous caller and `TOKENS` callers with a token. */
const RUNS = 8
const TOKENS = 3
const FRESHNESS = 'public, s-maxage=300'
const VARY = 'Accept, Authorization, Cookie'

/** One app's callers: a rule set for the anonymous caller, and one for each token. */
const callers = fc.record({
  anonymous: ruleSets,
  tokens: fc.array(ruleSets, { minLength: TOKENS, maxLength: TOKENS }),
})

/** The shared cache in front of a server of one engine, and the app that server serves now. */
interface Front {
  engine: string
  origin: string
  /** Forgets every answer the cache keeps. */
  clear: () => Promise<void>
  close: () => Promise<void>
  app?: { fetch: (request: Request) => Response | Promise<Response> }
}

let database: TestDatabase
let prisma: PrismaClient
let searches: Searches
const fronts: Front[] = []
const engines: Record<string, object> = {}

/** The one app of every caller of `sets` (by `sub`; undefined: anonymous), on one engine. */
function appOf(sets: ReadonlyMap<string | undefined, RuleSet>, engine: object) {
  const access = accessOf([...sets.values()], (sub) => sets.get(sub))
  const app = new Hono<LibraryEnv>()
    .use(sharedFreshness(300))
    .use(authenticate(SECRET))
    .route('/', createHydraApp({ prisma, access, ...engine }))
  app.onError(hydraErrorHandler)
  app.notFound(hydraNotFound)
  return app
}

beforeAll(async () => {
  database = await freshDatabase(SCHEMA)
  const adapter = shareAdapter(createAdapter(database.url))
  prisma = new PrismaClient({ adapter })
  await seedRules(prisma)
  engines.prisma = {}
  engines.compiled = { engine: 'compiled' as const, adapter }
  for (const engine of Object.keys(engines)) {
    const front = { engine } as Front
    const served = await servedThroughSharedCache((request) => {
      if (!front.app) throw new Error('No app is served yet')
      return front.app.fetch(request)
    })
    fronts.push(Object.assign(front, served))
  }
  searches = await searchesOf(prisma)
  console.log(
    `rule hunter through a shared cache: seed ${SEED}, ${RUNS} apps of ${TOKENS + 1} callers (RULE_HUNTER_SEED draws others)`
  )
}, 120_000)

afterAll(async () => {
  for (const front of fronts) await front.close()
  await prisma?.$disconnect()
  await database?.remove()
})

/** A caller of the app drawn: its token (none: anonymous), a name and its rules as read. */
interface Caller {
  name: string
  token?: string
  reading: RuleReading
}

/** What the cache is to answer with: `HIT`, or `MISS` (asked of the server). */
type Served = 'HIT' | 'MISS'

/**
 * Asks `path` of `front` as `caller` and checks the answer against the oracle's, its caching
 * headers and whether the cache served it, and a row kept from the caller against a missing one.
 */
async function check(
  front: Front,
  caller: Caller,
  path: string,
  wanted: Expected,
  served: Served
): Promise<Answer> {
  const { origin, engine } = front
  const { token, name } = caller
  const answer = await ask(origin, path, token)
  const where = `${engine} ${name} ${path}`
  // The document first: an answer the cache handed the wrong caller differs from its oracle's.
  expectDocument(answer, wanted, where)
  const anonymous = token === undefined
  const shared = anonymous && wanted.status === 200
  expect(answer.headers.get('cache-control'), where).toBe(
    shared ? FRESHNESS : anonymous ? 'no-store' : 'private'
  )
  expect(answer.headers.get('vary'), where).toBe(VARY)
  expect(answer.headers.get('x-cache'), where).toBe(served)
  await expectMissingTwin({ origin, path, token }, answer, where)
  return answer
}

describe('the rule hunter through a shared cache', () => {
  it('answers each caller of one app by its own rules, the anonymous one from the cache', async () => {
    const drawn: RuleSet[] = []
    let hits = 0
    /** Anonymous pages and items a token's answer differs from: where a leak would show. */
    let differing = 0
    await fc.assert(
      fc.asyncProperty(callers, async ({ anonymous, tokens }) => {
        const run = drawn.length
        drawn.push(anonymous, ...tokens)
        const sets = new Map<string | undefined, RuleSet>([[undefined, anonymous]])
        const anon: Caller = { name: 'anonymous', reading: new RuleReading(anonymous) }
        const named: Caller[] = []
        for (const [index, set] of tokens.entries()) {
          const sub = `app-${run}-caller-${index}`
          sets.set(sub, set)
          const token = await tokenFor({ sub, role: 'reader' }, SECRET)
          named.push({ name: sub, token, reading: new RuleReading(set) })
        }
        for (const front of fronts) {
          front.app = appOf(sets, engines[front.engine] as object)
          // The URLs are the last app's too: its answers are not this one's.
          await front.clear()
        }
        for (const path of REQUESTS) {
          const first = expectedAnswer(anon.reading, path, searches)
          const stored = first.status === 200
          const theirs = named.map((caller) => expectedAnswer(caller.reading, path, searches))
          if (stored)
            differing += theirs.filter(
              (wanted) => JSON.stringify(wanted) !== JSON.stringify(first)
            ).length
          for (const front of fronts) {
            await check(front, anon, path, first, 'MISS')
            for (const [index, caller] of named.entries())
              await check(front, caller, path, theirs[index] as Expected, 'MISS')
            await check(front, anon, path, first, stored ? 'HIT' : 'MISS')
            if (stored) hits += 1
          }
        }
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true }
    )
    console.log(
      `rule hunter through a shared cache: ${hits} anonymous answers from the cache, ${differing} answers to a token it would have leaked`
    )
    // The cache stored and served anonymous answers, which tokens' answers differ from.
    expect(hits).toBeGreaterThan(REQUESTS.length)
    expect(differing).toBeGreaterThan(REQUESTS.length)
    // The seed's sets bear on each road: a rule left out would have changed some answer.
    expect(hunted(drawn)).toStrictEqual([])
  }, 300_000)
})
