/**
 * OpenTelemetry spans of an app that answered requests before any tracer provider was registered
 * (docs/operations.md#tracing): while none is, the runtime makes no span (they would record
 * nothing); the requests after one is registered have their operation's and data access's spans.
 */
import { trace } from '@opentelemetry/api'
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base'
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { PrismaClient } from '#generated/prisma/client.js'
import { createApp } from '../src/app.js'
import { prepareDatabase } from '../src/database.js'
import { createPrismaClient } from '../src/prisma.js'
import { emptyDatabase, type TestDatabase } from './support/harness.js'

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
})

it('records the spans of the requests made once a provider is registered', async () => {
  const app = createApp(prisma)
  const ask = async (path: string) => {
    const response = await app.request(`http://localhost${path}`)
    expect(response.status).toBe(200)
    return response.text()
  }
  // Answered with the same bytes with and without spans; the first request loads the API.
  const before = await ask('/books?page=2')
  await ask('/authors')
  const exporter = new InMemorySpanExporter()
  const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] })
  provider.register()
  try {
    expect(await ask('/books?page=2')).toBe(before)
    await provider.forceFlush()
    const names = exporter.getFinishedSpans().map((span) => span.name)
    expect(names).toContain('hydra Book.collection')
    expect(names).toContain('hydra.data Book.collection')
  } finally {
    await provider.shutdown()
    trace.disable()
  }
})
