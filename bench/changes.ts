/**
 * Syncing by the change feed against re-reading the collection (docs/syncing.md): the notes of
 * example-app/test/fixtures/changes (five a page, `@pagination(itemsPerPage: 5)`), `BENCH_CHANGES_ROWS`
 * of them (default 100,000) on a fresh SQLite file with the generated change log, served over HTTP
 * by the generated app. A token is taken, then `BENCH_CHANGES_WRITES` changes (default 1,000:
 * three fifths updates, a fifth inserts, a fifth deletes) are made; then a client brings a copy up
 * to date twice: by following the feed from the token (`followChanges`), and by reading every page
 * of the collection again. Then single pages: a page of the feed (five changed notes) against a
 * page of the collection (five notes), each asked `BENCH_CHANGES_PAGES` times (default 200). The
 * figures are ratios of the same run. `npm run bench:changes`.
 */
import { performance } from 'node:perf_hooks'
import { followChanges, isTombstone } from '@prisma-hydra/runtime/client'
import { createHydraApp } from '../example-app/test/.generated/changes/hydra/index.js'
import { PrismaClient } from '../example-app/test/.generated/changes/prisma/client.js'
import { applyChangeLog } from '../example-app/test/support/change-log.js'
import { createAdapter, freshDatabase, startServer } from '../example-app/test/support/harness.js'
import { integers } from './load.js'
import { machine, writeSection } from './report.js'

const [ROWS = 100_000, WRITES = 1_000, PAGES = 200] = [
  ...integers('BENCH_CHANGES_ROWS', '100000'),
  ...integers('BENCH_CHANGES_WRITES', '1000'),
  ...integers('BENCH_CHANGES_PAGES', '200'),
]

const SCHEMA = new URL('../example-app/test/fixtures/changes/schema.prisma', import.meta.url)
  .pathname
const database = await freshDatabase(SCHEMA)
const prisma = new PrismaClient({ adapter: createAdapter(database.url) })
await applyChangeLog(prisma)
for (let done = 0; done < ROWS; done += 5_000)
  await prisma.note.createMany({
    data: Array.from({ length: Math.min(5_000, ROWS - done) }, (_, index) => ({
      title: `note ${done + index}`,
      owner: ['ann', 'bob', 'cy'][index % 3] as string,
    })),
  })
const { origin, close } = await startServer(createHydraApp({ prisma }).fetch)

/** The pages of the collection, every one, as a client re-reading it walks them. */
async function rereadCollection(): Promise<{ requests: number; rows: number }> {
  let requests = 0
  let rows = 0
  for (let url: string | undefined = `${origin}/notes`; url; requests++) {
    const body = (await (await fetch(url)).json()) as Record<string, unknown>
    rows += (body['hydra:member'] as unknown[]).length
    const next = (body['hydra:view'] as Record<string, string>)['hydra:next']
    url = next ? new URL(next, origin).href : undefined
  }
  return { requests, rows }
}

let start = ''
for await (const page of followChanges(`${origin}/notes/changes`)) start = page.next
const ids = (await prisma.note.findMany({ select: { id: true }, take: WRITES })).map(({ id }) => id)
for (let index = 0; index < WRITES; index++) {
  const id = ids[index] as number
  if (index % 5 === 3) await prisma.note.create({ data: { title: `new ${index}`, owner: 'ann' } })
  else if (index % 5 === 4) await prisma.note.delete({ where: { id } })
  else await prisma.note.update({ where: { id }, data: { title: `edited ${index}` } })
}

const synced = performance.now()
let feedRequests = 0
let told = 0
let tombstones = 0
for await (const page of followChanges(start)) {
  feedRequests++
  told += page.changes.length
  tombstones += page.changes.filter(isTombstone).length
}
const syncMs = performance.now() - synced
const reread = performance.now()
const collection = await rereadCollection()
const rereadMs = performance.now() - reread

/** Milliseconds a request of `url` takes, the mean of PAGES after five unmeasured. */
async function perRequest(url: string): Promise<number> {
  for (let index = 0; index < 5; index++) await (await fetch(url)).arrayBuffer()
  const began = performance.now()
  for (let index = 0; index < PAGES; index++) await (await fetch(url)).arrayBuffer()
  return (performance.now() - began) / PAGES
}
const feedPage = await perRequest(start)
const collectionPage = await perRequest(`${origin}/notes?page=2`)
await close()
await prisma.$disconnect()
await database.remove()

const ms = (value: number) => value.toFixed(value < 10 ? 2 : 0)
await writeSection(
  'changes',
  `## Syncing by the change feed against re-reading the collection (SQLite)

${machine()}; \`npm run bench:changes\` (${ROWS.toLocaleString('en')} notes, ${WRITES.toLocaleString('en')} changes, five a page).

| bringing a copy up to date | requests | rows or changes read | time (ms) | against re-reading |
|---|---:|---:|---:|---:|
| following the feed from a token | ${feedRequests} | ${told} (${tombstones} tombstones) | ${ms(syncMs)} | ${(syncMs / rereadMs).toFixed(3)} |
| reading every page of the collection | ${collection.requests} | ${collection.rows} | ${ms(rereadMs)} | 1 |

| one page (five members) | ms a request | against the collection's page |
|---|---:|---:|
| the feed's first page from the token | ${ms(feedPage)} | ${(feedPage / collectionPage).toFixed(2)} |
| the collection's page 2 (full paging, with its count) | ${ms(collectionPage)} | 1 |
`
)
console.log({
  feedRequests,
  told,
  tombstones,
  syncMs,
  rereadMs,
  collection,
  feedPage,
  collectionPage,
})
