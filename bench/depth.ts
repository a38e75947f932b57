/**
 * How the cost of a page grows with depth, for the three paging modes of one generated app:
 * full offset paging (`/events`, a count per page), partial offset paging (`/events/partial`)
 * and cursor paging (`/events/feed`), all newest first, 30 a page. Each mode serves page 1,
 * page 2 and a page 30% of the rows deep (page 10,001 at 1,000,000 rows), in-process through
 * `app.request`. Writes bench/RESULTS.md and prints the table.
 *
 *   npm run bench                    # 1,000,000 rows
 *   BENCH_ROWS=100000 npm run bench  # a quick run
 */
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3'
import { createHydraApp } from './.generated/hydra/index.js'
import { PrismaClient } from './.generated/prisma/client.js'
import { machine, writeSection } from './report.js'
import { EVENTS_PER_SECOND, prepareDatabase } from './setup.js'

const { BENCH_ROWS } = process.env
const ROWS = Number(BENCH_ROWS ?? 1_000_000)
const PER_PAGE = 30
/** Pages before the deep page: 10,000 at 1,000,000 rows. */
const DEPTH = Math.floor((ROWS * 0.3) / PER_PAGE)
const WARMUP = 10
const ROUNDS = 101
const CURSOR_TARGET = 1.5
const ORDER = [{ createdAt: 'desc' }, { id: 'desc' }] as const

if (!Number.isSafeInteger(ROWS) || DEPTH < 1) {
  throw new Error(`BENCH_ROWS must be an integer of at least 100, "${BENCH_ROWS}" given`)
}

const started = performance.now()
const { url, built } = await prepareDatabase(ROWS)
const seconds = ((performance.now() - started) / 1000).toFixed(1)
console.log(
  `${built ? 'Built' : 'Reused'} ${url} (${ROWS.toLocaleString('en')} rows, ${seconds} s)`
)

const prisma = new PrismaClient({ adapter: new PrismaBetterSqlite3({ url }) })
const app = createHydraApp({ prisma })

type Body = { 'hydra:member': { id: number }[]; 'hydra:view'?: Record<string, string> }

async function get(path: string): Promise<Body> {
  const response = await app.request(path)
  if (response.status !== 200) throw new Error(`${path}: ${response.status}`)
  return (await response.json()) as Body
}

/** The row at a 0-based position in the collection's order. */
async function rowAt(position: number) {
  const [row] = await prisma.event.findMany({
    orderBy: [...ORDER],
    skip: position,
    take: 1,
    select: { id: true, createdAt: true },
  })
  if (!row) throw new Error(`No row at position ${position}`)
  return row
}

/** The `next` link the app emits on the cursor page that ends with `row`. */
const feedAfter = (row: { id: number; createdAt: Date }) =>
  `/events/feed?createdAt%5Blt%5D=${encodeURIComponent(row.createdAt.toISOString())}&id%5Blt%5D=${row.id}`

// Cursor pages have no numbers: page 2 is the `next` link of page 1, and the deep page the link
// after the last row of page DEPTH, what a client requests after following `next` DEPTH times.
const skipped = DEPTH * PER_PAGE
const cursorPage2 = feedAfter(await rowAt(PER_PAGE - 1))
const cursorDeep = feedAfter(await rowAt(skipped - 1))
const deepPage = `page=${DEPTH + 1}`
const modes: { mode: string; pages: [first: string, second: string, deep: string] }[] = [
  { mode: 'full (offset + count)', pages: ['/events', '/events?page=2', `/events?${deepPage}`] },
  {
    mode: 'partial (offset)',
    pages: ['/events/partial', '/events/partial?page=2', `/events/partial?${deepPage}`],
  },
  { mode: 'cursor (keyset)', pages: ['/events/feed', cursorPage2, cursorDeep] },
]

// Sanity, not timings: the link builder agrees with the app, and every deep page holds the same
// PER_PAGE rows, starting right after the position.
const warnings: string[] = []
const emitted = (await get('/events/feed'))['hydra:view']?.['hydra:next']
if (emitted !== cursorPage2) {
  warnings.push(`page 1 of the feed links to ${emitted}, not to ${cursorPage2}`)
}
const expected = await rowAt(skipped)
for (const { pages } of modes) {
  const deep = pages[2]
  const members = (await get(deep))['hydra:member']
  if (members.length !== PER_PAGE || members[0]?.id !== expected.id) {
    warnings.push(
      `${deep}: ${members.length} members, the first id ${members[0]?.id}; expected ${PER_PAGE}, the first id ${expected.id}`
    )
  }
}

// WARMUP rounds over every request (its code paths get compiled, its rows cached), then ROUNDS
// timed rounds, each requesting every path once: interleaving spreads the machine's drift and
// the garbage collector's pauses evenly over all requests, so ratios within a round hold.
const paths = modes.flatMap(({ pages }) => pages)
const request = async (path: string) => (await app.request(path)).text()
for (let round = 0; round < WARMUP; round++) for (const path of paths) await request(path)
const samples = new Map<string, number[]>(paths.map((path) => [path, []]))
for (let round = 0; round < ROUNDS; round++) {
  for (const path of paths) {
    const start = performance.now()
    await request(path)
    samples.get(path)?.push(performance.now() - start)
  }
}
for (const times of samples.values()) times.sort((a, b) => a - b)
await prisma.$disconnect()

/** The q-quantile (0.5: the median) of a request's timed runs, in ms. */
const quantile = (path: string, q: number) => {
  const times = samples.get(path) ?? []
  return times[Math.round(q * (times.length - 1))] as number
}
const ms = (value: number) => value.toFixed(2)
const rows = modes.map(({ mode, pages }, index) => {
  const [first, , deep] = pages
  const [m1, m2, mDeep] = pages.map((path) => quantile(path, 0.5)) as [number, number, number]
  const ratio = mDeep / m1
  // An offset mode grows with depth when even the deep page's faster runs are slower than the
  // first page's slower ones (its lower quartile above theirs upper quartile).
  const grows = quantile(deep, 0.25) > quantile(first, 0.75)
  const target =
    index === 2
      ? `deep / page 1 ≤ ${CURSOR_TARGET}: ${ratio <= CURSOR_TARGET ? 'met' : 'NOT met'}`
      : `grows with depth: ${grows ? 'yes' : 'NO'}`
  return `| ${mode} | ${ms(m1)} | ${ms(m2)} | ${ms(mDeep)} | ${ms(mDeep - m1)} | ${ms(ratio)} | ${ms(mDeep / m2)} | ${target} |`
})
const table = [
  '| mode | page 1 (ms) | page 2 (ms) | deep (ms) | deep − page 1 (ms) | deep / page 1 | deep / page 2 | target |',
  '|---|---:|---:|---:|---:|---:|---:|---|',
  ...rows,
].join('\n')

const command = `${BENCH_ROWS ? `BENCH_ROWS=${BENCH_ROWS} ` : ''}npm run bench:depth`
const n = (value: number) => value.toLocaleString('en')
const report = `## Page cost by depth

Generated by \`${command}\` at the repository root (bench/depth.ts).

- ${machine()}
- ${n(ROWS)} rows of \`Event\` in SQLite (bench/.data/), ${EVENTS_PER_SECOND} rows per second of \`createdAt\`, \`@@index([createdAt, id])\`; ${PER_PAGE} a page, newest first (\`createdAt desc, id desc\`) in every mode
- requests in-process through \`app.request\` on \`createHydraApp({ prisma })\` (no network): ${WARMUP} warm-up rounds over every request, then the median of ${ROUNDS} timed rounds, each of which requests every path once

${table}

The requests, page 1, page 2 and deep:

${modes.map(({ mode, pages }) => `- ${mode}: ${pages.map((path) => `\`${path}\``).join(', ')}`).join('\n')}

The deep page is the one after ${n(skipped)} rows: page ${n(DEPTH + 1)} in the offset modes. Cursor paging has no page numbers: its deep request is the \`hydra:next\` link the app emits on the page that ends with row ${n(skipped)}, built from that row's \`createdAt\` and \`id\` as read with Prisma, so it is exactly the request a client makes after following \`next\` ${n(DEPTH)} times (the same builder makes the cursor's page 2, which is checked against the app's own \`next\` link on page 1). All three deep pages hold the same ${PER_PAGE} rows (checked below).

Targets: the cursor's deep / page 1 ≤ ${CURSOR_TARGET}; the offset modes grow with depth (the deep page's lower quartile above page 1's upper quartile): SQLite steps over every skipped row. Full paging also counts every row on every request, a cost that does not depend on depth, so its ratio stays small while its growth in ms matches the partial mode's.

Page 2 separates the cost of depth from the cost of a position. Every cursor page is one query: page 1 reads the first rows; a later page (page 2 as much as the deep one) reads from its position inclusively, and the row at the position, found again, proves that a \`previous\` link is honest (only when that row is gone is one row on the other side looked up). Deep / page 2 shows the growth with depth alone; deep / page 1 adds the cost of a \`where\` on the position.

Sanity (not timings): ${
  warnings.length === 0
    ? `every deep page has ${PER_PAGE} members, the first of them row ${n(skipped + 1)} (id ${expected.id}); page 1 of the feed links to page 2 exactly as built here.`
    : `\n\n${warnings.map((warning) => `- WARNING: ${warning}`).join('\n')}`
}
`
await writeSection('depth', report)
console.log(`\n${table}\n`)
for (const warning of warnings) console.warn(`WARNING: ${warning}`)
console.log('Written to bench/RESULTS.md')
