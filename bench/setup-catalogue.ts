/**
 * The catalogue of the shaped and scoped pages (bench/peers-shaped.ts, bench/peers-scoped.ts),
 * derived from the events in SQL as the samples are: a product per event (its id and date), 200
 * sellers in 10 countries, 20 categories, four variants a product. Product `id`'s seller is
 * `(id - 1) % 200 + 1`, in country `(id - 1) % 10 + 1`, so a country's code selects a tenth of
 * the products; its category is `id % 20 + 1`; it is listed unless `id` is a multiple of 7, which
 * leaves out a seventh of every seller's and every country's products.
 */

/** Sellers and countries the products are spread over. */
export const SELLERS = 200
export const COUNTRIES = 10
/** Categories the products are spread over. */
export const CATEGORIES = 20
/** One product in this many is not listed. */
const UNLISTED_EVERY = 7

/** The seller of product `id`. */
export const sellerOf = (id: number) => ((id - 1) % SELLERS) + 1
/** The country of seller `id`. */
export const countryOf = (seller: number) => ((seller - 1) % COUNTRIES) + 1
/** Whether product `id` is listed (the scoped pages' row scope). */
export const isListed = (id: number) => id % UNLISTED_EVERY !== 0

/** Variants a product has: more than the three its embed shows. */
export const VARIANTS = 4
/** The description the shaped page does not show: what reading every column costs. */
export const DESCRIPTION = `${'d'.repeat(180)}`

/** The code of country `id`. */
export const countryCode = (id: number) => `C${id}`

type Provider = 'sqlite' | 'postgresql' | 'mysql'

/** Statements that fill Country, Seller, Category, Product and Variant from `Event`, in that order. */
export function catalogueStatements(provider: Provider): string[] {
  // `||` concatenates on SQLite and PostgreSQL; MySQL and MariaDB read it as OR.
  const concat = (...parts: string[]) =>
    provider === 'mysql' ? `CONCAT(${parts.join(', ')})` : parts.join(' || ')
  const statements = [
    `INSERT INTO "Country" ("id", "code")
      SELECT "id", ${concat("'C'", '"id"')} FROM "Event" WHERE "id" <= ${COUNTRIES}`,
    `INSERT INTO "Seller" ("id", "name", "countryId")
      SELECT "id", ${concat("'seller '", '"id"')}, ("id" - 1) % ${COUNTRIES} + 1 FROM "Event" WHERE "id" <= ${SELLERS}`,
    `INSERT INTO "Category" ("id", "name")
      SELECT "id", ${concat("'category '", '"id"')} FROM "Event" WHERE "id" <= ${CATEGORIES}`,
    `INSERT INTO "Product" ("id", "createdAt", "name", "price", "stock", "description", "sellerId", "listed", "categoryId")
      SELECT "id", "createdAt", ${concat("'product '", '"id"')}, "id" % 1000, "id" % 50, '${DESCRIPTION}', ("id" - 1) % ${SELLERS} + 1,
        "id" % ${UNLISTED_EVERY} <> 0, "id" % ${CATEGORIES} + 1
      FROM "Event"`,
    `INSERT INTO "Variant" ("id", "productId", "label", "sku")
      SELECT ("Product"."id" - 1) * ${VARIANTS} + k.n, "Product"."id", ${concat("'size '", 'k.n')}, ${concat("'sku-'", '"Product"."id"', "'-'", 'k.n')}
      FROM "Product" CROSS JOIN (${Array.from({ length: VARIANTS }, (_, i) => `SELECT ${i + 1} AS n`).join(' UNION ALL ')}) AS k`,
  ]
  return provider === 'mysql' ? statements.map((sql) => sql.replace(/"/g, '`')) : statements
}
