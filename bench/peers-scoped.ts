/**
 * The scoped pages of bench/peers.ts: the pages a shop's screens ask for, on the catalogue of
 * bench/setup-catalogue.ts, under a row scope. The generated app is mounted at `/scoped` with
 * the access rule `Product: { scope: () => ({ listed: true }) }` (docs/security.md): every caller
 * sees the listed products only, six in seven. Two requests:
 *
 *   GET /scoped/products?seller.country.code=C3&properties[]=name&…&properties[]=category&page=2
 *   GET /scoped/sellers/3/products?properties[]=name&…&properties[]=category
 *
 * - the scoped page: the scope, a filter through two relations (product → seller → country), four
 *   of the product's fields selected with `properties[]` and two to-one relations embedded (its
 *   seller and its category), full paging (page and count);
 * - the scoped sub-collection: a seller's products under the same scope, the first page, its
 *   fields and its category;
 * - the ruled page (`/ruled/products?…`): the scoped page under a rule that shows a product's
 *   price on the products in stock only (`shownWhere: () => ({ price: { stock: { gte: 10 } } })`,
 *   docs/security.md#fields-shown-on-some-rows); the hand-written route reads the scoped page and
 *   drops the price of the others in memory.
 *
 * The hand-written routes answer the same paths with the same data as plain JSON, the way Prisma's
 * documentation writes them: one `findMany` with a `select` nesting the relations and `count()`,
 * in one `$transaction([...])`, the scope written into the `where` by hand; the sub-collection
 * reads its seller in the same transaction and answers 404 without one, as the generated route
 * does. Answers are compared as data (`checkScoped`): the same products, fields, relations and
 * total, and the total the catalogue's formulas give for the table, so that a scope left out on
 * every side fails too.
 */
import { gzipSync } from 'node:zlib'
import type { Context, Hono } from 'hono'
import type { BodySize, CatalogueClient } from './peers-shaped.js'
import { countryOf, isListed, sellerOf } from './setup-catalogue.js'
import { refusedCheck } from './unanswered.js'

const PER_PAGE = 30
const COUNTRY = 3
const SELLER = 3
/** The fields both pages show, besides their relations. */
const FIELDS = ['name', 'price', 'stock', 'createdAt'] as const
const ORDER = [{ createdAt: 'desc' }, { id: 'desc' }] as const
const LIMITS = { maxWait: 10_000, timeout: 20_000 }

/** A page's shape: its fields and its embedded to-one relations (their `id` and `name`). */
interface Card {
  embeds: readonly string[]
  /** Whether a product shows its price (a rule shows it on some products only); undefined: all. */
  pricedAt?: ((stock: number) => boolean) | undefined
  /** Rows of the table of `rows` products this page is a window of, by the catalogue's formulas. */
  total: (rows: number) => number
}
const listedWhere = (rows: number, keep: (id: number) => boolean) => {
  let total = 0
  for (let id = 1; id <= rows; id++) if (isListed(id) && keep(id)) total += 1
  return total
}
const PAGE: Card = {
  embeds: ['seller', 'category'],
  total: (rows) => listedWhere(rows, (id) => countryOf(sellerOf(id)) === COUNTRY),
}
const RULED: Card = { ...PAGE, pricedAt: (stock) => stock >= IN_STOCK }
const CHILDREN: Card = {
  embeds: ['category'],
  total: (rows) => listedWhere(rows, (id) => sellerOf(id) === SELLER),
}
const properties = (card: Card) =>
  [...FIELDS, ...card.embeds].map((name) => `properties[]=${name}`).join('&')

/**
 * The stock from which the ruled page shows a product's price (`shownWhere: { price: { stock: {
 * gte: IN_STOCK } } }`): four products in five.
 */
export const IN_STOCK = 10

/** The scoped page, on every table size. */
export const SCOPED_PAGE_PATH = `/scoped/products?seller.country.code=C${COUNTRY}&${properties(PAGE)}&page=2`
/** The scoped page under a rule that shows the price of products in stock only. */
export const RULED_PAGE_PATH = SCOPED_PAGE_PATH.replace('/scoped/', '/ruled/')
/** The scoped sub-collection, on every table size. */
export const SCOPED_CHILDREN_PATH = `/scoped/sellers/${SELLER}/products?${properties(CHILDREN)}`

/** The Prisma client's surface these routes read: the shaped page's, and the sellers. */
interface ScopedClient extends CatalogueClient {
  seller: { findUnique(args: object): PromiseLike<unknown> }
}

const related = { select: { id: true, name: true } } as const
const select = (embeds: readonly string[]) => ({
  id: true,
  ...Object.fromEntries(FIELDS.map((field) => [field, true])),
  ...Object.fromEntries(embeds.map((embed) => [embed, related])),
})

/** Mounts the hand-written routes of the scoped page and sub-collection on `app`. */
export function scopedRoutes(app: Hono, prisma: ScopedClient): void {
  /** The scoped page's products and total, or undefined for a request without its parameters. */
  const scopedPage = async (c: Context) => {
    const code = c.req.query('seller.country.code')
    const page = Number(c.req.query('page') ?? '1')
    if (code === undefined || !Number.isSafeInteger(page) || page < 1) return undefined
    const where = { listed: true, seller: { country: { code } } }
    const [items, total] = await prisma.$transaction(
      [
        prisma.product.findMany({
          where,
          orderBy: [...ORDER],
          skip: (page - 1) * PER_PAGE,
          take: PER_PAGE,
          select: select(PAGE.embeds),
        }),
        prisma.product.count({ where }),
      ],
      LIMITS
    )
    return { total, items: items as unknown[] }
  }
  // The price shown on products in stock only, as a hand-written route applies such a rule: the
  // page read as the scoped one, the field dropped in memory from the rows the rule hides it on.
  app.get('/ruled/products', async (c: Context) => {
    const answer = await scopedPage(c)
    if (!answer) return c.text('seller.country.code and a positive page are required', 400)
    const items = answer.items.map((item) => {
      if ((item as { stock: number }).stock >= IN_STOCK) return item
      const { price: _hidden, ...shown } = item as Json
      return shown
    })
    return c.json({ total: answer.total, items })
  })
  app.get('/scoped/products', async (c: Context) => {
    const answer = await scopedPage(c)
    if (!answer) return c.text('seller.country.code and a positive page are required', 400)
    return c.json(answer)
  })
  app.get('/scoped/sellers/:id/products', async (c: Context) => {
    const id = Number(c.req.param('id'))
    if (!Number.isSafeInteger(id)) return c.text('Not Found', 404)
    const where = { listed: true, sellerId: id }
    const [seller, items, total] = await prisma.$transaction(
      [
        prisma.seller.findUnique({ where: { id }, select: { id: true } }),
        prisma.product.findMany({
          where,
          orderBy: [...ORDER],
          take: PER_PAGE,
          select: select(CHILDREN.embeds),
        }),
        prisma.product.count({ where }),
      ],
      LIMITS
    )
    if (!seller) return c.text('Not Found', 404)
    return c.json({ total, items })
  })
}

type Json = Record<string, unknown>
const idOf = (iri: unknown) => Number(String(iri).slice(String(iri).lastIndexOf('/') + 1))

/** Throws unless `object` has exactly the keys `keys` (in any order). */
function exactKeys(object: Json, keys: readonly string[], what: string): void {
  const own = Object.keys(object).sort()
  if (own.join() !== [...keys].sort().join())
    throw new Error(`${what} has the keys ${own.join(', ')}, not ${[...keys].join(', ')}`)
}

/**
 * An answer's data in one form, whoever wrote it: the JSON-LD page (members, `@id` and
 * `hydra:totalItems`) or the hand-written route's `{ total, items }`; each product and relation
 * with exactly the keys the card asks for.
 */
function dataOf(body: string, card: Card, name: string): { total: unknown; items: Json[] } {
  const parsed = JSON.parse(body) as Json
  const linked = 'hydra:member' in parsed
  const id = linked ? ['@id', '@type'] : ['id']
  const members = (linked ? parsed['hydra:member'] : parsed.items) as Json[]
  const items = members.map((member) => {
    const priced = card.pricedAt?.(member.stock as number) ?? true
    const fields = FIELDS.filter((field) => priced || field !== 'price')
    exactKeys(member, [...id, ...fields, ...card.embeds], `${name}: a product`)
    const item: Json = { id: linked ? idOf(member['@id']) : member.id }
    for (const field of fields) item[field] = member[field]
    for (const embed of card.embeds) {
      const relation = member[embed] as Json
      exactKeys(relation, [...id, 'name'], `${name}: a product's ${embed}`)
      item[embed] = { id: linked ? idOf(relation['@id']) : relation.id, name: relation.name }
    }
    return item
  })
  return { total: linked ? parsed['hydra:totalItems'] : parsed.total, items }
}

/**
 * Asks every server for the scoped request of `card`; throws unless each answers 200 with the
 * same data (the same products in the same order, with the same fields and relations), a full
 * page, and the total of the catalogue's formulas. Returns each server's body size.
 */
async function checkCard(
  servers: ReadonlyMap<string, { origin: string }>,
  path: string,
  rows: number,
  card: Card
): Promise<Map<string, BodySize>> {
  const sizes = new Map<string, BodySize>()
  const expected = card.total(rows)
  let reference: { name: string; data: string } | undefined
  for (const [name, { origin }] of servers) {
    const response = await fetch(`${origin}${path}`)
    const body = await response.text()
    if (response.status !== 200) throw refusedCheck(name, path, response.status, body)
    const data = dataOf(body, card, name)
    if (data.total !== expected)
      throw new Error(`${name} ${path}: total ${data.total}, not ${expected}`)
    if (data.items.length !== PER_PAGE)
      throw new Error(`${name} ${path}: ${data.items.length} products, not ${PER_PAGE}`)
    const shown = JSON.stringify(data)
    if (reference && shown !== reference.data)
      throw new Error(
        `${path}: ${name} and ${reference.name} hold different data:\n${shown.slice(0, 400)}\n${reference.data.slice(0, 400)}`
      )
    reference ??= { name, data: shown }
    sizes.set(name, { bytes: Buffer.byteLength(body), gzipped: gzipSync(body).byteLength })
  }
  return sizes
}

/** checkCard for the scoped page. */
export const checkScopedPage = (
  servers: ReadonlyMap<string, { origin: string }>,
  path: string,
  rows: number
) => checkCard(servers, path, rows, PAGE)

/**
 * checkCard for the ruled page: the scoped page's data, the price of each product out of stock
 * left out (and some such product on the page, so that a rule left out everywhere fails).
 */
export async function checkRuledPage(
  servers: ReadonlyMap<string, { origin: string }>,
  path: string,
  rows: number
) {
  const sizes = await checkCard(servers, path, rows, RULED)
  const [first] = servers.values()
  const body = (await (await fetch(`${first?.origin}${path}`)).json()) as Json
  const members = body['hydra:member'] as Json[]
  if (
    !members.some((member) => !('price' in member)) ||
    !members.some((member) => 'price' in member)
  )
    throw new Error(`${path}: the rule hides the price of no product, or of every one, on the page`)
  return sizes
}

/** checkCard for the scoped sub-collection. */
export const checkScopedChildren = (
  servers: ReadonlyMap<string, { origin: string }>,
  path: string,
  rows: number
) => checkCard(servers, path, rows, CHILDREN)
