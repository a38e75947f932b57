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
import { hunted } from './support/rule-coverage.js'
import { type Expected, expectedAnswer, type Searches } from './support/rule-oracle.js'
import { RuleReading } from './support/rule-reading.js'
import {
  ask,
  expectDocument,
  expectMissingTwin,
  REQUESTS,
  searchesOf,
} from './support/rule-requests.js'
import { seedRules } from './support/rule-rows.js'
import { accessOf, type RuleSet, ruleSets } from './support/rule-sets.js'

const SECRET = 'rule hunter secret'
const SCHEMA = new URL('./fixtures/rules/schema.prisma', import.meta.url).pathname
const SEED = Number(process.env.RULE_HUNTER_SEED ?? 20_250_611)
const RUNS = 40

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
    .route('/', createHydraApp({ prisma, access: accessOf([set], setOf), ...engine }))
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
  searches = await searchesOf(prisma)
  console.log(`rule hunter: seed ${SEED}, ${RUNS} rule sets (RULE_HUNTER_SEED draws others)`)
}, 120_000)

afterAll(async () => {
  for (const close of closers) await close()
  await prisma?.$disconnect()
  await database?.remove()
})

/** Checks one answer against the oracle's, its headers, and an invisible row against a missing one. */
async function check(origin: string, path: string, token: string, wanted: Expected) {
  const answer = await ask(origin, path, token)
  const where = `${origin === origins[0] ? 'prisma' : 'compiled'} ${path}`
  expectDocument(answer, wanted, where)
  // Every answer a rule bears on is the caller's own.
  expect(answer.headers.get('cache-control'), where).toContain('private')
  expect(answer.headers.get('vary'), where).toBe('Accept, Authorization, Cookie')
  await expectMissingTwin({ origin, path, token }, answer, where)
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
