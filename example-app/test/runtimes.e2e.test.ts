/**
 * The example app on every runtime its docs name (docs/runtime-*.md), each started as the docs say,
 * answering the same requests as on Node byte for byte: every paging mode, items, sub-collections,
 * filters, custom collections, the documents and `/docs` with Swagger UI's files, and 400, 401 and
 * 404 problems; and on each, no answer saying more than it did: a `304` without `Content-Type`,
 * `Preference-Applied` only for a total counted as preferred, `Vary: Prefer` on every answer of an
 * operation that reads it. Bun and Deno read SQLite through libsql and PostgreSQL through pg; workerd (a
 * local D1 through wrangler, `sqlite` project only) serves its own copy of the same rows. Bun,
 * Deno and wrangler come from the example's devDependencies.
 */
import { writeFile } from 'node:fs/promises'
import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_JWT_SECRET, tokenFor } from '../src/auth.js'
import { emptyDatabase, TEST_DATABASE, type TestDatabase } from './support/harness.js'
import {
  failedStart,
  type RuntimeName,
  type RuntimeServer,
  startExample,
  startWorker,
} from './support/runtime-servers.js'

/** The same `Host` on every server, so that absolute links are the same bytes. */
const HOST = 'localhost:3000'

/**
 * Headers a server writes for itself, which differ between servers without meaning anything; and
 * the Worker cache's `X-Cache` (`MISS` or `BYPASS` here: each request is sent once).
 */
const TRANSPORT = new Set([
  'x-cache',
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
])

/** `Server-Timing` with its metrics' names only: their durations are measured each time. */
const measured = (name: string, value: string) =>
  name === 'server-timing' ? value.replace(/;dur=[\d.]+/g, '') : value

/**
 * Node's headers as the Worker writes them: Cloudflare compresses at its edge (and wrangler asks
 * every request for gzip), so the Worker leaves `hydraCompression` out and does not vary on
 * `Accept-Encoding` (docs/runtime-workers.md).
 */
function uncompressed(headers: Record<string, string>): Record<string, string> {
  const vary = headers.vary?.replace(/,? ?Accept-Encoding/, '')
  const { vary: _, ...rest } = headers
  return vary ? { ...rest, vary } : rest
}

interface Answer {
  status: number
  headers: Record<string, string>
  body: Buffer
}

/** One GET with the shared `Host` (a bearer token and `extra` headers when given), read whole. */
function get(
  origin: string,
  target: string,
  token?: string,
  extra: Record<string, string> = {}
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { Host: HOST, Accept: '*/*', ...extra }
    if (token) headers.Authorization = `Bearer ${token}`
    const sent = request(`${origin}${target}`, { headers, agent: false }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () => {
        const kept = Object.entries(response.headers)
          .filter(([name]) => !TRANSPORT.has(name))
          .map(([name, value]) => [name, measured(name, String(value))] as const)
          .sort(([a], [b]) => a.localeCompare(b))
        resolve({
          status: response.statusCode ?? 0,
          headers: Object.fromEntries(kept),
          body: Buffer.concat(chunks),
        })
      })
      response.on('error', reject)
    })
    sent.on('error', reject)
    sent.end()
  })
}

/** One POST of `body` as JSON to `target` with the shared `Host` and `extra` headers, read whole. */
function post(origin: string, target: string, body: unknown, extra: Record<string, string> = {}) {
  return new Promise<Answer>((resolve, reject) => {
    const payload = JSON.stringify(body)
    const headers: Record<string, string> = {
      Host: HOST,
      Accept: 'application/json, text/event-stream',
      'Content-Type': 'application/json',
      'Content-Length': String(Buffer.byteLength(payload)),
      ...extra,
    }
    const sent = request(
      `${origin}${target}`,
      { method: 'POST', headers, agent: false },
      (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('end', () => {
          const kept = Object.entries(response.headers)
            .filter(([name]) => !TRANSPORT.has(name))
            .sort(([a], [b]) => a.localeCompare(b))
          resolve({
            status: response.statusCode ?? 0,
            headers: Object.fromEntries(kept.map(([name, value]) => [name, String(value)])),
            body: Buffer.concat(chunks),
          })
        })
        response.on('error', reject)
      }
    )
    sent.on('error', reject)
    sent.end(payload)
  })
}

/** The envelope a 2026-07-28 request carries in its `_meta` (the MCP SDK's reserved keys). */
const REVISION_2026 = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'runtimes test', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
}

/**
 * MCP requests to `/mcp` (docs/mcp.md), each answered by a server of its own: of the 2025
 * revisions (no `initialize`: the endpoint is stateless) and of 2026-07-28, with its header and
 * envelope. Tool results carry the API's answers, with what `Server-Timing` measured left out.
 */
const MCP_CALLS: {
  name: string
  body: unknown
  librarian?: boolean
  headers?: Record<string, string>
}[] = [
  { name: 'tools/list', body: { jsonrpc: '2.0', id: 1, method: 'tools/list' } },
  {
    name: 'read_collection books',
    body: {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: {
        name: 'read_collection',
        arguments: { collection: 'book', order: { title: 'asc' } },
      },
    },
  },
  {
    name: 'read_collection loans, as a librarian',
    librarian: true,
    body: {
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'read_collection', arguments: { collection: '/loans' } },
    },
  },
  {
    name: 'resources/read of a book, in the 2026-07-28 revision',
    // The revision's headers, which must agree with the body.
    headers: {
      'MCP-Protocol-Version': '2026-07-28',
      'Mcp-Method': 'resources/read',
      'Mcp-Name': `http://${HOST}/books/1`,
    },
    body: {
      jsonrpc: '2.0',
      id: 4,
      method: 'resources/read',
      params: { uri: `http://${HOST}/books/1`, _meta: REVISION_2026 },
    },
  },
]

/** `answer` with what each run measures anew left out: `Server-Timing` durations in its body. */
const unmeasured = (answer: Answer): Answer => ({
  ...answer,
  body: Buffer.from(answer.body.toString().replace(/"dur":[\d.]+/g, '"dur":0')),
})

/** The requests compared, with the status Node must answer (checked first, so that a broken
 * Node cannot make every runtime pass). `librarian`: with a librarian's bearer token. */
const REQUESTS: { target: string; status: number; librarian?: boolean }[] = [
  // Documents and the documentation page with its files.
  { target: '/', status: 200 },
  { target: '/docs.jsonld', status: 200 },
  { target: '/contexts/Book', status: 200 },
  { target: '/openapi.json', status: 200 },
  { target: '/docs', status: 200 },
  { target: '/docs/swagger-ui.css', status: 200 },
  { target: '/docs/swagger-ui-bundle.js', status: 200 },
  // Full paging, the client's page size, partial paging, no paging (streamed), cursor paging.
  { target: '/books', status: 200 },
  { target: '/books?page=2', status: 200 },
  { target: '/books?itemsPerPage=25&page=2', status: 200 },
  { target: '/books?partial=true&page=3', status: 200 },
  { target: '/books?pagination=false', status: 200 },
  { target: '/loans?partial=true&page=3', status: 200, librarian: true },
  { target: '/activities', status: 200 },
  { target: '/activities?itemsPerPage=7', status: 200 },
  // Filters and order.
  { target: '/books?author.name=an&order[author.name]=asc', status: 200 },
  { target: '/books?genre=POETRY&order[price]=desc&page=2', status: 200 },
  { target: '/books?price[gt]=20&publishedAt[after]=2015-01-01&order[title]=asc', status: 200 },
  { target: '/books/recent?page=3', status: 200 },
  // Items and sub-collections; a custom data provider; custom collections.
  { target: '/books/1', status: 200 },
  { target: '/authors/3', status: 200 },
  { target: '/authors/3/books', status: 200 },
  { target: '/books/7/reviews?page=1', status: 200 },
  { target: '/books/popular', status: 200 },
  { target: '/genres', status: 200 },
  { target: '/releases', status: 200 },
  { target: '/releases?pagination=false', status: 200 },
  // Problems.
  { target: '/books?page=0', status: 400 },
  { target: '/books?itemsPerPage=abc', status: 400 },
  { target: '/books/abc', status: 404 },
  { target: '/books/9999', status: 404 },
  { target: '/nothing-here', status: 404 },
  { target: '/docs/index.html', status: 404 },
  { target: '/loans', status: 401 },
]

/** Every answer of `server`, by request. */
async function answers(server: RuntimeServer, token: string): Promise<Map<string, Answer>> {
  const result = new Map<string, Answer>()
  for (const { target, librarian } of REQUESTS) {
    result.set(target, await get(server.origin, target, librarian ? token : undefined))
  }
  for (const { name, body, librarian, headers } of MCP_CALLS) {
    const extra: Record<string, string> = { ...headers }
    if (librarian) extra.Authorization = `Bearer ${token}`
    result.set(`MCP ${name}`, unmeasured(await post(server.origin, '/mcp', body, extra)))
  }
  // Cursor paging: the next page as the first one links it.
  const first = JSON.parse(result.get('/activities')?.body.toString() ?? '{}')
  const next: string = first['hydra:view']?.['hydra:next']
  result.set('next of /activities', await get(server.origin, next))
  return result
}

/** The runtimes compared with Node on this project's database. */
const RUNTIMES: Exclude<RuntimeName, 'node'>[] =
  TEST_DATABASE === 'sqlite' ? ['bun', 'deno', 'workerd'] : ['bun', 'deno']

let database: TestDatabase
const servers = new Map<RuntimeName, RuntimeServer>()
let token: string
/** A reader's token: the loans it reads are its own (a row scope, src/auth.ts). */
let reader: string
let expected: Map<string, Answer>

beforeAll(async () => {
  database = await emptyDatabase()
  token = await tokenFor({ sub: 'Librarian', role: 'librarian' }, DEFAULT_JWT_SECRET)
  reader = await tokenFor({ sub: 'Reader 3', role: 'reader' }, DEFAULT_JWT_SECRET)
  // Node first: it creates and seeds the database, which Bun and Deno then serve as it is.
  const node = await startExample('node', database.url)
  servers.set('node', node)
  const others = await Promise.allSettled(
    RUNTIMES.map((runtime) =>
      runtime === 'workerd' ? startWorker() : startExample(runtime, database.url)
    )
  )
  for (const result of others) {
    if (result.status === 'fulfilled') servers.set(result.value.runtime, result.value)
  }
  const failed = others.find((result) => result.status === 'rejected')
  if (failed) throw failed.reason
  expected = await answers(node, token)
}, 240_000)

afterAll(async () => {
  await Promise.all([...servers.values()].map((server) => server.stop()))
  await database?.remove()
})

describe(`the example on every runtime (${TEST_DATABASE})`, () => {
  it('answers on Node with the statuses the requests call for', () => {
    for (const { target, status } of REQUESTS) {
      expect(expected.get(target)?.status, target).toBe(status)
    }
    expect(expected.get('next of /activities')?.status).toBe(200)
    for (const { name } of MCP_CALLS) {
      const answer = expected.get(`MCP ${name}`)
      expect(answer?.status, name).toBe(200)
      const message = JSON.parse(answer?.body.toString() ?? '{}')
      expect(message.error, name).toBeUndefined()
      expect(message.result?.isError, name).toBeUndefined()
    }
  })

  it.each(RUNTIMES)('answers on %s as on Node, byte for byte', async (runtime) => {
    const server = servers.get(runtime)
    if (!server) throw new Error(`${runtime} did not start`)
    const actual = await answers(server, token)
    for (const [target, answer] of expected) {
      const other = actual.get(target)
      expect({ target, status: other?.status, headers: other?.headers }).toEqual({
        target,
        status: answer.status,
        headers: runtime === 'workerd' ? uncompressed(answer.headers) : answer.headers,
      })
      expect(other?.body.equals(answer.body), `${runtime} ${target}: ${other?.body}`).toBe(true)
    }
  })
})

/** One HEAD (`curl -I`) with the shared `Host`: its status and `Link` header. */
function head(origin: string, target: string): Promise<{ status: number; link: string }> {
  return new Promise((resolve, reject) => {
    const options = { method: 'HEAD', headers: { Host: HOST, Accept: '*/*' }, agent: false }
    const sent = request(`${origin}${target}`, options, (response) => {
      response.resume()
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, link: String(response.headers.link) })
      )
      response.on('error', reject)
    })
    sent.on('error', reject)
    sent.end()
  })
}

/** The relation types of a `Link` header's page links, each with its target. */
const pageRels = (link: string) =>
  Object.fromEntries(
    [...link.matchAll(/<([^>]*)>; rel="(first|last|prev|next)"/g)].map(([, uri, rel]) => [rel, uri])
  )

describe(`the view links as Link headers on every runtime (${TEST_DATABASE})`, () => {
  it.each(['node', ...RUNTIMES] as const)(
    'curl -I of a page and a keyset page on %s',
    async (runtime) => {
      const server = servers.get(runtime)
      if (!server) throw new Error(`${runtime} did not start`)
      const page = await head(server.origin, '/books?page=2')
      expect(page.status).toBe(200)
      expect(pageRels(page.link)).toEqual({
        first: `http://${HOST}/books?page=1`,
        last: `http://${HOST}/books?page=12`,
        prev: `http://${HOST}/books?page=1`,
        next: `http://${HOST}/books?page=3`,
      })
      const feed = pageRels((await head(server.origin, '/activities')).link)
      expect(Object.keys(feed)).toEqual(['next'])
      const next = new URL(feed.next as string)
      const keyset = await head(server.origin, `${next.pathname}${next.search}`)
      expect(keyset.status).toBe(200)
      expect(Object.keys(pageRels(keyset.link)).sort()).toEqual(['next', 'prev'])
    }
  )
})

describe.runIf(TEST_DATABASE === 'sqlite')('a driver that cannot load', () => {
  it.each([
    ['bun', "'better-sqlite3' is not yet supported in Bun. Track the status in"],
    ['deno', 'which Deno does not support. Only Node-API (N-API) addons are supported.'],
  ] as const)("stops the start on %s with the runtime's whole reason", async (runtime, reason) => {
    const failure = await startExample(runtime, database.url, {
      SQLITE_DRIVER: 'better-sqlite3',
    }).then(
      async (server) => {
        await server.stop()
        throw new Error(`${runtime} started with better-sqlite3:\n${server.output()}`)
      },
      (error: Error) => error.message
    )
    const lines = failure.split('\n').slice(1).filter(Boolean)
    expect(lines, failure).toHaveLength(1)
    expect(lines[0]).toContain(`The database ${database.url} cannot be used: `)
    expect(lines[0]).toContain(reason)
    expect(failure).toContain('exited with 1')
  })
})

describe.runIf(TEST_DATABASE === 'sqlite')('a database that cannot be used', () => {
  it.each(['node', 'bun', 'deno'] as const)(
    'stops the start on %s with one line naming it, not an uncaught error',
    async (runtime) => {
      // A file that is no SQLite database: on Bun and Deno (libsql), the check's `SELECT 1`
      // passes and the schema push fails.
      const file = database.url.replace(/^file:/, '').replace(/test\.db$/, `${runtime}.db`)
      await writeFile(file, 'not a database '.repeat(512))
      const url = `file:${file}`
      const { code, stderr } = await failedStart(runtime, { DATABASE_URL: url })
      expect(code, stderr).toBe(1)
      const lines = stderr.split('\n').filter(Boolean)
      expect(lines, stderr).toHaveLength(1)
      expect(lines[0]).toMatch(new RegExp(`^The database ${url} cannot be used: .+`))
    }
  )

  it.each(['bun', 'deno'] as const)(
    'names the default database on %s when DATABASE_URL is unset',
    async (runtime) => {
      const { code, stderr } = await failedStart(runtime, {
        DATABASE_URL: undefined,
        SQLITE_DRIVER: 'better-sqlite3',
      })
      expect(code, stderr).toBe(1)
      const lines = stderr.split('\n').filter(Boolean)
      expect(lines, stderr).toHaveLength(1)
      expect(lines[0]).toMatch(/^The database file:\.\/dev\.db cannot be used: .+/)
    }
  )
})

/** The names of an answer's `Vary`, in lower case. */
const varied = (answer: Answer) =>
  (answer.headers.vary ?? '').split(',').map((name) => name.trim().toLowerCase())

describe(`answers that say no more than they did (${TEST_DATABASE})`, () => {
  it.each(['node', ...RUNTIMES] as const)(
    'on %s: a 304 without Content-Type, with the validator and Vary of its 200',
    async (runtime) => {
      const server = servers.get(runtime)
      if (!server) throw new Error(`${runtime} did not start`)
      for (const [target, who] of [
        ['/books?page=2', undefined],
        ['/docs.jsonld', undefined],
        ['/loans?page=1', reader],
      ] as const) {
        const page = await get(server.origin, target, who)
        expect([target, page.status]).toEqual([target, 200])
        const tag = page.headers.etag ?? ''
        const unchanged = await get(server.origin, target, who, { 'If-None-Match': tag })
        // RFC 9110 §15.4.5: a 304 sends no more than its 200 would; none of the others sends a type.
        expect({
          target,
          status: unchanged.status,
          type: unchanged.headers['content-type'],
        }).toEqual({ target, status: 304, type: undefined })
        expect(unchanged.headers.etag).toBe(tag)
        expect(unchanged.headers.vary).toBe(page.headers.vary)
        expect(unchanged.body.length).toBe(0)
      }
    }
  )

  it.each(['node', ...RUNTIMES] as const)(
    'on %s: Preference-Applied for a total counted as preferred, never for an estimate not used',
    async (runtime) => {
      const server = servers.get(runtime)
      if (!server) throw new Error(`${runtime} did not start`)
      const loans = (prefer: string) =>
        get(server.origin, '/loans?page=1', reader, { Prefer: prefer })
      // The reader's row scope counts every total exactly (an estimate is of the whole table).
      for (const prefer of ['count=planned', 'count=estimated']) {
        const answer = await loans(prefer)
        const body = JSON.parse(answer.body.toString())
        expect([prefer, answer.status, answer.headers['preference-applied']]).toEqual([
          prefer,
          200,
          undefined,
        ])
        expect(body.totalItemsAccuracy).toBeUndefined()
        expect(varied(answer)).toContain('prefer')
      }
      for (const prefer of ['count=exact', 'count=none']) {
        const answer = await loans(prefer)
        expect([prefer, answer.headers['preference-applied']]).toEqual([prefer, prefer])
      }
    }
  )

  it.each(['node', ...RUNTIMES] as const)(
    'on %s: Vary: Prefer on every answer of an operation that reads it, problems included',
    async (runtime) => {
      const server = servers.get(runtime)
      if (!server) throw new Error(`${runtime} did not start`)
      for (const [target, who, status] of [
        ['/loans?page=1', reader, 200],
        ['/loans?page=0', reader, 400],
        ['/loans?itemsPerPage=abc', reader, 400],
        ['/loans', undefined, 401],
        ['/books/9999/loans', reader, 404],
        ['/books/3/loans?page=0', reader, 400],
      ] as const) {
        const answer = await get(server.origin, target, who, { Prefer: 'count=none' })
        expect({
          target,
          status: answer.status,
          prefer: varied(answer).includes('prefer'),
        }).toEqual({ target, status, prefer: true })
      }
      // An operation that does not read it does not vary by it.
      const books = await get(server.origin, '/books?page=0', undefined, { Prefer: 'count=none' })
      expect([books.status, varied(books).includes('prefer')]).toEqual([400, false])
    }
  )
})
