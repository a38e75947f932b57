/**
 * A sketch of what a response writer emitted at generate time could be for one operation, the
 * partial page of `/events/partial` (bench/schema.prisma): the contract's work for this operation
 * in straight-line code, with what the generator knows written in beforehand (the document's head,
 * the `hydra:search` block, the links' form, the headers). It checks the host and the page
 * parameter, negotiates, reads through the client within the time budget, writes the members and
 * the view, hashes the body into its `ETag`, answers `If-None-Match`, and sets the headers and
 * `Server-Timing` as the generated route does; it answers the bench's requests with the generated
 * route's bytes (bench/route-ablation.ts checks it). It covers only what those requests ask (no
 * filters, no access rules, no other types), so it prices the design, not a route to serve. Its
 * rows come through the Prisma client (`sketchedRoute`) or the floor's plain SQL on the driver
 * (`sketchedOnDriver`: what the compiled engine could cost with such a writer).
 */
import { createHash } from 'node:crypto'
import { type Context, Hono } from 'hono'
// Priced alone, as bench/route-work.ts does; no entry exports it.
import { isoText } from '../runtime/src/values/iso-text.js'
import type { FloorReads } from './peers-floor.js'

const PER_PAGE = 30
const LD = 'application/ld+json; charset=utf-8'
const HEAD =
  '{"@context":"/contexts/Event","@id":"/events/partial","@type":"hydra:Collection","hydra:member":'
const SEARCH = JSON.stringify({
  '@type': 'hydra:IriTemplate',
  'hydra:template': '/events/partial{?page}',
  'hydra:variableRepresentation': 'BasicRepresentation',
  'hydra:mapping': [
    {
      '@type': 'IriTemplateMapping',
      variable: 'page',
      property: 'hydra:pageIndex',
      required: false,
    },
  ],
})
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]'])
const select = { id: true, createdAt: true, payload: true } as const
const orderBy = [{ createdAt: 'desc' }, { id: 'desc' }] as const

type Row = { id: number; createdAt: Date; payload: string }
interface Events {
  event: { findMany(args: object): PromiseLike<Row[]> }
}
/** A page's rows and whether a next page exists. */
type PageRead = (page: number) => PromiseLike<[Row[], boolean]>

const withinBudget = <T>(work: PromiseLike<T>, budget: number): Promise<T> => {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('budget')), budget)
  })
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer))
}

const view = (page: number, hasNext: boolean) =>
  `{"@id":"/events/partial?page=${page}","@type":"hydra:PartialCollectionView"${page > 1 ? `,"hydra:previous":"/events/partial?page=${page - 1}"` : ''}${hasNext ? `,"hydra:next":"/events/partial?page=${page + 1}"` : ''}}`

async function partialPage(c: Context, read: PageRead) {
  const url = new URL(c.req.url)
  if (!LOOPBACK.has(url.hostname)) return c.text('host not allowed', 400)
  const accept = c.req.header('Accept')
  if (accept !== undefined && !/ld\+json|\*\/\*|application\/\*/.test(accept))
    return c.text('not acceptable', 406)
  const text = url.searchParams.get('page') ?? '1'
  if (!/^[1-9][0-9]{0,8}$/.test(text)) return c.text('page must be a positive integer', 400)
  const page = Number(text)
  const started = performance.now()
  const [rows, hasNext] = await withinBudget(read(page), 10_000)
  const db = performance.now() - started
  const members = rows.map((row) => ({
    '@id': `/events/${row.id}`,
    '@type': 'Event',
    id: row.id,
    createdAt: isoText(row.createdAt),
    payload: row.payload,
  }))
  const body = `${HEAD}${JSON.stringify(members)},"hydra:view":${view(page, hasNext)},"hydra:search":${SEARCH}}`
  const bytes = new TextEncoder().encode(body)
  const tag = `"${createHash('sha256').update(LD).update('\n').update(bytes).digest('base64url').slice(0, 27)}"`
  const link = `<${url.origin}/docs.jsonld>; rel="http://www.w3.org/ns/hydra/core#apiDocumentation"`
  const timing = `db;dur=${db.toFixed(2)}`
  if (c.req.header('If-None-Match') === tag)
    return c.body(null, 304, { ETag: tag, Link: link, Vary: 'Accept', 'Server-Timing': timing })
  return c.body(bytes, 200, {
    'Content-Type': LD,
    Link: link,
    Vary: 'Accept',
    ETag: tag,
    'Content-Length': String(bytes.byteLength),
    'Server-Timing': timing,
  })
}

/** The sketch's app over `prisma`. */
export function sketchedRoute(prisma: Events) {
  const read: PageRead = async (page) => {
    const rows = await prisma.event.findMany({
      select,
      orderBy,
      skip: (page - 1) * PER_PAGE,
      take: PER_PAGE + 1,
    })
    return [rows.slice(0, PER_PAGE), rows.length > PER_PAGE]
  }
  return new Hono().get('/events/partial', (c) => partialPage(c, read)).fetch
}

/** The sketch's app over the floor's reads (bench/peers-floor.ts). */
export function sketchedOnDriver(reads: FloorReads) {
  return new Hono().get('/events/partial', (c) => partialPage(c, (page) => reads.partial(page)))
    .fetch
}
