/**
 * What the member writer the generator writes for each resource (generator/src/emit/
 * member-writer.ts) buys over the runtime's generic writer, a loop over the resource's fields and
 * links (runtime/src/hydra/resource.ts): a page of members written and stringified, as a page
 * writer does, from the same rows: 30 events of bench/schema.prisma (an Int key, a date, a text),
 * read once from the 10,000-event SQLite table. The generic writer is the same resource defined
 * again without its generated writer. Both write the same
 * text (checked first). CPU µs a page (`process.cpuUsage()`), `PAGES` pages a measure after as
 * many for warm-up, `ROUNDS` rounds alternating the two; the median over the rounds and its range.
 *
 *   npm run bench:members
 *   BENCH_MEMBERS_ROUNDS=3 BENCH_MEMBERS_PAGES=5000 npm run bench:members   # quick
 */
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3'
import { defineResource } from '@prisma-hydra/runtime/generated'
import { eventModel, eventResource } from './.generated/hydra/event.js'
import { PrismaClient } from './.generated/prisma/client.js'
import { integers, median, type Spread, shownSpread, spread } from './load.js'
import { machine, writeSection } from './report.js'
import { prepareDatabase } from './setup.js'

const [ROUNDS = 7] = integers('BENCH_MEMBERS_ROUNDS', '7')
const [PAGES = 20000] = integers('BENCH_MEMBERS_PAGES', '20000')

const { url } = await prepareDatabase(10_000)
const prisma = new PrismaClient({ adapter: new PrismaBetterSqlite3({ url }) })
const rows = await prisma.event.findMany({
  select: eventModel.select,
  orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
  skip: 30,
  take: 30,
})
await prisma.$disconnect()

// The same resource with the runtime's generic writer: its description, without the writer.
const generic = defineResource(eventModel, eventResource)
type Write = (row: object, base: string) => unknown
const writers: Record<'generated' | 'generic', Write> = {
  generated: (row, base) => eventResource.toMember(row, base),
  generic: (row, base) => generic.toMember(row, base),
}
const page = (write: Write) => JSON.stringify(rows.map((row) => write(row, '')))
if (page(writers.generated) !== page(writers.generic))
  throw new Error('the generated and the generic writers write different members')

/** CPU µs a page written by `write`. */
function measure(write: Write): number {
  let length = 0
  for (let index = 0; index < PAGES; index++) length += page(write).length
  const start = process.cpuUsage()
  for (let index = 0; index < PAGES; index++) length += page(write).length
  const used = process.cpuUsage(start)
  if (length === 0) throw new Error('nothing written')
  return (used.user + used.system) / PAGES
}

const runs: Array<Record<keyof typeof writers, number>> = []
for (let round = 0; round < ROUNDS; round++) {
  const order =
    round % 2 === 0 ? (['generated', 'generic'] as const) : (['generic', 'generated'] as const)
  const run = { generated: 0, generic: 0 }
  for (const name of order) run[name] = measure(writers[name])
  runs.push(run)
}

const us = (value: Spread) => shownSpread(value, 1)
const generated = spread(runs.map((run) => run.generated))
const plain = spread(runs.map((run) => run.generic))
const ratio = spread(runs.map((run) => run.generated / run.generic))
console.log(
  `generated ${median(runs.map((run) => run.generated)).toFixed(1)} µs, generic ${median(runs.map((run) => run.generic)).toFixed(1)} µs a page`
)

await writeSection(
  'members',
  `## Members written by the generated writer

\`npm run bench:members\` (bench/members.ts): 30 events of bench/schema.prisma (an Int key, a date, a text) written as members and stringified as a page writer does, by the writer the generator writes for the resource and by the runtime's generic writer (a loop over the description's fields and links), both writing the same text (checked first); CPU µs a page (\`process.cpuUsage()\`), ${PAGES} pages a measure after as many for warm-up, ${ROUNDS} rounds alternating the two, the median over the rounds and its range. Figures from a 2-core machine shared with other work (its load average in the last line): compare rows of one run.

| writer | CPU µs a page of 30 | / generic |
|---|---|---|
| generated (one object literal a row) | ${us(generated)} | ${shownSpread(ratio, 2)} |
| generic (a loop over the fields) | ${us(plain)} | 1.00 |

${machine()}`
)
