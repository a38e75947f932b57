/**
 * A seeded HTTP fuzz run over every route, parameter and method of the example app, on a real
 * socket: no answer may be a 5xx, every 4xx is problem+json naming its status, every 2xx is a whole
 * JSON document. The seed and the number of requests are printed; set FUZZ_SEED to replay a run and
 * FUZZ_REQUESTS to change its length (default 20,000). A failure prints each failing request as a
 * curl command.
 */
import { Agent, request as httpRequest } from 'node:http'
import { afterAll, beforeAll, expect, it } from 'vitest'
import * as hydra from '#generated/hydra/index.js'
import type { PrismaClient } from '#generated/prisma/client.js'
import { createApp } from '../src/app.js'
import { customTypes } from '../src/collections.js'
import { prepareDatabase } from '../src/database.js'
import { createPrismaClient } from '../src/prisma.js'
import { describeRequest, type FuzzRequest, type FuzzRoute, RequestFuzzer } from './support/fuzz.js'
import { emptyDatabase, startServer, TEST_DATABASE, type TestDatabase } from './support/harness.js'

const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 32))
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 20000)
/** Requests in flight at once. */
const CONCURRENCY = 8

let prisma: PrismaClient
let origin: string
let close: () => Promise<void>
let database: TestDatabase

beforeAll(async () => {
  database = await emptyDatabase()
  prisma = createPrismaClient(database.url)
  await prepareDatabase(prisma, database.url)
  // Small batches: unpaged responses cross batch boundaries.
  ;({ origin, close } = await startServer(createApp(prisma, { batchSize: 7 }).fetch))
})

afterAll(async () => {
  await close?.()
  await prisma?.$disconnect()
  await database?.remove()
})

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
    { kind: 'document', path: '/contexts/Entrypoint' },
    { kind: 'document', path: '/contexts/Error' },
    ...types.map((type): FuzzRoute => ({ kind: 'document', path: `/contexts/${type.name}` })),
    ...types.flatMap((type) =>
      type.collections.map(
        (collection): FuzzRoute => ({
          kind: 'collection',
          path: collection.path,
          parameters: Object.values(collection.paging.parameters),
          cursor: collection.paging.cursor ?? [],
        })
      )
    ),
    ...resources.map(
      (resource): FuzzRoute => ({
        kind: 'item',
        path: resource.collectionPath,
        idType: resource.id.kind,
        known: known[resource.id.kind] ?? [],
      })
    ),
  ]
}

interface Answer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

/** Non-ASCII characters and spaces are escaped: Node's client refuses them in a request line. */
const sendable = (path: string) =>
  path.replace(/[^\x21-\x7e]/gu, (character) => encodeURIComponent(character))

function send(agent: Agent, request: FuzzRequest): Promise<Answer> {
  const url = new URL(origin)
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
    outgoing.on('error', reject)
    outgoing.end()
  })
}

/** What is wrong with an answer, or undefined when it is one the API may give. */
function fault(request: FuzzRequest, answer: Answer): string | undefined {
  const { status, headers, body } = answer
  const type = String(headers['content-type'] ?? '')
  if (status >= 500) return `${status}: ${body.slice(0, 300)}`
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
  if (status >= 400) {
    if (!type.startsWith('application/problem+json')) return `${status} as ${type}: ${body}`
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
  if (status >= 200 && status < 300 && status !== 204 && request.method !== 'OPTIONS') {
    if (!/^application\/(ld\+)?json/.test(type)) return `${status} as ${type}`
    try {
      JSON.parse(body)
    } catch {
      return `${status} body that is not whole JSON (${body.length} characters)`
    }
  }
  return undefined
}

it(`answers ${REQUESTS} fuzzed requests without a 5xx, every 4xx as problem+json`, async () => {
  const fuzzer = new RequestFuzzer(SEED, routes())
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY })
  const failures: string[] = []
  const statuses = new Map<number, number>()
  let sent = 0
  const started = performance.now()
  const worker = async () => {
    while (sent < REQUESTS) {
      sent++
      const request = fuzzer.request()
      let problem: string | undefined
      try {
        const answer = await send(agent, request)
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1)
        problem = fault(request, answer)
      } catch (error) {
        problem = `no answer: ${(error as Error).message}`
      }
      if (problem !== undefined && failures.length < 50)
        failures.push(`${describeRequest(origin, request)}\n    → ${problem}`)
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker))
  agent.destroy()
  const seconds = ((performance.now() - started) / 1000).toFixed(1)
  const counts = [...statuses.entries()]
    .sort(([a], [b]) => a - b)
    .map(([status, count]) => `${status}×${count}`)
    .join(' ')
  process.stdout.write(
    `fuzz (${TEST_DATABASE}): seed ${SEED}, ${sent} requests in ${seconds} s (FUZZ_SEED=${SEED} replays it): ${counts}\n`
  )
  expect(failures, `seed ${SEED}: ${failures.length} failing requests`).toEqual([])
}, 600000)
