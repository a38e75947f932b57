/**
 * What the member writer the generator writes for each resource (generator/src/emit/
 * member-writer.ts) buys over the runtime's generic writer, a loop over the resource's fields and
 * links (runtime/src/hydra/resource.ts): a page of members written and stringified, as a page
 * writer does, from the same rows: 30 events of bench/schema.prisma (an Int key, a date, a text),
 * read once from the 10,000-event SQLite table. The generic writer is the same resource defined
 * again without its generated writer. Both write the same
 * text (checked first). And members of a shape (docs/member-shape.md), each written two ways that
 * write the same text (checked first): `properties[]=payload`, written once from the row by the
 * request's shape (runtime/src/hydra/member-shape.ts) or written whole by the generated writer and
 * then picked (the shape of a resource made by hand, whose own writer it cannot pass by); a caller
 * whose rules hide `createdAt` (a field amid others), or `payload` (the last, whose deletion V8
 * undoes cheaply), written once by the shape or written whole and the field deleted.
 * CPU µs a page (`process.cpuUsage()`), `PAGES` pages a measure after as many for warm-up,
 * `ROUNDS` rounds each measuring the writers in a rotating order; the median over the rounds and
 * its range.
 *
 *   npm run bench:members
 *   BENCH_MEMBERS_ROUNDS=3 BENCH_MEMBERS_PAGES=5000 npm run bench:members   # quick
 */
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3'
import { defineResource } from '@prisma-hydra/runtime/generated'
// The built module the generated resource's own runtime loads: the same module instances.
import { memberShape } from '../runtime/dist/hydra/member-shape.js'
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
const page = (write: Write) => JSON.stringify(rows.map((row) => write(row, '')))

/** The member writer of a shape: `properties[]=payload`, or the caller's rules hiding a field. */
function shaped(resource: typeof eventResource, selected: boolean, hidden: string[] = []): Write {
  const shape = memberShape({
    resource,
    requested: selected ? { names: new Set(['payload']), embeds: new Map() } : undefined,
    declared: undefined,
    hiding: { hidden: new Set(hidden), hiddenOf: () => new Set() },
    base: '',
    hydraPrefix: true,
  })
  return (row) => shape.write(row)
}

/** The generated writer's member with the field `name` deleted, as hidden fields were. */
const deleting =
  (name: 'createdAt' | 'payload'): Write =>
  (row, base) => {
    const member: Partial<ReturnType<typeof eventResource.toMember>> = eventResource.toMember(
      row,
      base
    )
    delete member[name]
    return member
  }

const writers = {
  generated: (row, base) => eventResource.toMember(row, base),
  generic: (row, base) => generic.toMember(row, base),
  selectedOnce: shaped(eventResource, true),
  // A resource made by hand: its shape picks the properties from the member its writer writes.
  selectedPicked: shaped({ ...eventResource }, true),
  dateHiddenOnce: shaped(eventResource, false, ['createdAt']),
  dateHiddenDeleted: deleting('createdAt'),
  lastHiddenOnce: shaped(eventResource, false, ['payload']),
  lastHiddenDeleted: deleting('payload'),
} satisfies Record<string, Write>
type Writer = keyof typeof writers
const same: readonly (readonly [Writer, Writer])[] = [
  ['generated', 'generic'],
  ['selectedOnce', 'selectedPicked'],
  ['dateHiddenOnce', 'dateHiddenDeleted'],
  ['lastHiddenOnce', 'lastHiddenDeleted'],
]
for (const [one, other] of same)
  if (page(writers[one]) !== page(writers[other]))
    throw new Error(`the ${one} and the ${other} writers write different members`)

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

const names = Object.keys(writers) as Writer[]
const runs: Array<Record<Writer, number>> = []
for (let round = 0; round < ROUNDS; round++) {
  const order = [...names.slice(round % names.length), ...names.slice(0, round % names.length)]
  const run = Object.fromEntries(names.map((name) => [name, 0])) as Record<Writer, number>
  for (const name of order) run[name] = measure(writers[name])
  runs.push(run)
}

const us = (value: Spread) => shownSpread(value, 1)
const of = (name: Writer) => spread(runs.map((run) => run[name]))
/** The ratio of `name` to `base`, round by round. */
const ratio = (name: Writer, base: Writer) =>
  shownSpread(spread(runs.map((run) => run[name] / run[base])), 2)
console.log(
  names.map((name) => `${name} ${median(runs.map((run) => run[name])).toFixed(1)} µs`).join(', ')
)

await writeSection(
  'members',
  `## Members written by the generated writer

\`npm run bench:members\` (bench/members.ts): 30 events of bench/schema.prisma (an Int key, a date, a text) written as members and stringified as a page writer does, by the writer the generator writes for the resource and by the runtime's generic writer (a loop over the description's fields and links), both writing the same text (checked first); CPU µs a page (\`process.cpuUsage()\`), ${PAGES} pages a measure after as many for warm-up, ${ROUNDS} rounds each measuring every writer in a rotating order, the median over the rounds and its range. Figures from a 2-core machine shared with other work (its load average in the last line): compare rows of one run.

| writer | CPU µs a page of 30 | / generic |
|---|---|---|
| generated (one object literal a row) | ${us(of('generated'))} | ${ratio('generated', 'generic')} |
| generic (a loop over the fields) | ${us(of('generic'))} | 1.00 |

Members of a shape (docs/member-shape.md), the same page written two ways that write the same text (checked first): once from the row by the request's shape (runtime/src/hydra/member-shape.ts), or whole by the generated writer and then reshaped, as members were before the shape wrote them once (the selected properties picked into a new member; the hidden field deleted).

| shape | written once (CPU µs a page of 30) | written whole, then reshaped | once / reshaped |
|---|---|---|---|
| \`properties[]=payload\` | ${us(of('selectedOnce'))} | ${us(of('selectedPicked'))} | ${ratio('selectedOnce', 'selectedPicked')} |
| \`createdAt\` hidden by the caller's rules | ${us(of('dateHiddenOnce'))} | ${us(of('dateHiddenDeleted'))} | ${ratio('dateHiddenOnce', 'dateHiddenDeleted')} |
| \`payload\` (the last field) hidden | ${us(of('lastHiddenOnce'))} | ${us(of('lastHiddenDeleted'))} | ${ratio('lastHiddenOnce', 'lastHiddenDeleted')} |

${machine()}`
)
