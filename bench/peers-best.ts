/**
 * The hand-written routes of bench/peers.ts at their best: the pages users build (the shaped page,
 * the scoped and ruled pages, the scoped sub-collection) and the listing (an item with a capped
 * sub-collection embedded, bench/peers-listing.ts), written as a Prisma user who knows the client
 * well writes them. Beside `handwritten` (the routes as Prisma's documentation shows them), so
 * that the ratios against that baseline stay comparable with earlier runs.
 *
 * - Where the database has it (PostgreSQL: the client of bench/generate.ts's copy with the
 *   `relationJoins` preview feature), every read of relations asks for
 *   `relationLoadStrategy: 'join'`: the page and its embedded relations in one statement. SQLite
 *   and MariaDB have no such strategy (Prisma 7.10 refuses it on MariaDB, P2019): their reads
 *   are `handwritten`'s.
 * - A page that shows a count reads it beside the page in one `$transaction([...])`.
 * - The scoped sub-collection is one `findUnique` of the seller with its first products nested and
 *   their filtered `_count`, where relations are joined: one statement, so one snapshot; elsewhere
 *   the seller, the page and the count are read in one transaction, as `handwritten` does.
 * - The listing is one `findUnique` of the product with its seller, category and first four
 *   variants nested (three shown, the fourth telling whether more exist).
 *
 * Every answer is checked against the generated routes' as data (peers-scoped.ts,
 * peers-shaped.ts, peers-listing.ts) before any measurement.
 */
import type { Context, Hono } from 'hono'
import { listingRoute } from './peers-listing.js'
import { IN_STOCK } from './peers-scoped.js'
import type { CatalogueClient } from './peers-shaped.js'

const PER_PAGE = 30
const ORDER = [{ createdAt: 'desc' }, { id: 'desc' }] as const
const LIMITS = { maxWait: 10_000, timeout: 20_000 }
const FIELDS = { id: true, name: true, price: true, stock: true, createdAt: true } as const
const related = { select: { id: true, name: true } } as const

/** The Prisma client's surface these routes read. */
export interface BestClient extends CatalogueClient {
  seller: { findUnique(args: object): PromiseLike<unknown> }
  product: CatalogueClient['product'] & { findUnique(args: object): PromiseLike<unknown> }
}

type Json = Record<string, unknown>

/** Mounts the best hand-written routes on `app`; `joins`: the client joins relations. */
export function bestRoutes(app: Hono, prisma: BestClient, joins: boolean): void {
  const strategy = joins ? { relationLoadStrategy: 'join' } : {}
  const page = (c: Context) => {
    const code = c.req.query('seller.country.code')
    const number = Number(c.req.query('page') ?? '1')
    return code === undefined || !Number.isSafeInteger(number) || number < 1
      ? undefined
      : { code, skip: (number - 1) * PER_PAGE }
  }
  app.get('/products', async (c) => {
    const asked = page(c)
    if (!asked) return c.text('seller.country.code and a positive page are required', 400)
    const where = { seller: { country: { code: asked.code } } }
    const [items, total] = await prisma.$transaction(
      [
        prisma.product.findMany({
          ...strategy,
          where,
          orderBy: [...ORDER],
          skip: asked.skip,
          take: PER_PAGE,
          select: {
            ...FIELDS,
            seller: related,
            variants: {
              select: { id: true, label: true, sku: true },
              orderBy: { id: 'asc' },
              take: 3,
            },
          },
        }),
        prisma.product.count({ where }),
      ],
      LIMITS
    )
    return c.json({ total, items })
  })
  const scoped = async (c: Context) => {
    const asked = page(c)
    if (!asked) return undefined
    const where = { listed: true, seller: { country: { code: asked.code } } }
    const [items, total] = await prisma.$transaction(
      [
        prisma.product.findMany({
          ...strategy,
          where,
          orderBy: [...ORDER],
          skip: asked.skip,
          take: PER_PAGE,
          select: { ...FIELDS, seller: related, category: related },
        }),
        prisma.product.count({ where }),
      ],
      LIMITS
    )
    return { total, items: items as Json[] }
  }
  app.get('/scoped/products', async (c) => {
    const answer = await scoped(c)
    if (!answer) return c.text('seller.country.code and a positive page are required', 400)
    return c.json(answer)
  })
  app.get('/ruled/products', async (c) => {
    const answer = await scoped(c)
    if (!answer) return c.text('seller.country.code and a positive page are required', 400)
    const items = answer.items.map((item) => {
      if ((item.stock as number) >= IN_STOCK) return item
      const { price: _hidden, ...shown } = item
      return shown
    })
    return c.json({ total: answer.total, items })
  })
  app.get('/scoped/sellers/:id/products', async (c) => {
    const id = Number(c.req.param('id'))
    if (!Number.isSafeInteger(id)) return c.text('Not Found', 404)
    const answer = joins ? await sellerJoined(prisma, id) : await sellerBatched(prisma, id)
    return answer ? c.json(answer) : c.text('Not Found', 404)
  })
  listingRoute(app, prisma, strategy)
}

const CHILDREN = { ...FIELDS, category: related } as const

/** The seller's first products and their count in one statement (relations joined). */
async function sellerJoined(prisma: BestClient, id: number) {
  const where = { listed: true }
  const seller = (await prisma.seller.findUnique({
    relationLoadStrategy: 'join',
    where: { id },
    select: {
      id: true,
      products: { where, orderBy: [...ORDER], take: PER_PAGE, select: CHILDREN },
      _count: { select: { products: { where } } },
    },
  })) as { products: Json[]; _count: { products: number } } | null
  return seller && { total: seller._count.products, items: seller.products }
}

/** The seller, its first products and their count in one transaction (no join strategy). */
async function sellerBatched(prisma: BestClient, id: number) {
  const where = { listed: true, sellerId: id }
  const [seller, items, total] = await prisma.$transaction(
    [
      prisma.seller.findUnique({ where: { id }, select: { id: true } }),
      prisma.product.findMany({ where, orderBy: [...ORDER], take: PER_PAGE, select: CHILDREN }),
      prisma.product.count({ where }),
    ],
    LIMITS
  )
  return seller ? { total, items } : undefined
}
