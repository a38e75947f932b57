/**
 * Errors of the application's own middleware, answered by `app.onError(hydraErrorHandler)`
 * (docs/errors.md): hono/jwt's 401 for a rejected token, thrown before the API's routes run, is a
 * problem that keeps its `WWW-Authenticate` (RFC 9110 §11.6.1), written under the mount path of
 * the API it was sent to (`new Hono().route('/api', createHydraApp(...))`), with links whose host
 * passed the API's host check.
 */
import { get } from 'node:http'
import { HydraError, hydraErrorHandler, hydraNotFound } from '@prisma-hydra/runtime'
import { type Context, Hono, type Next } from 'hono'
import { basicAuth } from 'hono/basic-auth'
import { bearerAuth } from 'hono/bearer-auth'
import { HTTPException } from 'hono/http-exception'
import { jwt } from 'hono/jwt'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHydraApp } from '#generated/hydra/index.js'
import type { PrismaClient } from '#generated/prisma/client.js'
import { createApp } from '../src/app.js'
import { libraryAccess, tokenFor } from '../src/auth.js'
import { prepareDatabase } from '../src/database.js'
import { createPrismaClient } from '../src/prisma.js'
import { emptyDatabase, startServer, type TestDatabase } from './support/harness.js'
import { sendRaw } from './support/raw-http.js'

const SECRET = 'app-errors test secret'
type Body = Record<string, unknown>
const CHALLENGE = /^Bearer realm="[^"]*",error="invalid_token"/
/** hono/jwt's realm is the request's URL unless given: a fixed one keeps the host out of it. */
const REALM = 'library'
/** A text an exception's response carries, longer than the detail of its problem keeps. */
const LONG_TEXT = ` slow down ${'and wait '.repeat(500)}`
/** The token hono/bearer-auth takes. */
const BEARER = 'right-token'

let prisma: PrismaClient
let database: TestDatabase
const servers: Record<
  'mounted' | 'root' | 'guarded',
  { origin: string; close: () => Promise<void> }
> = {} as never

/** Verifies a bearer token when one is sent, as docs/security.md's setup does. */
const verify = jwt({ secret: SECRET, alg: 'HS256', realm: REALM })
const authenticate = (c: Context, next: Next) =>
  c.req.header('Authorization') === undefined ? next() : verify(c, next)

beforeAll(async () => {
  database = await emptyDatabase()
  prisma = createPrismaClient(database.url)
  await prepareDatabase(prisma, database.url)
  // The setup the docs teach: the API under /api, the token checked by the app's middleware.
  const app = new Hono()
  app.use('/api/*', authenticate)
  // Routes of the app's own beside the API, throwing an error of each status they are asked.
  app.get('/api/refusals/:status', (c) => {
    throw new HydraError(Number(c.req.param('status')) as never, 'Refused by the route.')
  })
  app.get('/api/exceptions/:status', (c) => {
    throw new HTTPException(Number(c.req.param('status')) as never)
  })
  app.route('/api', createHydraApp({ prisma, access: libraryAccess }))
  app.onError(hydraErrorHandler)
  app.notFound(hydraNotFound)
  // The server's own problems (what Node's parser refuses) point under the API's mount too.
  servers.mounted = await startServer(app.fetch, { base: '/api' })
  servers.root = await startServer(createApp(prisma, { auth: { secret: SECRET } }).fetch)
  // Hono's bearer-auth and basic-auth throw a response of their own: a challenge and a message.
  const guarded = new Hono()
  guarded.use('/api/loans', bearerAuth({ token: BEARER, realm: 'loans' }))
  guarded.use(
    '/api/authors',
    basicAuth({ username: 'ada', password: 'lovelace', realm: 'authors' })
  )
  // An exception without a message, and one whose text is longer than a detail.
  guarded.use('/api/reviews', () => {
    throw new HTTPException(403)
  })
  guarded.use('/api/languages', () => {
    const res = new Response(LONG_TEXT, { status: 429, headers: { 'Retry-After': '1' } })
    throw new HTTPException(429, { res })
  })
  guarded.route('/api', createHydraApp({ prisma }))
  guarded.onError(hydraErrorHandler)
  servers.guarded = await startServer(guarded.fetch)
})

afterAll(async () => {
  for (const server of Object.values(servers)) await server?.close()
  await prisma?.$disconnect()
  await database?.remove()
})

describe('a rejected token', () => {
  it('is a 401 problem with its challenge, under the mount path, whose IRIs resolve', async () => {
    const { origin } = servers.mounted
    const forged = await tokenFor({ sub: 'Reader 1', role: 'librarian' }, 'another secret')
    for (const authorization of [`Bearer ${forged}`, 'Bearer not-a-token', 'Basic abc']) {
      for (const path of ['/api/loans', '/api/books', '/api/books/1', '/api/nothing']) {
        const response = await fetch(`${origin}${path}`, {
          headers: { Authorization: authorization },
        })
        expect(response.status, `${authorization} ${path}`).toBe(401)
        expect(response.headers.get('Content-Type')).toMatch(/^application\/problem\+json/)
        const challenge = response.headers.get('WWW-Authenticate')
        expect(challenge, authorization).toMatch(/^Bearer realm="[^"]*",error="invalid_/)
        const body = (await response.json()) as Record<string, unknown>
        expect(body).toMatchObject({
          '@context': '/api/contexts/Error',
          '@id': '/api/errors/401',
          type: '/api/errors/401',
          status: 401,
        })
        const link = response.headers.get('Link') ?? ''
        expect(link).toContain(`<${origin}/api/docs.jsonld>`)
        expect(link).toContain(`<${origin}/api/contexts/Error>`)
        for (const iri of [body['@context'], body['@id']]) {
          expect((await fetch(`${origin}${iri}`)).status, String(iri)).toBe(200)
        }
      }
    }
  })

  it('keeps its challenge at the root too, and a valid token still reads', async () => {
    const { origin } = servers.root
    const refused = await fetch(`${origin}/loans`, {
      headers: { Authorization: 'Bearer not-a-token' },
    })
    expect(refused.status).toBe(401)
    expect(refused.headers.get('WWW-Authenticate')).toMatch(CHALLENGE)
    expect(await refused.json()).toMatchObject({ '@context': '/contexts/Error', status: 401 })
    const token = await tokenFor({ sub: 'Reader 1', role: 'reader' }, SECRET)
    const read = await fetch(`${servers.mounted.origin}/api/loans`, {
      headers: { Authorization: `Bearer ${token}` },
    })
    expect(read.status).toBe(200)
  })

  it('writes nothing of a host the API does not answer for', async () => {
    const { origin } = servers.mounted
    for (const [target, host] of [
      ['/api/loans', 'evil.example'],
      ['http://evil.example/api/loans', new URL(origin).host],
    ]) {
      const answer = await sendRaw(
        origin,
        `GET ${target} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer x\r\nConnection: close\r\n\r\n`
      )
      expect(answer.status, target).toBe(401)
      expect(answer.headers['www-authenticate']).toMatch(/^Bearer realm="library",error="invalid_/)
      expect(JSON.stringify(answer.headers) + answer.body, target).not.toContain('evil')
      // The host was refused: the links are relative.
      expect(answer.headers.link).toContain('</api/docs.jsonld>')
      expect(answer.headers.link).toContain('</api/contexts/Error>')
    }
  })
})

describe("hono/bearer-auth's and hono/basic-auth's refusals", () => {
  it('are problems with their challenge, their message as the detail', async () => {
    const { origin } = servers.guarded
    const cases = [
      ['/api/loans', undefined, 401, 'Bearer realm="loans"', 'Unauthorized'],
      ['/api/loans', 'Bearer wrong-token', 401, 'Bearer error="invalid_token"', 'Unauthorized'],
      ['/api/loans', 'Bearer not a token', 400, 'Bearer error="invalid_request"', 'Bad Request'],
      ['/api/authors', undefined, 401, 'Basic realm="authors"', 'Unauthorized'],
      [
        '/api/authors',
        `Basic ${btoa('ada:babbage')}`,
        401,
        'Basic realm="authors"',
        'Unauthorized',
      ],
    ] as const
    for (const [path, authorization, status, challenge, detail] of cases) {
      const response = await fetch(`${origin}${path}`, {
        headers: authorization ? { Authorization: authorization } : {},
      })
      expect(response.status, `${authorization} ${path}`).toBe(status)
      expect(response.headers.get('Content-Type')).toMatch(/^application\/problem\+json/)
      expect(response.headers.get('WWW-Authenticate'), path).toBe(challenge)
      expect(await response.json()).toMatchObject({
        '@id': `/api/errors/${status}`,
        status,
        detail,
        'hydra:description': detail,
      })
    }
    // Without a message, the status's title; a long text, its first kilobyte.
    const forbidden = await fetch(`${origin}/api/reviews`)
    expect([forbidden.status, ((await forbidden.json()) as Body).detail]).toEqual([
      403,
      'Forbidden',
    ])
    const slow = await fetch(`${origin}/api/languages`)
    expect([slow.status, slow.headers.get('Retry-After')]).toEqual([429, '1'])
    expect(((await slow.json()) as Body).detail).toBe(LONG_TEXT.slice(0, 1024).trim())
    for (const [path, authorization] of [
      ['/api/loans', `Bearer ${BEARER}`],
      ['/api/authors', `Basic ${btoa('ada:lovelace')}`],
    ] as const) {
      const read = await fetch(`${origin}${path}`, { headers: { Authorization: authorization } })
      expect(read.status, path).toBe(200)
      await read.arrayBuffer()
    }
  })
})

/**
 * `GET url` through node:http, which hands over every status as it is (fetch fails on a 407, which
 * it reads as its proxy's).
 */
function getWithNode(url: string): Promise<{ status: number; contentType: string; body: string }> {
  return new Promise((resolve, reject) => {
    get(url, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          contentType: response.headers['content-type'] ?? '',
          body: Buffer.concat(chunks).toString('utf8'),
        })
      )
      response.on('error', reject)
    }).on('error', reject)
  })
}

describe("errors of the app's own routes", () => {
  it('name a kind of error whose document resolves, titled as the problem, for every status', async () => {
    const { origin } = servers.mounted
    const documents = new Map<string, Body>()
    const resolve = async (iri: string) => {
      if (!documents.has(iri)) {
        const response = await fetch(`${origin}${iri}`)
        expect(response.status, iri).toBe(200)
        documents.set(iri, (await response.json()) as Body)
      }
      return documents.get(iri) as Body
    }
    const titles = new Map<number, unknown>()
    for (let status = 400; status <= 599; status++) {
      for (const route of ['refusals', 'exceptions']) {
        const response = await getWithNode(`${origin}/api/${route}/${status}`)
        expect(response.status, `${route} ${status}`).toBe(status)
        expect(response.contentType).toMatch(/^application\/problem\+json/)
        const body = JSON.parse(response.body) as Body
        expect(body, `${route} ${status}`).toMatchObject({
          '@context': '/api/contexts/Error',
          '@id': `/api/errors/${status}`,
          type: `/api/errors/${status}`,
          status,
        })
        await resolve(String(body['@context']))
        for (const iri of [body['@id'], body.type])
          expect(await resolve(String(iri)), String(iri)).toMatchObject({
            '@id': `/api/errors/${status}`,
            title: body.title,
            'hydra:title': body.title,
            status,
          })
        titles.set(status, body.title)
      }
    }
    expect(
      Object.fromEntries([400, 403, 422, 429, 451, 520].map((s) => [s, titles.get(s)]))
    ).toEqual({
      400: 'An error occurred',
      403: 'Forbidden',
      422: 'Unprocessable Content',
      429: 'Too Many Requests',
      451: 'Unavailable For Legal Reasons',
      520: 'An error occurred',
    })
    for (const status of ['399', '600', '4000', '42'])
      expect((await fetch(`${origin}/api/errors/${status}`)).status, status).toBe(404)
  })
})

describe('requests the server refuses before the app sees them', () => {
  it("are problems whose IRIs carry the API's mount path and resolve", async () => {
    const { origin } = servers.mounted
    const host = `Host: ${new URL(origin).host}\r\n`
    const cases = [
      ['raw UTF-8 in the target', `GET /api/books?title=zo\u00eb HTTP/1.1\r\n${host}`, 400],
      ['a malformed header', `GET /api/books HTTP/1.1\r\n${host}Bad Header\r\n`, 400],
      ['no Host', 'GET /api/books HTTP/1.1\r\n', 400],
      ['a backslash in the path', `GET /api\\books HTTP/1.1\r\n${host}`, 400],
      [
        'a head over 16 KB',
        `GET /api/books HTTP/1.1\r\n${host}X-Big: ${'a'.repeat(17000)}\r\n`,
        431,
      ],
    ] as const
    for (const [name, head, status] of cases) {
      const answer = await sendRaw(origin, Buffer.from(`${head}Connection: close\r\n\r\n`, 'utf8'))
      expect(answer.status, name).toBe(status)
      expect(answer.headers['content-type'], name).toMatch(/^application\/problem\+json/)
      const body = JSON.parse(answer.body) as Body
      expect(body, name).toMatchObject({
        '@context': '/api/contexts/Error',
        '@id': `/api/errors/${status}`,
        type: `/api/errors/${status}`,
        status,
      })
      for (const iri of [body['@context'], body['@id'], body.type])
        expect((await fetch(`${origin}${iri}`)).status, `${name}: ${iri}`).toBe(200)
    }
  })
})
