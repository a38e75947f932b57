/**
 * OpenTelemetry spans (docs/operations.md#tracing), exported by the SDK's in-memory exporter: the
 * request's span (`@hono/otel`), under it the operation's (`hydra Book.collection`), under it its
 * data access (`hydra.data Book.collection`: engine, paging mode, page, counts), and under that
 * the queries: Prisma's own spans (`@prisma/instrumentation`) for the `prisma` engine, the
 * runtime's `hydra.sql` for the `compiled` one. Every database, both engines.
 */
import { httpInstrumentationMiddleware } from '@hono/otel'
import {
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base'
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node'
import { PrismaInstrumentation, registerInstrumentations } from '@prisma/instrumentation'
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

/** The spans of one request through the example app, as exported. */
async function spansOf(path: string, options: Parameters<typeof createApp>[1] = {}) {
  const app = new Hono().use(httpInstrumentationMiddleware()).route('/', createApp(prisma, options))
  exporter.reset()
  const response = await app.request(`http://localhost${path}`)
  expect(response.status).toBe(200)
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
    // The parent's lookup, then the page's data access, both within the operation.
    const data = named(childrenOf(spans, operation), 'hydra.data Book.collection')
    expect(data.attributes).toMatchObject({ 'hydra.paging.mode': 'full', 'hydra.page': 1 })
  })

  it('make no span when the app switches tracing off', async () => {
    const spans = await spansOf('/books?page=2', { tracing: false })
    expect(spans.filter((span) => span.name.startsWith('hydra'))).toEqual([])
  })
})
