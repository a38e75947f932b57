/**
 * A seeded HTTP fuzz run over every route, parameter and method of the example app (and of the
 * filters fixture, for every filter kind, and of the fixtures of every key type and of composite
 * keys, whose items and sub-collections get keys of each type, malformed), on a real socket: no answer may be a 5xx, every 4xx is
 * problem+json naming its status, every 2xx is a whole JSON document. The seed and the number of requests are printed; set FUZZ_SEED to replay a run and
 * FUZZ_REQUESTS to change its length (default 20,000). A failure prints each failing request as a
 * curl command.
 */
import { Agent, request as httpRequest } from 'node:http'
import {
  type DocumentedType,
  hydraErrorHandler,
  hydraNotFound,
  shareAdapter,
} from '@prisma-hydra/runtime'
import { Hono } from 'hono'
import { jwt } from 'hono/jwt'
import { afterAll, beforeAll, expect, it } from 'vitest'
import * as filtersFixture from '#fixtures/filters/hydra/index.js'
import { PrismaClient as FiltersClient } from '#fixtures/filters/prisma/client.js'
import * as hydra from '#generated/hydra/index.js'
import type { PrismaClient } from '#generated/prisma/client.js'
import { createApp } from '../src/app.js'
import { claimsOf, type LibraryEnv, tokenFor } from '../src/auth.js'
import { customTypes } from '../src/collections.js'
import { prepareDatabase } from '../src/database.js'
import { createPrismaClient } from '../src/prisma.js'
import {
  describeRequest,
  type FuzzRequest,
  type FuzzRoute,
  propertyParameters,
  queryParameters,
  RequestFuzzer,
  sendable,
} from './support/fuzz.js'
import {
  createAdapter,
  emptyDatabase,
  freshDatabase,
  startServer,
  TEST_DATABASE,
  type TestDatabase,
} from './support/harness.js'
import { type KeyFixture, startKeyFixtures } from './support/key-fixtures.js'
import { sendRaw } from './support/raw-http.js'

const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 32))
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 20000)
/** Requests in flight at once. */
const CONCURRENCY = 8
/** Random requests (besides the sweep) sent to both engines (FUZZ_ENGINE_REQUESTS). */
const TWIN_REQUESTS = Number(process.env.FUZZ_ENGINE_REQUESTS ?? 1500)

let prisma: PrismaClient
let origin: string
let close: () => Promise<void>
let database: TestDatabase
/**
 * The filters fixture (test/fixtures/filters) beside the example: every filter kind, to-one and
 * to-many relations, orders through a relation, on a second server.
 */
const FILTERS_SCHEMA = new URL('./fixtures/filters/schema.prisma', import.meta.url).pathname
let filtersPrisma: FiltersClient
let filtersOrigin: string
let closeFilters: () => Promise<void>
let filtersDatabase: TestDatabase
/**
 * The filters fixture's callers: a tenant (`owner1`, `owner2`) sees its owner, that owner's items
 * and their notes; a request without a token sees every row. Fuzzed requests carry one of these
 * now and then (and broken tokens, hono/jwt's 401).
 */
const SECRET = 'fuzz secret'
type Caller = Parameters<typeof claimsOf>[0]
/**
 * The "no row" a caller that is no tenant reads, written in turn each way Prisma documents it
 * (by its claim's text), or as the key no row has.
 */
const NO_ROW = [{ OR: [] }, { AND: [{ OR: [] }] }, { NOT: {} }, { id: { in: [] } }] as const
/**
 * `where` of the caller's owners, or undefined (every row) without a token. The claim is checked
 * before it reaches a where, as docs/security.md asks: a token whose `sub` is not a tenant's (an
 * object, an operator, a number, a text holding NUL) reads no row.
 */
function tenant<W>(c: Caller, where: (owners: number[]) => W): W | undefined {
  const sub: unknown = claimsOf(c)?.sub
  if (sub === undefined) return undefined
  const owner = typeof sub === 'string' ? /^owner(\d+)$/.exec(sub) : null
  if (owner) return where([Number(owner[1])])
  return NO_ROW[JSON.stringify(sub).length % NO_ROW.length] as W
}
const filtersAccess: filtersFixture.HydraAccess<LibraryEnv> = {
  Owner: { scope: (c) => tenant(c, (owners) => ({ id: { in: owners } })) },
  Item: { scope: (c) => tenant(c, (owners) => ({ ownerId: { in: owners } })) },
  Note: { scope: (c) => tenant(c, (owners) => ({ item: { is: { ownerId: { in: owners } } } })) },
}
let identities: string[] = []
/**
 * Validly signed claims of no tenant, of every shape a `sub` can have: their scopes hold no row
 * (each idiom of it in turn), and no answer to them may show one.
 */
const NO_TENANTS: unknown[] = [
  'nobody',
  'owner1\u0000',
  {},
  { $ne: null },
  { not: null },
  123,
  ['owner1'],
  null,
  'owner 1',
]
let nobodies: string[] = []
/** Credentials hono/jwt refuses (401) before any route, whatever else the request holds. */
const BROKEN = ['Bearer not.a.token', 'Basic b3duZXI6MQ==']

/** The fixtures of every key type and of composite keys, each on a server of its own. */
let keyFixtures: KeyFixture[] = []
/**
 * The same two apps on the same clients and databases with the `compiled` engine: each
 * server's twin, whose answers must be byte for byte the `prisma` engine's.
 */
const twins = new Map<string, string>()
const closeTwins: Array<() => Promise<void>> = []

beforeAll(async () => {
  database = await emptyDatabase()
  prisma = createPrismaClient(database.url)
  await prepareDatabase(prisma, database.url)
  // Small batches: unpaged responses cross batch boundaries.
  ;({ origin, close } = await startServer(createApp(prisma, { batchSize: 7 }).fetch))
  filtersDatabase = await freshDatabase(FILTERS_SCHEMA)
  const filtersAdapter = shareAdapter(createAdapter(filtersDatabase.url))
  filtersPrisma = new FiltersClient({ adapter: filtersAdapter })
  await seedFilters(filtersPrisma)
  // The filters fixture behind hono/jwt with tenant scopes, on either engine.
  const filtersApp = (
    engine: Partial<filtersFixture.HydraAppOptions<typeof filtersAccess, LibraryEnv>>
  ) => {
    // hono/jwt alone (not the example's `authenticate`, which drops claims of another shape):
    // the scopes below read every shape of claim the tokens hold.
    const verify = jwt({ secret: SECRET, alg: 'HS256' })
    const app = new Hono<LibraryEnv>()
      .use((c, next) => (c.req.header('Authorization') ? verify(c, next) : next()))
      .route(
        '/',
        filtersFixture.createHydraApp({
          prisma: filtersPrisma,
          batchSize: 3,
          access: filtersAccess,
          ...engine,
        })
      )
    app.onError(hydraErrorHandler)
    app.notFound(hydraNotFound)
    return app
  }
  ;({ origin: filtersOrigin, close: closeFilters } = await startServer(filtersApp({}).fetch))
  const bearer = async (sub: unknown) =>
    `Bearer ${await tokenFor({ sub: sub as string, role: 'reader' }, SECRET)}`
  nobodies = await Promise.all(NO_TENANTS.map(bearer))
  identities = [...(await Promise.all(['owner1', 'owner2'].map(bearer))), ...nobodies, ...BROKEN]
  const compiled = { engine: 'compiled' as const }
  for (const [twinOf, fetch] of [
    [origin, createApp(prisma, { batchSize: 7, ...compiled }).fetch],
    [filtersOrigin, filtersApp({ ...compiled, adapter: filtersAdapter }).fetch],
  ] as const) {
    const twin = await startServer(fetch)
    twins.set(twinOf, twin.origin)
    closeTwins.push(twin.close)
  }
  keyFixtures = await startKeyFixtures()
})

afterAll(async () => {
  for (const closeTwin of closeTwins) await closeTwin()
  await close?.()
  await closeFilters?.()
  await prisma?.$disconnect()
  await filtersPrisma?.$disconnect()
  await database?.remove()
  await filtersDatabase?.remove()
  for (const fixture of keyFixtures) await fixture.close()
})

/** A few owners, items and notes: enough rows for every filter to select some and not others. */
async function seedFilters(client: FiltersClient): Promise<void> {
  await client.owner.createMany({
    data: [1, 2, 3].map((id) => ({
      id,
      name: `Owner ${id}`,
      score: id,
      joinedAt: id === 2 ? null : new Date(Date.UTC(2023, id, 1)),
      verified: id !== 3,
    })),
  })
  await client.item.createMany({
    data: Array.from({ length: 12 }, (_, index) => ({
      id: index + 1,
      title: `Item ${index} 50%_off`,
      code: `C-${index}`,
      tag: index % 2 ? 'odd' : 'even',
      words: 'garden path',
      genre: (['FICTION', 'SCIENCE', 'POETRY'] as const)[index % 3] ?? 'FICTION',
      price: (index * 1.75).toFixed(2),
      pages: 100 + index * 10,
      publishedAt: new Date(Date.UTC(2024, index, 1)),
      returnedAt: index % 4 ? new Date(Date.UTC(2024, index, 9)) : null,
      available: index % 3 === 0,
      ownerId: 1 + (index % 3),
    })),
  })
  await client.note.createMany({
    data: Array.from({ length: 18 }, (_, index) => ({
      id: index + 1,
      text: ['good', 'bad', 'meh'][index % 3] as string,
      stars: 1 + (index % 5),
      itemId: 1 + (index % 9),
    })),
  })
}

/** The collections of `types` with their paging, filter and order parameters. */
function collectionRoutes(
  types: readonly DocumentedType[],
  server: string | undefined,
  iris: Record<string, readonly string[]>
): FuzzRoute[] {
  return types.flatMap((type) =>
    type.collections.map(
      (collection): FuzzRoute => ({
        kind: 'collection',
        path: collection.path,
        parameters: Object.values(collection.paging.parameters),
        cursor: collection.paging.cursor ?? [],
        filters: collection.query
          ? queryParameters(collection.query, (path) => iris[path] ?? [])
          : [],
        origin: server,
      })
    )
  )
}

/**
 * The sub-collections of the generated types' to-many links (`/authors/3/books`), each with its
 * target's collection parameters but those on the to-one relation back to the parent
 * (`author`, `author.name`: docs/hydra.md#relations; missing parents: relations.e2e).
 */
function subCollectionRoutes(
  types: readonly DocumentedType[],
  iris: Record<string, readonly string[]>
): FuzzRoute[] {
  return types.flatMap((type) =>
    (type.links ?? []).flatMap((link) => {
      const target = types.find((candidate) => candidate.name === link.target.name)
      const main = target?.collections[0]
      if (link.kind !== 'many' || !main || !type.itemPath) return []
      // A to-many link has one to-one link back when it is one-to-many (the example names none).
      const back = target?.links?.find(
        (candidate) => candidate.kind === 'one' && candidate.target.name === type.name
      )?.name
      const onBack = (spec: { field: string; through?: { relation: string } | undefined }) =>
        spec.field === back || spec.through?.relation === back
      const query = main.query && {
        ...main.query,
        filters: main.query.filters.filter((filter) => !onBack(filter)),
        order: main.query.order.filter((field) => !onBack(field)),
      }
      return collectionRoutes(
        [{ ...(target as DocumentedType), collections: [{ ...main, query }] }],
        undefined,
        iris
      ).flatMap((route) =>
        ['1', '3'].map((id) => ({ ...route, path: `${type.itemPath}/${id}/${link.name}` }))
      )
    })
  )
}

/** Every route of the example: its collections (generated and custom), items and documents. */
function routes(): FuzzRoute[] {
  const types = [...hydra.hydraTypes, ...customTypes]
  const resources = Object.values(hydra).filter(
    (value): value is (typeof hydra)['bookResource'] =>
      typeof value === 'object' && value !== null && 'parseId' in value
  )
  const known: Record<string, string[]> = {
    Int: ['1', '2', '120', '300', '75', '500'],
    String: ['en', 'fr', 'de'],
  }
  return [
    { kind: 'document', path: '/' },
    { kind: 'document', path: '/docs.jsonld' },
    { kind: 'document', path: '/openapi.json' },
    { kind: 'document', path: '/contexts/Entrypoint' },
    { kind: 'document', path: '/contexts/Error' },
    ...types.map((type): FuzzRoute => ({ kind: 'document', path: `/contexts/${type.name}` })),
    ...collectionRoutes(types, undefined, { '/authors': ['/authors/1', '/authors/3', '2'] }),
    ...collectionRoutes(filtersFixture.hydraTypes, filtersOrigin, {
      '/owners': ['/owners/1', '/owners/2', '3'],
    }),
    ...subCollectionRoutes(hydra.hydraTypes, { '/authors': ['/authors/1', '/authors/3', '2'] }),
    { kind: 'document', path: '/docs.jsonld', origin: filtersOrigin },
    // Items and sub-collections keyed by every key type, composite keys included.
    ...keyFixtures.flatMap((fixture): FuzzRoute[] => [
      ...collectionRoutes(fixture.types, fixture.origin, fixture.iris),
      ...fixture.items,
      { kind: 'document', path: '/docs.jsonld', origin: fixture.origin },
    ]),
    ...resources.map(
      (resource): FuzzRoute => ({
        kind: 'item',
        path: resource.collectionPath,
        idType: resource.id.kind,
        known: known[resource.id.kind] ?? [],
        filters: propertyParameters(resource.properties),
        // Text ids spelled another way (case, a trailing space): one item, one IRI, so 404s.
        variants:
          (resource.id.kind as string) === 'String'
            ? (known.String ?? []).flatMap((id) => [id.toUpperCase(), `${id}%20`])
            : undefined,
      })
    ),
  ]
}

interface Answer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

/**
 * Sends a request. A kept-alive socket the server closed as it was reused (its keep-alive timeout
 * ran out while the socket idled, as the fixture's server's do between its rarer requests) is
 * retried, as Node's documentation advises (`request.reusedSocket`): the request never reached the
 * server. Several idle sockets of the pool can have been closed at once, each reused in turn; once
 * they are gone the agent opens a new socket, whose failure is an error like any other.
 */
async function send(agent: Agent, request: FuzzRequest): Promise<Answer> {
  if (request.raw) return sendRawRequest(request)
  for (let attempt = 0; ; attempt++) {
    try {
      return await sendOnce(agent, request)
    } catch (error) {
      if (!(error instanceof ReusedSocketClosed) || attempt >= CONCURRENCY) throw error
    }
  }
}

class ReusedSocketClosed extends Error {}

/** A request Node's client will not send (raw UTF-8 in its target), written on a socket as it is. */
async function sendRawRequest(request: FuzzRequest): Promise<Answer> {
  const headers = { host: '127.0.0.1', connection: 'close', ...request.headers }
  const head = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')
  const answer = await sendRaw(
    request.origin ?? origin,
    Buffer.from(`${request.method} ${request.path} HTTP/1.1\r\n${head}\r\n`, 'utf8')
  )
  return answer
}

function sendOnce(agent: Agent, request: FuzzRequest): Promise<Answer> {
  const url = new URL(request.origin ?? origin)
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        agent,
        host: url.hostname,
        port: url.port,
        method: request.method,
        path: sendable(request.path),
        headers: request.headers,
        timeout: 30000,
      },
      (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          })
        )
        response.on('error', reject)
      }
    )
    outgoing.on('timeout', () => outgoing.destroy(new Error('no answer within 30 s')))
    outgoing.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        outgoing.reusedSocket && error.code === 'ECONNRESET'
          ? new ReusedSocketClosed(error.message)
          : error
      )
    )
    outgoing.end()
  })
}

/** What is wrong with an answer, or undefined when it is one the API may give. */
function fault(request: FuzzRequest, answer: Answer): string | undefined {
  const { status, headers, body } = answer
  const type = String(headers['content-type'] ?? '')
  if (status >= 500) return `${status}: ${body.slice(0, 300)}`
  // The app's authentication answers first: a 401 problem (a 406 to a client refusing JSON).
  if (BROKEN.includes(request.headers.authorization ?? '') && (status === 401 || status === 406))
    return request.method === 'HEAD' ? undefined : problemFault(status, type, body)
  // A client that accepts neither JSON type is answered 406 whatever else is wrong.
  const refusesJson = request.headers.accept !== undefined && status === 406
  const expected = [request.expected ?? []].flat()
  if (expected.length > 0 && !expected.includes(status) && !refusesJson)
    return `${status}, ${expected.join(' or ')} expected: ${body.slice(0, 300)}`
  if (request.expected !== undefined && request.method !== 'HEAD')
    return problemFault(status, type, body)
  // Other methods on a path the API serves: 405 (OPTIONS: 204) with Allow, never a 404.
  if (
    (request.route === 'collection' || request.route === 'document') &&
    !['GET', 'HEAD'].includes(request.method) &&
    !request.path.split('?')[0]?.endsWith('/')
  ) {
    const expected = request.method === 'OPTIONS' ? 204 : 405
    if (status !== expected) return `${status} for ${request.method}, ${expected} expected`
    if (headers.allow !== 'GET, HEAD, OPTIONS') return `${status} with Allow: ${headers.allow}`
  }
  if (request.method === 'HEAD') return undefined
  if (status >= 400) return problemFault(status, type, body)
  if (nobodies.includes(request.headers.authorization ?? '') && status === 200) {
    const rows = rowsShown(request, body)
    if (rows !== undefined) return `a row to a caller that may see none: ${rows}`
  }
  if (status >= 200 && status < 300 && status !== 204 && request.method !== 'OPTIONS') {
    // The documentation page (`/docs`, a path the fuzzer reaches by stripping `.jsonld`) and its
    // Swagger UI files are the only answers of the API that are not JSON.
    const page = /^\/docs(\/[^/?]+)?(\?|$)/.test(request.path)
    if (page && /^text\/(html|css|javascript)/.test(type)) return undefined
    if (!/^application\/(ld\+)?json/.test(type)) return `${status} as ${type}`
    try {
      JSON.parse(body)
    } catch {
      return `${status} body that is not whole JSON (${body.length} characters)`
    }
  }
  return undefined
}

/**
 * What an answer of the filters fixture shows of its rows (a member, a total, an item), or
 * undefined when it shows none.
 */
function rowsShown(request: FuzzRequest, body: string): string | undefined {
  if ((request.origin ?? origin) !== filtersOrigin) return undefined
  let answer: Record<string, unknown>
  try {
    answer = JSON.parse(body)
  } catch {
    return undefined
  }
  if (request.route === 'item') return `the item ${String(answer['@id'])}`
  const members = answer['hydra:member'] ?? answer.member
  if (Array.isArray(members) && members.length > 0) return `${members.length} members`
  const total = answer['hydra:totalItems'] ?? answer.totalItems
  if (typeof total === 'number' && total > 0) return `a total of ${total}`
  return undefined
}

/** What is wrong with an error answer, or undefined when it is a whole problem of its status. */
function problemFault(status: number, type: string, body: string): string | undefined {
  if (!type.startsWith('application/problem+json'))
    return `${status} as ${type}: ${body.slice(0, 300)}`
  let problem: { status?: unknown; detail?: unknown }
  try {
    problem = JSON.parse(body)
  } catch {
    return `${status} problem that is not JSON: ${body.slice(0, 300)}`
  }
  if (problem.status !== status) return `${status} problem with status ${problem.status}`
  if (typeof problem.detail !== 'string' || problem.detail === '')
    return `${status} problem without a detail`
  return undefined
}

/** Sends `next()`'s requests, CONCURRENCY at a time, until it gives none; what they met. */
async function run(next: () => FuzzRequest | undefined) {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY })
  const failures: string[] = []
  const statuses = new Map<number, number>()
  /** Requests that carried each filter or order parameter, and those answered 2xx. */
  const filters = new Map<string, { sent: number; ok: number }>()
  let sent = 0
  const started = performance.now()
  const worker = async () => {
    for (let request = next(); request; request = next()) {
      sent++
      let problem: string | undefined
      try {
        const answer = await send(agent, request)
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1)
        for (const name of request.filters) {
          const key = `${request.path.split('?')[0]} ${name}`
          const count = filters.get(key) ?? { sent: 0, ok: 0 }
          count.sent++
          if (answer.status < 300) count.ok++
          filters.set(key, count)
        }
        problem = fault(request, answer)
      } catch (error) {
        problem = `no answer: ${(error as Error).message}`
      }
      if (problem !== undefined && failures.length < 50)
        failures.push(`${describeRequest(request.origin ?? origin, request)}\n    → ${problem}`)
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker))
  agent.destroy()
  const seconds = ((performance.now() - started) / 1000).toFixed(1)
  const counts = [...statuses.entries()]
    .sort(([a], [b]) => a - b)
    .map(([status, count]) => `${status}×${count}`)
    .join(' ')
  return { sent, seconds, counts, failures, filters }
}

/** Every filter and order parameter of every collection, as `path name`. */
function declaredFilters(): string[] {
  return routes().flatMap((route) =>
    route.kind === 'collection'
      ? (route.filters ?? []).map((parameter) => `${route.path} ${parameter.name}`)
      : []
  )
}

it('answers every filter and order parameter of every collection, each value of its type, without a 5xx', async () => {
  const requests = new RequestFuzzer(SEED, routes()).sweep()
  let index = 0
  const { sent, seconds, counts, failures, filters } = await run(() => requests[index++])
  const declared = declaredFilters()
  process.stdout.write(
    `fuzz sweep (${TEST_DATABASE}): ${declared.length} filter and order parameters of ${new Set(declared.map((entry) => entry.split(' ')[0])).size} collections, ${sent} requests in ${seconds} s: ${counts}\n`
  )
  // Each parameter was sent, and some values of each were accepted (a typed value is not all 400s).
  for (const entry of declared) {
    expect(filters.get(entry)?.sent, entry).toBeGreaterThan(0)
    expect(filters.get(entry)?.ok, `${entry}: no value accepted`).toBeGreaterThan(0)
  }
  expect(failures, `${failures.length} failing requests`).toEqual([])
}, 600000)

it(`answers ${REQUESTS} fuzzed requests without a 5xx, every 4xx as problem+json`, async () => {
  const fuzzer = new RequestFuzzer(SEED, routes(), identities)
  let left = REQUESTS
  const { sent, seconds, counts, failures, filters } = await run(() =>
    left-- > 0 ? fuzzer.request() : undefined
  )
  const carried = [...filters.values()].reduce((total, count) => total + count.sent, 0)
  const declared = declaredFilters()
  const covered = declared.filter((entry) => filters.has(entry)).length
  process.stdout.write(
    `fuzz (${TEST_DATABASE}): seed ${SEED}, ${sent} requests in ${seconds} s (FUZZ_SEED=${SEED} replays it): ${counts}; ${carried} filter or order parameters sent, ${covered} of the ${declared.length} declared ones\n`
  )
  expect(failures, `seed ${SEED}: ${failures.length} failing requests`).toEqual([])
}, 600000)

it('answers the same bytes on the compiled engine as on the prisma engine', async () => {
  // With the identities too: both engines read within each caller's scope.
  const fuzzer = new RequestFuzzer(SEED, routes(), identities)
  const random = Array.from({ length: TWIN_REQUESTS }, () => fuzzer.request())
  // Every other request of the sweep (each parameter keeps values of each kind), and random ones.
  const sweep = fuzzer.sweep().filter((_, index) => index % 2 === 0)
  const requests = [...sweep, ...random].filter(
    (request) => request.method === 'GET' && !request.raw && twins.has(request.origin ?? origin)
  )
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY })
  const differences: string[] = []
  let index = 0
  let compared = 0
  const started = performance.now()
  const worker = async () => {
    for (let request = requests[index++]; request; request = requests[index++]) {
      const own = request.origin ?? origin
      const twin = twins.get(own) as string
      const prisma = await send(agent, request)
      // A 400 (or 406, 414, 431) is decided before any row is read: the same code on both engines.
      if (prisma.status >= 400 && prisma.status !== 404) continue
      compared++
      const compiled = await send(agent, { ...request, origin: twin })
      const shown = (answer: Answer, from: string) =>
        `${answer.status} ${answer.headers['content-type']} ${answer.body.replaceAll(from, '<origin>')}`
      if (shown(prisma, own) !== shown(compiled, twin) && differences.length < 20)
        differences.push(
          `${describeRequest(own, request)}\n    prisma:   ${shown(prisma, own).slice(0, 400)}\n    compiled: ${shown(compiled, twin).slice(0, 400)}`
        )
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker))
  agent.destroy()
  process.stdout.write(
    `fuzz engines (${TEST_DATABASE}): seed ${SEED}, ${requests.length} requests, ${compared} read rows and were sent to both engines, in ${((performance.now() - started) / 1000).toFixed(1)} s\n`
  )
  expect(differences, `seed ${SEED}: ${differences.length} different answers`).toEqual([])
}, 600000)
