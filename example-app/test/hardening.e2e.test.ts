/**
 * The answers the fuzz suite checks in bulk, one by one: values the database cannot store, ids not
 * written as the API writes them, repeated and oversized queries, other methods, the public
 * origin of absolute IRIs whatever `Host` a client sends, and the bounds of request targets and
 * response headers.
 */
import { createServer, request as httpRequest } from 'node:http'
import { connect } from 'node:net'
import { hydraClientError } from '@prisma-hydra/runtime/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PrismaClient } from '#generated/prisma/client.js'
import { createApp } from '../src/app.js'
import { prepareDatabase } from '../src/database.js'
import { createPrismaClient } from '../src/prisma.js'
import { emptyDatabase, startServer, type TestDatabase } from './support/harness.js'
import { sendRaw } from './support/raw-http.js'

let prisma: PrismaClient
let database: TestDatabase
const servers: Record<
  'plain' | 'based' | 'proxied' | 'allowed' | 'any',
  { origin: string; close: () => Promise<void> }
> = {} as never

beforeAll(async () => {
  database = await emptyDatabase()
  prisma = createPrismaClient(database.url)
  await prepareDatabase(prisma, database.url)
  servers.plain = await startServer(createApp(prisma, { cors: 'http://admin.example' }).fetch)
  servers.based = await startServer(createApp(prisma, { baseUrl: 'https://api.example.com' }).fetch)
  servers.proxied = await startServer(
    createApp(prisma, { trustProxy: true, allowedHosts: ['api.example.com', 'app.local'] }).fetch
  )
  servers.allowed = await startServer(
    createApp(prisma, { allowedHosts: ['api.example.com', '.example.org'] }).fetch
  )
  servers.any = await startServer(createApp(prisma, { allowedHosts: ['*'] }).fetch)
})

afterAll(async () => {
  for (const server of Object.values(servers)) await server?.close()
  await prisma?.$disconnect()
  await database?.remove()
})

interface Answer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

function send(
  origin: string,
  path: string,
  options: { method?: string; headers?: Record<string, string> } = {}
): Promise<Answer> {
  const url = new URL(origin)
  return new Promise((resolve, reject) => {
    httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path,
        method: options.method ?? 'GET',
        headers: options.headers,
      },
      (response) => {
        let body = ''
        response.setEncoding('utf8')
        response.on('data', (chunk: string) => {
          body += chunk
        })
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body })
        )
      }
    )
      .on('error', reject)
      .end()
  })
}

const detail = (answer: Answer) => (JSON.parse(answer.body) as { detail: string }).detail

describe('values the database cannot store', () => {
  it.each([
    '/books/2147483648',
    '/books/-2147483649',
    '/loans/9007199254740991',
    '/books/01',
    '/books/+1',
    '/books/1.0',
    // One spelling per key, whatever the column's collation (MariaDB's ignores case and trailing spaces).
    '/languages/EN',
    '/languages/En',
    '/languages/en%20',
  ])('%s is a 404 problem', async (path) => {
    const answer = await send(servers.plain.origin, path)
    expect(answer.status).toBe(404)
    expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/)
  })

  it('a NUL in a text id is a 404 on every database', async () => {
    for (const path of ['/languages/%00', '/languages/en%00'])
      expect((await send(servers.plain.origin, path)).status).toBe(404)
  })

  it('a NUL in a filter value is the same 400 on every database', async () => {
    for (const query of ['title=%00', 'title=a%00', 'author.name=%00', 'kind=%00']) {
      const path = `${query.startsWith('kind') ? '/activities' : '/books'}?${query}`
      const answer = await send(servers.plain.origin, path)
      expect(answer.status, path).toBe(400)
      expect(detail(answer), path).toMatch(/must be text without a NUL character/)
    }
  })

  it.each([
    ['occurredAt[lt]=0000-01-01T00:00:00Z&id[lt]=5', 'occurredAt[lt]'],
    ['occurredAt[lt]=0001-01-01T00:00:00%2B01:00&id[lt]=5', 'occurredAt[lt]'],
    ['occurredAt[lt]=%2B010000-01-01T00:00:00Z&id[lt]=5', 'occurredAt[lt]'],
    ['occurredAt[lt]=2024-01-01T00:00:00Z&id[lt]=2147483648', 'id[lt]'],
  ])('cursor %s is a 400 naming %s', async (query, parameter) => {
    const answer = await send(servers.plain.origin, `/activities?${query}`)
    expect(answer.status).toBe(400)
    expect(detail(answer)).toContain(`"${parameter}"`)
  })
})

describe('queries read one way', () => {
  it('a parameter given twice is a 400 like page[]', async () => {
    const answer = await send(servers.plain.origin, '/books?page=2&page=3')
    expect(answer.status).toBe(400)
    expect(detail(answer)).toBe('The "page" parameter must be given once, as a single value.')
  })

  it('more parameters than the parser reads is a 400, not a silent cut', async () => {
    const query = `${Array.from({ length: 1000 }, (_, i) => `a${i}=1`).join('&')}&page=0`
    const answer = await send(servers.plain.origin, `/books?${query}`)
    expect(answer.status).toBe(400)
    expect(detail(answer)).toContain('more than 1000 parameters')
  })

  it('a backslash in the path is a 400 problem', async () => {
    const answer = await send(servers.plain.origin, '/books/\\')
    expect(answer.status).toBe(400)
    expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/)
  })
})

describe('other methods', () => {
  it.each([
    '/books',
    '/books/1',
    '/books/recent',
    '/',
    '/docs.jsonld',
    '/contexts/Book',
    '/genres',
  ])(
    'POST, PUT, PATCH, DELETE %s: 405 problem with Allow; OPTIONS: 204 with Allow',
    async (path) => {
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
        const answer = await send(servers.based.origin, path, { method })
        expect(answer.status, `${method} ${path}`).toBe(405)
        expect(answer.headers.allow).toBe('GET, HEAD, OPTIONS')
        expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/)
      }
      // Without CORS (with it, its middleware answers every OPTIONS request).
      const options = await send(servers.based.origin, path, { method: 'OPTIONS' })
      expect(options.status).toBe(204)
      expect(options.headers.allow).toBe('GET, HEAD, OPTIONS')
    }
  )

  it('a CORS preflight is still answered by the CORS middleware', async () => {
    const answer = await send(servers.plain.origin, '/books', {
      method: 'OPTIONS',
      headers: { origin: 'http://admin.example', 'access-control-request-method': 'GET' },
    })
    expect(answer.status).toBe(204)
    expect(answer.headers['access-control-allow-origin']).toBe('http://admin.example')
  })

  it('a path the API does not serve is a 404 whatever the method', async () => {
    expect((await send(servers.plain.origin, '/nothing', { method: 'POST' })).status).toBe(404)
  })
})

describe('the public origin of absolute IRIs', () => {
  const link = (answer: Answer) => String(answer.headers.link)

  const problem = (answer: Answer) => {
    expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/)
    return detail(answer)
  }

  it("without configuration: this machine's hosts only; any other Host is a 400", async () => {
    const local = await send(servers.plain.origin, '/books', {
      headers: { host: 'localhost:8080' },
    })
    expect(local.status).toBe(200)
    expect(link(local)).toContain('<http://localhost:8080/docs.jsonld>')
    for (const host of ['evil.example', 'evil.example:80', '10.0.0.1', 'localhost.evil.example']) {
      for (const path of [
        '/books',
        '/books/1',
        '/contexts/Book',
        '/docs.jsonld',
        '/nothing',
        '/genres',
      ]) {
        const answer = await send(servers.plain.origin, path, { headers: { host } })
        expect(answer.status, `${host} ${path}`).toBe(400)
        expect(problem(answer)).toMatch(/allowedHosts/)
        expect(JSON.stringify(answer.headers) + answer.body).not.toContain(host)
      }
    }
  })

  it('a Host that is not host[:port] is a 400 whatever the configuration', async () => {
    for (const server of Object.values(servers)) {
      for (const host of ['a"b', 'a b', 'a/b', 'a@b', 'a:b', 'a:99999', '[zz]', 'x'.repeat(300)]) {
        const answer = await send(server.origin, '/books', { headers: { host } })
        expect(answer.status, host).toBe(400)
        // Node's adapter refuses some of them before the app (hydraRequestError answers).
        expect(problem(answer)).toMatch(/^The Host header must be a host name|cannot be read/)
        expect(JSON.stringify(answer.headers)).not.toContain(host)
      }
    }
  })

  it('with allowedHosts: those hosts, domains by a leading dot; others are a 400', async () => {
    for (const host of [
      'api.example.com',
      'API.example.com',
      'api.example.com:8443',
      'a.b.example.org',
    ]) {
      const answer = await send(servers.allowed.origin, '/books', { headers: { host } })
      expect(answer.status, host).toBe(200)
      expect(link(answer)).toContain(`<http://${host.toLowerCase()}/docs.jsonld>`)
    }
    for (const host of ['localhost', 'example.com', 'evil-example.org', 'api.example.com.evil']) {
      const answer = await send(servers.allowed.origin, '/books', { headers: { host } })
      expect(answer.status, host).toBe(400)
    }
  })

  it('with baseUrl: no Host a client sends changes any link', async () => {
    for (const host of ['evil.example', 'a:1', '[::1]:8080']) {
      const books = await send(servers.based.origin, '/books', {
        headers: { host, 'x-forwarded-host': 'evil.example' },
      })
      expect(link(books)).toContain('<https://api.example.com/docs.jsonld>')
      const docs = await send(servers.based.origin, '/docs.jsonld', { headers: { host } })
      expect(docs.body).not.toContain(host)
      expect(docs.body).toContain('https://api.example.com/')
      const context = await send(servers.based.origin, '/contexts/Book', { headers: { host } })
      expect(context.body).toContain('https://api.example.com/docs.jsonld#')
    }
  })

  it('with trustProxy: X-Forwarded-Proto and X-Forwarded-Host', async () => {
    const answer = await send(servers.proxied.origin, '/books', {
      headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'api.example.com, proxy.local' },
    })
    expect(link(answer)).toContain('<https://api.example.com/docs.jsonld>')
    const malformed = await send(servers.proxied.origin, '/books', {
      headers: { host: 'app.local', 'x-forwarded-host': 'bad host/x' },
    })
    expect(link(malformed)).toContain('<http://app.local/docs.jsonld>')
    // Links written from the forwarding headers: every answer varies by them, its 304 and
    // problems included, so that no shared cache hands one client's origin to another.
    const etag = String(answer.headers.etag)
    const revalidated = await send(servers.proxied.origin, '/books', {
      headers: { host: 'app.local', 'if-none-match': etag, 'x-forwarded-proto': 'https' },
    })
    const missing = await send(servers.proxied.origin, '/books/999999', {
      headers: { host: 'app.local' },
    })
    expect([revalidated.status, missing.status]).toEqual([304, 404])
    for (const varying of [answer, malformed, revalidated, missing])
      expect(String(varying.headers.vary)).toMatch(
        /^Accept\b.*, X-Forwarded-Host, X-Forwarded-Proto$/
      )
    // The forwarded host must be allowed too.
    const forged = await send(servers.proxied.origin, '/books', {
      headers: { host: 'app.local', 'x-forwarded-host': 'evil.example' },
    })
    expect(forged.status).toBe(400)
    expect(JSON.stringify(forged.headers) + forged.body).not.toContain('evil.example')
  })

  it('without trustProxy, X-Forwarded-* reach no link', async () => {
    for (const server of [servers.plain, servers.any]) {
      const answer = await send(server.origin, '/books', {
        headers: { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' },
      })
      expect(answer.status).toBe(200)
      expect(link(answer)).toContain(`<${server.origin}/docs.jsonld>`)
      expect(JSON.stringify(answer.headers) + answer.body).not.toContain('evil.example')
      expect(String(answer.headers.vary)).not.toContain('X-Forwarded')
    }
  })

  it('a baseUrl with a path fails at start-up', () => {
    expect(() => createApp(prisma, { baseUrl: 'https://api.example.com/v1' })).toThrow(/origin/)
  })
})

describe('bounded request targets and response headers', () => {
  /** The bound docs/deployment.md gives every response header the API writes. */
  const HEADER_BOUND = 4096
  const TARGET = 8192

  /** A target of exactly `length` characters: `prefix` filled up with `fill`. */
  const target = (prefix: string, fill: string, length: number) =>
    prefix + fill.repeat(Math.floor((length - prefix.length) / fill.length))

  it('a 414 carries nothing of a Host not yet checked', async () => {
    const answer = await send(servers.plain.origin, target('/books?title=', 'a', TARGET + 1), {
      headers: { host: 'evil.example' },
    })
    expect(answer.status).toBe(414)
    expect(JSON.stringify(answer.headers) + answer.body).not.toContain('evil.example')
  })

  it('a request target over 8 KB is a 414 problem', async () => {
    for (const path of [
      target('/books?title=', 'a', TARGET + 1),
      target('/books/', '1', TARGET + 10),
      target('/nothing?', 'x', TARGET + 1),
    ]) {
      const answer = await send(servers.plain.origin, path)
      expect(answer.status, path.slice(0, 30)).toBe(414)
      expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/)
      expect(detail(answer)).toContain('reads at most 8192')
    }
  })

  it('no response header grows past its bound, whatever the request', async () => {
    const worst = [
      // Spaces written as `+`: each one is three characters once re-encoded.
      target('/reviews?title=', '+', TARGET),
      target('/reviews?zzz=', '+', TARGET),
      target('/books?order%5Btitle%5D=asc&', 'a%5B%5D=%20&', TARGET),
      target('/activities?', '%C3%A9', TARGET),
      target('/books/', '9', TARGET),
      target('/loans?pagination=false&x=', '+', TARGET),
      target('/genres?', '+', TARGET),
    ]
    const longest = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}:65535`
    for (const path of worst) {
      for (const [server, host] of [
        [servers.plain, undefined],
        [servers.any, longest],
      ] as const) {
        const answer = await send(server.origin, path, host ? { headers: { host } } : {})
        expect(answer.status, path.slice(0, 40)).toBeLessThan(500)
        for (const [name, value] of Object.entries(answer.headers)) {
          const length = String(value).length
          expect(length, `${name} of ${path.slice(0, 40)}`).toBeLessThanOrEqual(HEADER_BOUND)
        }
      }
      // Node's own fetch reads the answer (it refuses a response head over 16 KB).
      const fetched = await fetch(`${servers.plain.origin}${path}`)
      expect(fetched.status).toBeLessThan(500)
      await fetched.arrayBuffer()
    }
  })
})

describe("requests Node's HTTP parser refuses, answered as problems", () => {
  const head = (line: string, headers = 'Host: 127.0.0.1\r\n') => `${line}\r\n${headers}\r\n`
  it.each([
    ['raw UTF-8 in the query', head('GET /books?title=zo\u00eb HTTP/1.1'), 400, /percent-encode/],
    ['raw UTF-8 in the path', head('GET /languages/\u00e9 HTTP/1.1'), 400, /percent-encode/],
    ['a malformed request line', head('GARBAGE'), 400, /not well-formed HTTP/],
    [
      'a request line without its version',
      head('GET /books HTTP/1.1 extra'),
      400,
      /not well-formed/,
    ],
    ['a malformed header', head('GET /books HTTP/1.1', 'Bad Header\r\n'), 400, /not well-formed/],
    [
      'a head over 16 KB',
      head('GET /books HTTP/1.1', `Host: 127.0.0.1\r\nX-Big: ${'a'.repeat(17000)}\r\n`),
      431,
      /request head .* larger than the 16384 bytes/,
    ],
    [
      'a request line over 16 KB',
      head(`GET /books?${'a'.repeat(17000)} HTTP/1.1`),
      414,
      /request line is longer/,
    ],
  ])('%s', async (_, request, status, pattern) => {
    const answer = await sendRaw(servers.plain.origin, Buffer.from(request, 'utf8'))
    expect(answer.status).toBe(status)
    expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/)
    const problem = JSON.parse(answer.body) as { status: number; detail: string }
    expect(problem.status).toBe(status)
    expect(problem.detail).toMatch(pattern)
  })
})

describe('a request that does not arrive in time', () => {
  it('is a 408 problem once the server stops waiting for its head', async () => {
    const server = createServer(
      { headersTimeout: 300, requestTimeout: 300, connectionsCheckingInterval: 50 },
      () => {}
    )
    server.on('clientError', hydraClientError)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as { port: number }
    try {
      const answer = await new Promise<string>((resolve, reject) => {
        // Half a head, and nothing more.
        const socket = connect(port, '127.0.0.1', () =>
          socket.write('GET /books HTTP/1.1\r\nHost: 127.0.0.1\r\n')
        )
        let text = ''
        socket.on('data', (chunk: Buffer) => {
          text += chunk.toString()
        })
        socket.on('close', () => resolve(text))
        socket.on('error', reject)
      })
      expect(answer).toMatch(/^HTTP\/1\.1 408 /)
      expect(answer).toContain('application/problem+json')
      expect(answer).toContain('"status":408')
    } finally {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
  })
})
