/**
 * What keeping a page and its count in one snapshot costs, and what the alternatives would cost:
 * page 2 of the events (30 rows, newest first) and a plain `SELECT COUNT(*)`, read through the
 * generated Prisma client in-process, by `CONNECTIONS` concurrent loops for a few seconds each:
 *
 * - `transaction`: what the generated route does (docs/paging.md#totals): both in one batch
 *   `$transaction([...])` at the isolation level that makes it one snapshot (RepeatableRead on
 *   PostgreSQL, Serializable on SQLite), with the route's limits (10 s to start, 20 s to run);
 * - `batch`: the same batch at the database's default isolation (ReadCommitted on PostgreSQL:
 *   each statement its own snapshot), as Prisma's documentation writes page + count;
 * - `one statement` (PostgreSQL): the page's ids and the count in one statement (one snapshot),
 *   then the rows by id in a second one (their contents from a later snapshot);
 * - `serial`, `parallel`: the two statements without a transaction, one after the other or side
 *   by side (no common snapshot: a floor, not an option).
 *
 * Rounds rotate the order of the designs; a rate is the reads over the time from the start to the
 * last read; failed reads are counted by their error code. Writes its section of
 * bench/RESULTS.md.
 *
 *   BENCH_POSTGRES_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:snapshot
 *   BENCH_SNAPSHOT_SIZES=10000 BENCH_SNAPSHOT_ROUNDS=1 npm run bench:snapshot   # a quick run
 */
import os from 'node:os'
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3'
import { PrismaClient } from './.generated/prisma/client.js'
import { integers, rotated, type Spread, shownSpread, spread } from './load.js'
import { machine, writeSection } from './report.js'
import { prepareDatabase } from './setup.js'
import { preparePostgresDatabase } from './setup-servers.js'

const SIZES = integers('BENCH_SNAPSHOT_SIZES', '10000,1000000')
const [ROUNDS = 3] = integers('BENCH_SNAPSHOT_ROUNDS', '3')
const [SECONDS = 3] = integers('BENCH_SNAPSHOT_SECONDS', '3')
const CONNECTIONS = integers('BENCH_SNAPSHOT_CONNECTIONS', '10,100')
const { BENCH_POSTGRES_URL, BENCH_DATABASES } = process.env

// Both generated clients have the same API for this schema: the SQLite one's types serve both.
type Client = PrismaClient
const LIMITS = { maxWait: 10_000, timeout: 20_000 }
const select = { id: true, createdAt: true, payload: true } as const
const orderBy = [{ createdAt: 'desc' }, { id: 'desc' }] as const
const SKIP = 30
const TAKE = 30

type Read = (prisma: Client) => Promise<unknown>
const page = (prisma: Client) =>
  prisma.event.findMany({ select, orderBy: [...orderBy], skip: SKIP, take: TAKE })
const count = (prisma: Client) =>
  prisma.$queryRaw<{ total: bigint | number }[]>`SELECT COUNT(*) AS total FROM "Event"`

interface Design {
  id: string
  read: (isolation: 'Serializable' | 'RepeatableRead') => Read
  postgresqlOnly?: boolean
}
const DESIGNS: readonly Design[] = [
  {
    id: 'transaction',
    read: (isolationLevel) => (prisma) =>
      prisma.$transaction([page(prisma), count(prisma)], {
        // The SQLite client's types know only its own level; PostgreSQL's client takes its own.
        isolationLevel: isolationLevel as 'Serializable',
        ...LIMITS,
      }),
  },
  {
    id: 'batch',
    read: () => (prisma) => prisma.$transaction([page(prisma), count(prisma)], LIMITS),
  },
  {
    id: 'one statement',
    postgresqlOnly: true,
    read: () => async (prisma) => {
      const [head] = await prisma.$queryRaw<{ ids: number[]; total: bigint }[]>`
        WITH page AS (SELECT "id" FROM "Event" ORDER BY "createdAt" DESC, "id" DESC LIMIT ${TAKE} OFFSET ${SKIP})
        SELECT ARRAY(SELECT "id" FROM page) AS ids, (SELECT COUNT(*) FROM "Event") AS total`
      const rows = await prisma.event.findMany({
        select,
        orderBy: [...orderBy],
        where: { id: { in: head?.ids ?? [] } },
      })
      return [rows, Number(head?.total)]
    },
  },
  { id: 'serial', read: () => async (prisma) => [await page(prisma), await count(prisma)] },
  { id: 'parallel', read: () => (prisma) => Promise.all([page(prisma), count(prisma)]) },
]

interface Turn {
  perSecond: number
  done: number
  failures: Map<string, number>
}

/** `connections` loops reading with `read` for `SECONDS` seconds. */
async function turn(prisma: Client, read: Read, connections: number): Promise<Turn> {
  const failures = new Map<string, number>()
  let done = 0
  const started = performance.now()
  const end = started + SECONDS * 1000
  let last = started
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < end) {
        try {
          await read(prisma)
          done += 1
        } catch (error) {
          const code = String((error as { code?: unknown }).code ?? (error as Error).name)
          failures.set(code, (failures.get(code) ?? 0) + 1)
        }
        last = performance.now()
      }
    })
  )
  return { perSecond: done / ((last - started) / 1000), done, failures }
}

interface Database {
  id: string
  name: string
  isolation: 'Serializable' | 'RepeatableRead'
  open(rows: number): Promise<Client>
}
const DATABASES: Database[] = [
  {
    id: 'sqlite',
    name: 'SQLite',
    isolation: 'Serializable',
    async open(rows) {
      const { url } = await prepareDatabase(rows)
      return new PrismaClient({ adapter: new PrismaBetterSqlite3({ url }) })
    },
  },
  ...(BENCH_POSTGRES_URL
    ? [
        {
          id: 'postgresql',
          name: 'PostgreSQL',
          isolation: 'RepeatableRead' as const,
          async open(rows: number) {
            const { url } = await preparePostgresDatabase(BENCH_POSTGRES_URL, rows)
            const [{ PrismaPg }, generated] = await Promise.all([
              import('@prisma/adapter-pg'),
              import('./.generated-postgresql/prisma/client.js'),
            ])
            const prisma = new generated.PrismaClient({
              adapter: new PrismaPg({ connectionString: url }),
            })
            return prisma as unknown as Client
          },
        },
      ]
    : []),
]
const selected = DATABASES.filter(
  (database) => !BENCH_DATABASES || BENCH_DATABASES.split(',').includes(database.id)
)

interface Line {
  database: string
  rows: number
  connections: number
  turns: Map<string, Turn[]>
}
const loadBefore = os.loadavg()[0] as number
const lines: Line[] = []
for (const database of selected) {
  const designs = DESIGNS.filter((design) => !design.postgresqlOnly || database.id === 'postgresql')
  for (const rows of SIZES) {
    const prisma = await database.open(rows)
    try {
      const reads = new Map(designs.map((design) => [design.id, design.read(database.isolation)]))
      for (const read of reads.values()) for (let i = 0; i < 5; i++) await read(prisma)
      for (const connections of CONNECTIONS) {
        const line: Line = { database: database.name, rows, connections, turns: new Map() }
        for (let round = 0; round < ROUNDS; round++) {
          for (const design of rotated(designs, round)) {
            const measured = await turn(prisma, reads.get(design.id) as Read, connections)
            line.turns.set(design.id, [...(line.turns.get(design.id) ?? []), measured])
            console.log(
              `${database.name} ${rows} c${connections} ${design.id}: ${measured.perSecond.toFixed(1)}/s, ${measured.done} read, failed ${JSON.stringify([...measured.failures])}`
            )
          }
        }
        lines.push(line)
      }
    } finally {
      await prisma.$disconnect()
    }
  }
}

const rate = (value: number) => (value < 100 ? value.toFixed(1) : Math.round(value).toString())
const cell = (turns: Turn[] | undefined) => {
  if (!turns) return '–'
  const rates = spread(turns.map((t) => t.perSecond))
  const failures = new Map<string, number>()
  for (const t of turns)
    for (const [code, n] of t.failures) failures.set(code, (failures.get(code) ?? 0) + n)
  const failed = [...failures].map(([code, n]) => `${n} ${code}`).join(', ')
  return `${rate(rates.median)} (${rate(rates.min)}–${rate(rates.max)})${failed ? `, **failed: ${failed}**` : ''}`
}
/** Within each round: `id`'s rate over the transaction's. */
const overTransaction = (line: Line, id: string): Spread | undefined => {
  const of = line.turns.get(id)
  const base = line.turns.get('transaction')
  if (!of || !base) return undefined
  return spread(of.map((t, round) => t.perSecond / (base[round] as Turn).perSecond))
}
const table = [
  `| database | rows | conn. | ${DESIGNS.map((design) => design.id).join(' | ')} | ${DESIGNS.slice(
    1
  )
    .map((design) => `${design.id} / transaction`)
    .join(' | ')} |`,
  `|---|---:|---:|${DESIGNS.map(() => '---:').join('|')}|${DESIGNS.slice(1)
    .map(() => '---:')
    .join('|')}|`,
  ...lines.map(
    (line) =>
      `| ${line.database} | ${line.rows.toLocaleString('en')} | ${line.connections} | ${DESIGNS.map((design) => cell(line.turns.get(design.id))).join(' | ')} | ${DESIGNS.slice(
        1
      )
        .map((design) => shownSpread(overTransaction(line, design.id)))
        .join(' | ')} |`
  ),
].join('\n')

const settings = [
  'BENCH_DATABASES',
  'BENCH_SNAPSHOT_SIZES',
  'BENCH_SNAPSHOT_ROUNDS',
  'BENCH_SNAPSHOT_SECONDS',
  'BENCH_SNAPSHOT_CONNECTIONS',
]
  .map((name) => (process.env[name] ? `${name}=${process.env[name]} ` : ''))
  .join('')
await writeSection(
  'snapshot',
  `## The price of one snapshot for a page and its count

Generated by \`${BENCH_POSTGRES_URL ? 'BENCH_POSTGRES_URL=… ' : ''}${settings}npm run bench:snapshot\` at the repository root (bench/snapshot.ts, which says what each design reads).

- ${machine()}; load average (1 min) ${loadBefore.toFixed(2)} before the run, ${(os.loadavg()[0] as number).toFixed(2)} at its end; the machine is shared with other work
- page 2 of \`Event\` (30 rows, \`createdAt desc, id desc\`) and \`SELECT COUNT(*) FROM "Event"\` through the generated client in-process (\`@prisma/adapter-better-sqlite3\`; \`@prisma/adapter-pg\`, its pool of 10), by that many concurrent loops for ${SECONDS} s a turn, ${ROUNDS} rounds rotating the designs' order; a cell: reads a second, median and range over the rounds, failures by error code; a ratio: taken within each round, its median and range
- \`transaction\` is what the generated route reads; only it and \`one statement\` keep one snapshot on PostgreSQL (\`one statement\` only for the ids: the rows are read afterwards); \`batch\` does on SQLite (one connection: its transactions serialize), not on PostgreSQL

${table}
`
)
console.log(`\n${table}`)
