/**
 * OpenTelemetry spans (docs/operations.md#tracing), exported by the SDK's in-memory exporter: the
 * request's span (`@hono/otel`), under it the operation's (`hydra Book.collection`), under it its
 * data access (`hydra.data Book.collection`: engine, paging mode, page, counts), and under that
 * the queries: Prisma's own spans (`@prisma/instrumentation`) for the `prisma` engine, the
 * runtime's `hydra.sql` for the `compiled` one, each batch of a stream's too (read after the route
 * returned, in its data access's context). Every database, both engines. The status of a
 * failed request's spans, as OpenTelemetry's HTTP conventions have it: unset for a client's error
 * (4xx), the error (with its exception) for the server's (5xx).
 */
import { httpInstrumentationMiddleware } from '@hono/otel'
import { SpanStatusCode } from '@opentelemetry/api'
import {
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base'
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node'
import { PrismaInstrumentation, registerInstrumentations } from '@prisma/instrumentation'
import { hydraCollection } from '@prisma-hydra/runtime'
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PrismaClient } from '#generated/prisma/client.js'
import { createApp } from '../src/app.js'
import { prepareDatabase } from '../src/database.js'
import { createPrismaClient } from '../src/prisma.js'
import { emptyDatabase, TEST_DATABASE, type TestDatabase } from './support/harness.js'

const exporter = new InMemorySpanExporter()
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] })
provider.register()
registerInstrumentations({
  tracerProvider: provider,
  instrumentations: [new PrismaInstrumentation()],
})

const SYSTEM = { sqlite: 'sqlite', postgresql: 'postgresql', mysql: 'mysql' }[TEST_DATABASE]

let database: TestDatabase
let prisma: PrismaClient

beforeAll(async () => {
  database = await emptyDatabase()
  prisma = createPrismaClient(database.url)
  await prepareDatabase(prisma, database.url)
})

afterAll(async () => {
  await prisma?.$disconnect()
  await database?.remove()
  await provider.shutdown()
})

/** The spans of one request through `app` (the example app), answered `status`, as exported. */
async function spansOf(path: string, options: Parameters<typeof createApp>[1] = {}, status = 200) {
  return spansThrough(createApp(prisma, options), path, status)
}

async function spansThrough(app: ReturnType<typeof createApp>, path: string, status: number) {
  const traced = new Hono().use(httpInstrumentationMiddleware()).route('/', app)
  exporter.reset()
  const response = await traced.request(`http://localhost${path}`)
  expect(response.status).toBe(status)
  await response.arrayBuffer()
  await provider.forceFlush()
  return exporter.getFinishedSpans()
}

const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId
const childrenOf = (spans: ReadableSpan[], parent: ReadableSpan) =>
  spans.filter((span) => parentOf(span) === parent.spanContext().spanId)
const named = (spans: ReadableSpan[], name: string) => {
  const found = spans.filter((span) => span.name === name)
  expect(
    found.map((span) => span.name),
    spans.map((span) => span.name).join(', ')
  ).toEqual([name])
  return found[0] as ReadableSpan
}
/** Every span under `root`, depth first. */
const under = (spans: ReadableSpan[], root: ReadableSpan): ReadableSpan[] =>
  childrenOf(spans, root).flatMap((child) => [child, ...under(spans, child)])

/** The request → operation → data access chain of a request's spans. */
function chainOf(spans: ReadableSpan[], operation: string) {
  const [request, ...others] = spans.filter((span) => parentOf(span) === undefined)
  expect(others, 'one trace, rooted at the request').toEqual([])
  const operationSpan = named(childrenOf(spans, request as ReadableSpan), `hydra ${operation}`)
  const data = named(childrenOf(spans, operationSpan), `hydra.data ${operation}`)
  return { request: request as ReadableSpan, operation: operationSpan, data }
}

describe(`OpenTelemetry spans (${TEST_DATABASE})`, () => {
  it('nest request → operation → data access → Prisma query (the prisma engine)', async () => {
    const spans = await spansOf('/books?page=2')
    const { request, data } = chainOf(spans, 'Book.collection')
    expect(request.name).toMatch(/GET/)
    expect(data.attributes).toMatchObject({
      'hydra.engine': 'prisma',
      'db.system.name': SYSTEM,
      'hydra.paging.mode': 'full',
      'hydra.page': 2,
      'hydra.items': 10,
      'hydra.total_items': expect.any(Number),
    })
    const queries = under(spans, data)
    const names = queries.map((span) => span.name)
    expect(names).toContain('prisma:client:operation')
    const sql = queries.filter((span) => span.name === 'prisma:client:db_query')
    expect(sql.length, names.join(', ')).toBeGreaterThan(0)
    expect(sql.map((span) => String(span.attributes['db.query.text']))).toEqual(
      expect.arrayContaining([expect.stringMatching(/SELECT/i)])
    )
  })

  it('nest request → operation → data access → hydra.sql (the compiled engine)', async () => {
    const spans = await spansOf('/books?page=2', { engine: 'compiled' })
    const { data } = chainOf(spans, 'Book.collection')
    expect(data.attributes).toMatchObject({
      'hydra.engine': 'compiled',
      'hydra.paging.mode': 'full',
      'hydra.page': 2,
      'hydra.items': 10,
    })
    const sql = childrenOf(spans, data).filter((span) => span.name === 'hydra.sql')
    expect(sql.length).toBeGreaterThan(0)
    for (const span of sql) {
      expect(span.attributes['db.system.name']).toBe(SYSTEM)
      expect(String(span.attributes['db.query.text'])).toMatch(/^SELECT/i)
    }
  })

  it('name the mode of partial and cursor pages, and items and sub-collections', async () => {
    const partial = chainOf(await spansOf('/reviews?page=3'), 'Review.collection')
    expect(partial.data.attributes).toMatchObject({
      'hydra.paging.mode': 'partial',
      'hydra.page': 3,
      'hydra.items': 20,
    })
    const unpaged = chainOf(await spansOf('/languages'), 'Language.collection')
    expect(unpaged.data.attributes).toMatchObject({ 'hydra.paging.mode': 'unpaged' })
    const cursor = chainOf(await spansOf('/activities'), 'Activity.collection')
    expect(cursor.data.attributes).toMatchObject({ 'hydra.paging.mode': 'cursor' })
    const item = chainOf(await spansOf('/books/1'), 'Book.item')
    expect(item.data.attributes).toMatchObject({ 'hydra.items': 1, 'hydra.engine': 'prisma' })
    const spans = await spansOf('/authors/1/books')
    const [request] = spans.filter((span) => parentOf(span) === undefined)
    const operation = named(childrenOf(spans, request as ReadableSpan), 'hydra Author.books')
    // The page's data access, which reads the parent with the page, within the operation.
    const data = named(childrenOf(spans, operation), 'hydra.data Book.collection')
    expect(data.attributes).toMatchObject({ 'hydra.paging.mode': 'full', 'hydra.page': 1 })
  })

  it("nest every batch of a stream's queries under its data access, on both engines", async () => {
    // Batches of 10: the loans are read in several queries, all but the first after the route
    // has returned, as the client takes the stream.
    const batches = Math.floor((await prisma.loan.count()) / 10) + 1
    expect(batches).toBeGreaterThan(2)
    for (const [engine, query] of [
      ['prisma', 'prisma:client:operation'],
      ['compiled', 'hydra.sql'],
    ] as const) {
      const spans = await spansOf('/loans?pagination=false', { batchSize: 10, engine })
      const { data } = chainOf(spans, 'Loan.collection')
      expect(data.attributes).toMatchObject({ 'hydra.paging.mode': 'unpaged' })
      const queries = spans.filter((span) => span.name === query)
      expect(queries.length, engine).toBe(batches)
      expect(childrenOf(spans, data).filter((span) => span.name === query)).toEqual(queries)
    }
  })

  it("nest every read of a custom collection's stream under its operation", async () => {
    const app = createApp(prisma)
    // A custom collection streaming books it reads 10 at a time, as the client takes them.
    app.get(
      '/titles',
      hydraCollection({ context: '/contexts/Title', batchSize: 10 }, async function* () {
        for (let skip = 0; ; skip += 10) {
          const rows = await prisma.book.findMany({ orderBy: { id: 'asc' }, skip, take: 10 })
          for (const row of rows) yield { '@id': `/books/${row.id}`, title: row.title }
          if (rows.length < 10) return
        }
      })
    )
    const reads = Math.floor((await prisma.book.count()) / 10) + 1
    expect(reads).toBeGreaterThan(2)
    const spans = await spansThrough(app, '/titles', 200)
    const [request, ...others] = spans.filter((span) => parentOf(span) === undefined)
    expect(others, 'one trace, rooted at the request').toEqual([])
    const operation = named(childrenOf(spans, request as ReadableSpan), 'hydra Title.collection')
    const queries = spans.filter((span) => span.name === 'prisma:client:operation')
    expect(queries).toHaveLength(reads)
    expect(childrenOf(spans, operation).filter((span) => queries.includes(span))).toEqual(queries)
  })

  it('make no span when the app switches tracing off', async () => {
    const spans = await spansOf('/books?page=2', { tracing: false })
    expect(spans.filter((span) => span.name.startsWith('hydra'))).toEqual([])
  })
})

/** Whether a span recorded an exception (an `exception` event, as `recordException` adds). */
const excepted = (span: ReadableSpan) => span.events.some((event) => event.name === 'exception')
/** The request's own span: the root of the trace. */
const requestOf = (spans: ReadableSpan[]) => {
  const roots = spans.filter((span) => parentOf(span) === undefined)
  expect(roots.map((span) => span.name)).toHaveLength(1)
  return roots[0] as ReadableSpan
}
/** A database nothing answers on: refused at once. */
const UNREACHABLE = {
  sqlite: undefined,
  postgresql: 'postgres://postgres@127.0.0.1:1/test',
  mysql: 'mysql://root@127.0.0.1:1/test',
}[TEST_DATABASE]

describe(`the status of the spans of a failed request (${TEST_DATABASE})`, () => {
  it("leaves a client's error (400, 404) unset, with no exception, on every span", async () => {
    const answers = [
      ['/books?page=0', 400, 'hydra Book.collection'],
      ['/books/999999', 404, 'hydra Book.item'],
      ['/authors/999999/books', 404, 'hydra Author.books'],
    ] as const
    for (const [path, status, operation] of answers) {
      const spans = await spansOf(path, {}, status)
      expect(requestOf(spans).attributes['http.response.status_code']).toBe(status)
      expect(named(spans, operation).attributes['hydra.problem.status']).toBe(status)
      for (const span of spans) {
        expect([span.name, span.status.code]).toEqual([span.name, SpanStatusCode.UNSET])
        expect([span.name, excepted(span)]).toEqual([span.name, false])
      }
    }
    // No route at all: the not-found handler's 404.
    const unrouted = requestOf(await spansOf('/no-such-route', {}, 404))
    expect([unrouted.status.code, excepted(unrouted)]).toEqual([SpanStatusCode.UNSET, false])
  })

  it("marks a failure of the server (500, 503) as the request's error, with its exception", async () => {
    const events: unknown[] = []
    const app = createApp(prisma, { logger: ({ fields }) => void events.push(fields.event) })
    app.get('/failing', () => {
      throw new Error('a bug in a route of the app')
    })
    // An outage thrown by a route of the app's own: its 503.
    app.get('/refused', () => {
      throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' })
    })
    for (const [path, status] of [
      ['/failing', 500],
      ['/refused', 503],
    ] as const) {
      const request = requestOf(await spansThrough(app, path, status))
      expect(request.status.code).toBe(SpanStatusCode.ERROR)
      expect(excepted(request)).toBe(true)
    }
    expect(events).toEqual(['server.error', 'outage.unattributed'])
  })

  it.skipIf(!UNREACHABLE)("marks a generated route's outage (503) as its error", async () => {
    const unreachable = createPrismaClient(UNREACHABLE, { connect: 1000 })
    try {
      const app = createApp(unreachable, { logger: () => {} })
      const spans = await spansThrough(app, '/books/1', 503)
      for (const span of [requestOf(spans), named(spans, 'hydra Book.item')]) {
        expect(span.status.code).toBe(SpanStatusCode.ERROR)
        expect(excepted(span)).toBe(true)
      }
    } finally {
      await unreachable.$disconnect()
    }
  })
})
