/**
 * The shaped page of bench/peers.ts: the page a catalogue's screen asks for, on the products of
 * bench/setup-catalogue.ts. One request,
 *
 *   GET /products?seller.country.code=C3&properties[]=name&…&properties[]=variants&page=2
 *
 * a filter through two relations (product → seller → country), four of the product's fields
 * selected with `properties[]`, its seller embedded (to-one) and its first three variants (a
 * capped to-many), full paging (page and count). The generated routes answer it from the
 * annotations of bench/schema.prisma; the hand-written route answers the same path with the same
 * data as plain JSON, the way Prisma's documentation writes it: one `findMany` with a `select`
 * that nests the seller and `take: 3` variants, and `count()`, in one `$transaction([...])`.
 * Their answers are compared as data (`sameData`), not as bytes: the body each sends is part of
 * what is measured.
 */
import { gzipSync } from 'node:zlib'
import type { Context, Hono } from 'hono'
import { countryCode } from './setup-catalogue.js'
import { refusedCheck } from './unanswered.js'

const PER_PAGE = 30
/** The fields the card shows, besides the two relations. */
const FIELDS = ['name', 'price', 'stock', 'createdAt'] as const
const COUNTRY = countryCode(3)

/** The shaped request, on every table size. */
export const SHAPED_PATH = `/products?seller.country.code=${COUNTRY}&${[...FIELDS, 'seller', 'variants'].map((name) => `properties[]=${name}`).join('&')}&page=2`

/** A body's size in bytes, as the servers send it and gzipped (what a compressing proxy sends). */
export interface BodySize {
  bytes: number
  gzipped: number
}

/** One product as the hand-written route answers it, and as `fromDocument` reads a member. */
interface ShapedItem {
  id: number
  name: string
  price: number
  stock: number
  createdAt: string
  seller: { id: number; name: string }
  variants: { id: number; label: string; sku: string }[]
}
interface ShapedPage {
  total: number
  items: ShapedItem[]
}

/** The Prisma client's surface this route reads: the generated clients of every provider. */
export interface CatalogueClient {
  $transaction<T extends readonly unknown[]>(
    reads: [...{ [K in keyof T]: PromiseLike<T[K]> }],
    options?: { maxWait?: number; timeout?: number }
  ): Promise<T>
  product: {
    findMany(args: object): PromiseLike<unknown[]>
    count(args: object): PromiseLike<number>
  }
}

/** Mounts the hand-written route of the shaped page on `app`. */
export function shapedRoute(app: Hono, prisma: CatalogueClient): void {
  app.get('/products', async (c: Context) => {
    const code = c.req.query('seller.country.code')
    const page = Number(c.req.query('page') ?? '1')
    if (code === undefined || !Number.isSafeInteger(page) || page < 1) {
      return c.text('seller.country.code and a positive page are required', 400)
    }
    const where = { seller: { country: { code } } }
    const [items, total] = await prisma.$transaction(
      [
        prisma.product.findMany({
          where,
          orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
          skip: (page - 1) * PER_PAGE,
          take: PER_PAGE,
          select: {
            id: true,
            name: true,
            price: true,
            stock: true,
            createdAt: true,
            seller: { select: { id: true, name: true } },
            variants: {
              select: { id: true, label: true, sku: true },
              orderBy: { id: 'asc' },
              take: 3,
            },
          },
        }),
        prisma.product.count({ where }),
        // The generated route's time limits (its `timeouts` defaults): Prisma's own 5 s failed the
        // 1,000,000-row page and count on MariaDB before any measurement.
      ],
      { maxWait: 10_000, timeout: 20_000 }
    )
    return c.json({ total, items })
  })
}

/** `page` with every object's keys in one order, whichever order its writer used. */
const ordered = (page: ShapedPage): ShapedPage => ({
  total: page.total,
  items: page.items.map((item) => ({
    id: item.id,
    name: item.name,
    price: item.price,
    stock: item.stock,
    createdAt: item.createdAt,
    seller: { id: item.seller.id, name: item.seller.name },
    variants: item.variants.map(({ id, label, sku }) => ({ id, label, sku })),
  })),
})

const idOf = (iri: unknown) => Number(String(iri).slice(String(iri).lastIndexOf('/') + 1))

/** The data of the generated route's JSON-LD page, in the hand-written route's shape. */
function fromDocument(document: Record<string, unknown>): ShapedPage {
  const members = document['hydra:member'] as Record<string, unknown>[]
  return {
    total: document['hydra:totalItems'] as number,
    items: members.map((member) => {
      const seller = member.seller as Record<string, unknown>
      const variants = (member.variants as Record<string, unknown>)['hydra:member'] as Record<
        string,
        unknown
      >[]
      return {
        id: idOf(member['@id']),
        name: member.name as string,
        price: member.price as number,
        stock: member.stock as number,
        createdAt: member.createdAt as string,
        seller: { id: idOf(seller['@id']), name: seller.name as string },
        variants: variants.map((variant) => ({
          id: idOf(variant['@id']),
          label: variant.label as string,
          sku: variant.sku as string,
        })),
      }
    }),
  }
}

/**
 * Throws unless every answer holds the same products, in the same order, with the same fields,
 * seller, variants and total: the JSON-LD pages read by `fromDocument`, the plain JSON as it is.
 * Returns each answer's body size in bytes, as sent and gzipped.
 */
export function sameData(answers: ReadonlyMap<string, string>): Map<string, BodySize> {
  const pages = [...answers].map(([name, body]) => {
    const parsed = JSON.parse(body) as Record<string, unknown>
    const page = 'hydra:member' in parsed ? fromDocument(parsed) : (parsed as unknown as ShapedPage)
    return [name, JSON.stringify(ordered(page))] as const
  })
  const [first, ...others] = pages
  if (!first) throw new Error('no answers to compare')
  const items = (JSON.parse(first[1]) as ShapedPage).items.length
  if (items !== PER_PAGE) throw new Error(`${first[0]}: ${items} products, not ${PER_PAGE}`)
  for (const [name, page] of others) {
    if (page !== first[1]) {
      throw new Error(
        `the shaped page: ${name} and ${first[0]} hold different data:\n${page.slice(0, 400)}\n${first[1].slice(0, 400)}`
      )
    }
  }
  return new Map(
    [...answers].map(([name, body]) => [
      name,
      { bytes: Buffer.byteLength(body), gzipped: gzipSync(body).byteLength },
    ])
  )
}

/**
 * Asks every server for the shaped page; throws unless each answers 200 with the same data
 * (`sameData`). Returns each server's body size.
 */
export async function checkShaped(
  servers: ReadonlyMap<string, { origin: string }>,
  path: string
): Promise<Map<string, BodySize>> {
  const answers = new Map<string, string>()
  for (const [name, { origin }] of servers) {
    const response = await fetch(`${origin}${path}`)
    const body = await response.text()
    if (response.status !== 200) throw refusedCheck(name, path, response.status, body)
    answers.set(name, body)
  }
  return sameData(answers)
}
