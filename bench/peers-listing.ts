/**
 * The listing of bench/peers.ts: one product with what a listing page shows of it, the shape of a
 * listings portal's page with its photos. One request,
 *
 *   GET /products/<id>
 *
 * the generated item route: the product's fields, its seller and category embedded (to-one) and
 * its first three variants (a capped to-many, declared in bench/schema.prisma), with whether more
 * exist (every product has four). The hand-written routes answer the same path with the same data
 * as plain JSON: one `findUnique` nesting the seller, the category and four variants (the fourth
 * read to tell whether more exist, as the generated route does), with `relationLoadStrategy`
 * where the best route's client has it (bench/peers-best.ts). Answers are compared as data.
 */
import { gzipSync } from 'node:zlib'
import type { Hono } from 'hono'
import type { BodySize } from './peers-shaped.js'
import { refusedCheck } from './unanswered.js'

/** The variants a listing shows. */
const FIRST = 3

/** The listing of the product in the middle of a table of `rows`. */
export const listingPath = (rows: number) => `/products/${Math.ceil(rows / 2)}`

/** The Prisma client's surface this route reads. */
interface ListingClient {
  product: { findUnique(args: object): PromiseLike<unknown> }
}

const FIELDS = ['name', 'price', 'stock', 'description', 'listed', 'createdAt'] as const

/** The listing as every server's answer reads: the product, its relations, and more variants. */
interface Listing {
  id: number
  fields: Record<string, unknown>
  seller: { id: number; name: string }
  category: { id: number; name: string }
  variants: { id: number; label: string; sku: string }[]
  more: boolean
}

/** Mounts the hand-written listing route on `app`; `strategy` is spread into its read. */
export function listingRoute(app: Hono, prisma: ListingClient, strategy: object): void {
  app.get('/products/:id', async (c) => {
    const id = Number(c.req.param('id'))
    if (!Number.isSafeInteger(id)) return c.text('Not Found', 404)
    const product = (await prisma.product.findUnique({
      ...strategy,
      where: { id },
      select: {
        id: true,
        ...Object.fromEntries(FIELDS.map((field) => [field, true])),
        seller: { select: { id: true, name: true } },
        category: { select: { id: true, name: true } },
        variants: {
          select: { id: true, label: true, sku: true },
          orderBy: { id: 'asc' },
          take: FIRST + 1,
        },
      },
    })) as (Record<string, unknown> & { variants: unknown[] }) | null
    if (!product) return c.text('Not Found', 404)
    const { variants, ...rest } = product
    return c.json({ ...rest, variants: variants.slice(0, FIRST), more: variants.length > FIRST })
  })
}

type Json = Record<string, unknown>
const idOf = (iri: unknown) => Number(String(iri).slice(String(iri).lastIndexOf('/') + 1))

/** An answer's listing: the generated item (JSON-LD) or the hand-written route's JSON. */
function listingOf(body: string): Listing {
  const parsed = JSON.parse(body) as Json
  const linked = '@id' in parsed
  const id = (node: Json) => (linked ? idOf(node['@id']) : (node.id as number))
  const seller = parsed.seller as Json
  const category = parsed.category as Json
  const embedded = parsed.variants as Json
  const variants = (linked ? embedded['hydra:member'] : parsed.variants) as Json[]
  const view = linked ? (embedded['hydra:view'] as Json | undefined) : undefined
  return {
    id: id(parsed),
    fields: Object.fromEntries(FIELDS.map((field) => [field, parsed[field]])),
    seller: { id: id(seller), name: seller.name as string },
    category: { id: id(category), name: category.name as string },
    variants: variants.map((variant) => ({
      id: id(variant),
      label: variant.label as string,
      sku: variant.sku as string,
    })),
    // The generated route writes a view on a first page only when more rows exist
    // (docs/member-shape.md).
    more: linked ? view !== undefined : (parsed.more as boolean),
  }
}

/**
 * Asks every server for the listing; throws unless each answers 200 with the same data (three
 * variants, more existing). Returns each server's body size.
 */
export async function checkListing(
  servers: ReadonlyMap<string, { origin: string }>,
  path: string
): Promise<Map<string, BodySize>> {
  const sizes = new Map<string, BodySize>()
  let reference: { name: string; data: string } | undefined
  for (const [name, { origin }] of servers) {
    const response = await fetch(`${origin}${path}`)
    const body = await response.text()
    if (response.status !== 200) throw refusedCheck(name, path, response.status, body)
    const listing = listingOf(body)
    if (listing.variants.length !== FIRST || !listing.more)
      throw new Error(`${name} ${path}: ${listing.variants.length} variants, more: ${listing.more}`)
    const data = JSON.stringify(listing)
    if (reference && data !== reference.data)
      throw new Error(
        `${path}: ${name} and ${reference.name} hold different data:\n${data}\n${reference.data}`
      )
    reference ??= { name, data }
    sizes.set(name, { bytes: Buffer.byteLength(body), gzipped: gzipSync(body).byteLength })
  }
  return sizes
}
