/**
 * The host a request names, sent as raw bytes (docs/deployment.md#hosts): a request target in
 * absolute form (`GET http://evil.example/books HTTP/1.1`) names its host by its authority, which
 * RFC 9112 §3.2.2 makes the request's whatever `Host` says, so that host is the one checked and
 * the one links are written from; an HTTP/1.1 request naming no host at all is a 400 problem (with
 * the server `createHydraServer` makes, as the harness's), not Node's bodiless 400, and an
 * HTTP/1.0 one, as load balancers' health checks send them, names the address it came to.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PrismaClient } from '#generated/prisma/client.js'
import { createApp } from '../src/app.js'
import { prepareDatabase } from '../src/database.js'
import { createPrismaClient } from '../src/prisma.js'
import { emptyDatabase, startServer, type TestDatabase } from './support/harness.js'
import { type RawAnswer, sendRaw } from './support/raw-http.js'

let prisma: PrismaClient
let database: TestDatabase
let origin: string
let port: string
let close: () => Promise<void>

beforeAll(async () => {
  database = await emptyDatabase()
  prisma = createPrismaClient(database.url)
  await prepareDatabase(prisma, database.url)
  ;({ origin, close } = await startServer(createApp(prisma).fetch))
  port = new URL(origin).port
})

afterAll(async () => {
  await close?.()
  await prisma?.$disconnect()
  await database?.remove()
})

/** A GET whose request line holds `target` as it is, with `headers` (a `Host` among them or not). */
const raw = (target: string, headers: string) =>
  sendRaw(origin, `GET ${target} HTTP/1.1\r\n${headers}Connection: close\r\n\r\n`)

/** Every path where the host could reach an answer: links, `@vocab`, documents, errors. */
const PATHS = [
  '/',
  '/contexts/Book',
  '/books',
  '/books?page=2',
  '/books/1',
  '/docs.jsonld',
  '/openapi.json',
  '/books?page=0',
  '/nothing',
]

const everything = (answer: RawAnswer) => JSON.stringify(answer.headers) + answer.body

describe('a request target in absolute form', () => {
  it('names the request’s host: a host not allowed is a 400 that repeats nothing of it', async () => {
    for (const path of PATHS) {
      const answer = await raw(`http://evil.example${path}`, `Host: 127.0.0.1:${port}\r\n`)
      expect(answer.status, path).toBe(400)
      expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/)
      expect(JSON.parse(answer.body).detail).toMatch(/allowedHosts/)
      expect(everything(answer), path).not.toContain('evil')
    }
  })

  it('names the request’s host: an allowed one is served, whatever Host says', async () => {
    const docs = `http://localhost:${port}/docs.jsonld`
    for (const path of PATHS.slice(0, 7)) {
      const answer = await raw(`http://localhost:${port}${path}`, 'Host: evil.example\r\n')
      expect(answer.status, path).toBe(200)
      // The OpenAPI document links the documentation in its body (externalDocs), the rest in Link.
      expect(path === '/openapi.json' ? answer.body : answer.headers.link, path).toContain(docs)
      expect(everything(answer), path).not.toContain('evil')
    }
    const context = await raw(`http://localhost:${port}/contexts/Book`, 'Host: evil.example\r\n')
    expect(JSON.parse(context.body)['@context']['@vocab']).toBe(
      `http://localhost:${port}/docs.jsonld#`
    )
  })

  it('still needs a well-formed Host, and an authority that is host[:port]', async () => {
    const malformed = await raw(`http://localhost:${port}/books`, 'Host: a"b\r\n')
    expect([malformed.status, JSON.parse(malformed.body).detail]).toEqual([
      400,
      'The Host header must be a host name or address, with an optional port.',
    ])
    const credentials = await raw(`http://user@localhost:${port}/books`, `Host: localhost\r\n`)
    expect([credentials.status, JSON.parse(credentials.body).detail]).toEqual([
      400,
      'The host of the request target must be a host name or address, with an optional port.',
    ])
    expect(everything(credentials)).not.toContain('user')
  })
})

describe('a request without Host', () => {
  const missing = 'The request names no host: send a Host header.'

  it.each([
    ['HTTP/1.1, target in origin form', 'GET /books HTTP/1.1\r\n\r\n'],
    ['HTTP/1.1, target in absolute form', `GET http://localhost:PORT/books HTTP/1.1\r\n\r\n`],
    ['HTTP/1.1 with other headers', 'GET /books HTTP/1.1\r\nAccept: application/ld+json\r\n\r\n'],
  ])('%s is a 400 problem', async (_, request) => {
    const answer = await sendRaw(origin, request.replace('PORT', port))
    expect(answer.status).toBe(400)
    expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/)
    expect(JSON.parse(answer.body)).toMatchObject({ status: 400, detail: missing })
  })

  it('answers HEAD without a body', async () => {
    const answer = await sendRaw(origin, 'HEAD /books HTTP/1.1\r\n\r\n')
    expect(answer.status).toBe(400)
    expect(Number(answer.headers['content-length'])).toBeGreaterThan(0)
    expect(answer.body).toBe('')
  })

  it('is served in HTTP/1.0 as the address it came to: readiness, and the API', async () => {
    const ready = await sendRaw(origin, 'GET /ready HTTP/1.0\r\n\r\n')
    expect([ready.status, ready.body]).toEqual([200, '{"status":"ready"}'])
    const books = await sendRaw(origin, 'GET /books HTTP/1.0\r\n\r\n')
    expect(books.status).toBe(200)
    expect(books.headers.link).toContain(`<http://127.0.0.1:${port}/docs.jsonld>`)
    expect(JSON.parse(books.body)['@id']).toBe('/books')
  })

  it('is served in HTTP/1.0 when the target is absolute, its host allowed', async () => {
    const answer = await sendRaw(origin, `GET http://localhost:${port}/books HTTP/1.0\r\n\r\n`)
    expect(answer.status).toBe(200)
    expect(answer.headers.link).toContain(`<http://localhost:${port}/docs.jsonld>`)
  })
})
