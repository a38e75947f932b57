/**
 * A shared cache under writes (docs/caching.md#what-a-write-purges): the example app over its
 * seeded library on a fresh SQLite file, every answer kept five minutes (`public, s-maxage=300`),
 * behind Debian's Varnish with vmod xkey run with the VCL docs/caching.md gives
 * (example-app/test/support/varnish.ts), tagged with `cacheTags: { header: 'xkey' }` and purged by
 * `hydraInvalidation({ purge: httpPurge(...) })`. Anonymous readers ask a mix of filtered,
 * ordered and sub-collection pages and items while a writer edits books' `pages` (a field no page
 * filters or orders by) at 1, 10 and 50 writes a second; then while a writer inserts books of one
 * author and genre (author 1's fiction) at 1 and 10 a second. Each rate runs twice in the same
 * run: with the purges as they are (field tags, value tags), and with every field or value tag
 * purged as its model's tag (`Book.pages`, `Book:authorId=1` as `Book`), which is what every
 * update and insert purged before. The figures are hit rates
 * and origin requests (Varnish's misses): ratios of one run, which the machine's load does not
 * skew the way it skews times. `npm run bench:cache-writes` (needs `varnish` and `varnish-modules`).
 */
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { serve } from '@hono/node-server'
import { httpPurge, hydraInvalidation } from '@prisma-hydra/runtime/invalidation'
import { createApp } from '../example-app/src/app.js'
import { prepareDatabase } from '../example-app/src/database.js'
import { hydraResources } from '../example-app/src/generated/hydra/index.js'
import { createPrismaClient } from '../example-app/src/prisma.js'
import { sharedFreshness } from '../example-app/test/support/shared-cache.js'
import { startVarnish, varnishPresent } from '../example-app/test/support/varnish.js'
import { integers } from './load.js'
import { machine, writeSection } from './report.js'

const [SECONDS = 8, READERS = 4] = integers('BENCH_CACHE_WRITES', '8,4')
const RATES = [1, 10, 50]
const INSERT_RATES = [1, 10]

/** The mix readers ask: filtered, ordered and sub-collection pages, and a few items. */
const MIX = [
  ...['FICTION', 'SCIENCE', 'HISTORY', 'CHILDREN'].flatMap((genre) =>
    [1, 2, 3].map((page) => `/books?genre=${genre}&page=${page}`)
  ),
  ...['a', 'e', 'the', 'of'].map((title) => `/books?title=${title}`),
  ...[10, 20, 30, 40].map((price) => `/books?price[lt]=${price}&order[price]=asc`),
  ...[1, 2, 3].map((page) => `/books?order[title]=asc&page=${page}`),
  '/books?order[author.name]=asc',
  '/books/recent',
  ...Array.from({ length: 12 }, (_, i) => `/authors/${i + 1}/books`),
  ...Array.from({ length: 10 }, (_, i) => `/authors/${i + 1}`),
  ...Array.from({ length: 10 }, (_, i) => `/books/${i * 11 + 1}`),
]

/** The pages an insert of author 1's fiction cannot change: other authors', other genres'. */
const OTHERS = /^\/authors\/(?!1\/)\d+\/books$|^\/books\?genre=(?!FICTION)/

/**
 * The purge before field and value tags: each field or value tag (`Book.pages`,
 * `Book:authorId=1`, `Book:any`) purged as its model's tag (`Book`) too.
 */
const modelWide = (purge: (tags: readonly string[]) => unknown) => (tags: readonly string[]) =>
  purge([
    ...new Set(
      tags.flatMap((tag) =>
        !tag.includes('/') && /[.:]/.test(tag) ? [tag.split(/[.:]/)[0] as string, tag] : [tag]
      )
    ),
  ])

const folder = await mkdtemp(path.join(os.tmpdir(), 'prisma-hydra-cache-writes-'))
if (!varnishPresent('the cache-under-writes bench')) process.exit(1)
const url = `file:${path.join(folder, 'library.db')}`
const prisma = createPrismaClient(url)
await prepareDatabase(prisma, url)
const app = createApp(prisma, { cacheTags: { header: 'xkey' }, sharedCache: sharedFreshness(300) })
const server = await new Promise<{ close(): void; port: number }>((resolve) => {
  const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
    resolve({ close: () => s.close(), port: info.port })
  )
})
const varnish = await startVarnish(`http://127.0.0.1:${server.port}`)
const books = await prisma.book.findMany({ select: { id: true, pages: true } })

/** A book of author 1's fiction, the `index`th the insert runs write. */
const newBook = (index: number) => ({
  title: `Inserted ${index}`,
  isbn: `bench-insert-${index}`,
  genre: 'FICTION' as const,
  pages: 100,
  price: 10,
  publishedAt: new Date('1990-01-01'),
  authorId: 1,
})
let inserted = 0

/**
 * One run: readers over the mix while the writer edits (or inserts, with `insert`) at `rate`;
 * hits and misses counted, and the hits among the pages an insert cannot change.
 */
async function run(rate: number, wide: boolean, insert = false) {
  await varnish.clear()
  for (const path of MIX) await fetch(`${varnish.origin}${path}`).then((r) => r.arrayBuffer())
  const purge = httpPurge({ url: `${varnish.origin}/` })
  const invalidation = hydraInvalidation({
    purge: wide ? modelWide(purge) : purge,
    resources: hydraResources,
  })
  const writes = prisma.$extends(invalidation)
  const end = Date.now() + SECONDS * 1000
  let hits = 0
  let misses = 0
  let written = 0
  const others = { hits: 0, requests: 0 }
  const reader = async () => {
    while (Date.now() < end) {
      const path = MIX[Math.floor(Math.random() * MIX.length)] as string
      const response = await fetch(`${varnish.origin}${path}`)
      await response.arrayBuffer()
      const hit = response.headers.get('x-cache') === 'HIT'
      if (hit) hits++
      else misses++
      if (OTHERS.test(path)) {
        others.requests++
        if (hit) others.hits++
      }
    }
  }
  const writer = async () => {
    for (let next = Date.now(); next < end; next += 1000 / rate) {
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - Date.now())))
      const book = books[written % books.length] as { id: number; pages: number }
      if (insert) await writes.book.create({ data: newBook(inserted++) })
      else
        await writes.book.update({ where: { id: book.id }, data: { pages: book.pages + written } })
      written++
    }
  }
  await Promise.all([writer(), ...Array.from({ length: READERS }, reader)])
  await invalidation.settled()
  return { hits, misses, written, others }
}

const rows: string[] = []
const insertRows: string[] = []
try {
  for (const rate of RATES)
    for (const wide of [true, false]) {
      const { hits, misses, written } = await run(rate, wide)
      const requests = hits + misses
      rows.push(
        `| ${rate} | ${wide ? 'model tag (before)' : 'field tags'} | ${written} | ${requests} | ${(hits / requests).toFixed(3)} | ${misses} |`
      )
      console.log(rows.at(-1))
    }
  for (const rate of INSERT_RATES)
    for (const wide of [true, false]) {
      const { hits, misses, written, others } = await run(rate, wide, true)
      const requests = hits + misses
      insertRows.push(
        `| ${rate} | ${wide ? 'model tag (before)' : 'value tags'} | ${written} | ${requests} | ${(hits / requests).toFixed(3)} | ${(others.hits / others.requests).toFixed(3)} | ${misses} |`
      )
      console.log(insertRows.at(-1))
    }
} finally {
  await varnish.stop()
  server.close()
  await prisma.$disconnect()
  await rm(folder, { recursive: true, force: true })
}

await writeSection(
  'cache-writes',
  `## A shared cache under writes

\`npm run bench:cache-writes\`: ${MIX.length} anonymous URLs (filtered, ordered and sub-collection
pages, items) asked by ${READERS} readers through Varnish with the VCL of docs/caching.md for
${SECONDS} s per row, while a writer updates books' \`pages\` (a field no page reads) at the rate
shown. "model tag (before)" purges each update's field tags as the model tag, as every update did
before field tags; "field tags" purges as the runtime does. Origin requests are Varnish's misses.

| writes/s | purged by | writes | requests | hit rate | origin requests |
|---|---|---|---|---|---|
${rows.join('\n')}

Inserts: the same readers while a writer inserts books of author 1's fiction at the rate shown.
"model tag (before)" purges each insert's value tags as the model tag, as every insert did before
value tags; "value tags" purges as the runtime does: \`Book:any\` (the pages filtered by title or
price, ordered, the feed) and the row's values (\`/authors/1/books\`, \`/books?genre=FICTION\`).
"others" is the hit rate of the pages such an insert cannot change (the books of authors 2 to 12,
the pages of the other genres).

| inserts/s | purged by | inserts | requests | hit rate | hit rate, others | origin requests |
|---|---|---|---|---|---|---|
${insertRows.join('\n')}

Every update also purges the book's item, the pages showing it, and the pages reading books'
date-time fields (\`/books/recent\`: the runtime cannot tell which is \`@updatedAt\`). Where a
row's requests are few, the origin (SQLite, serving the misses and the writes) was saturated and
readers waited on it: read the hit rates, not the counts, on a loaded machine (the load average
below is the machine's, shared with other builds and tests).

${machine()}`
)
