/**
 * Why the `prisma` engine's cursor page on MariaDB is no faster than Prisma's own `cursor` at
 * 1,000,000 rows, where on SQLite and PostgreSQL it is many times faster: the statements each sends
 * for the cursor page of bench:peers (30 % of the table deep), as their Prisma client logs them, run
 * under MariaDB's `ANALYZE FORMAT=JSON` (the plan, the rows each step read, its time), beside the
 * row-value comparison `(createdAt, id) <= (…)` a keyset page could be written as; then each run
 * `RUNS` times through the driver, server time a statement.
 *
 *   BENCH_MARIADB_URL=mysql://root@127.0.0.1:3306/test npm run bench:mariadb-cursor
 *
 * Settings: BENCH_MARIADB_CURSOR_ROWS (1000000), BENCH_MARIADB_CURSOR_RUNS (200).
 */
import { PrismaMariaDb } from '@prisma/adapter-mariadb'
import { createConnection } from 'mariadb'
import { createHydraApp } from './.generated-mysql/hydra/index.js'
import { PrismaClient } from './.generated-mysql/prisma/client.js'
import { integers, median } from './load.js'
import { feedLink, PER_PAGE } from './peers-documents.js'
import { machine, writeSection } from './report.js'
import { eventRow } from './setup.js'
import { prepareMariadbDatabase } from './setup-servers.js'

const env = process.env
const server = env.BENCH_MARIADB_URL
if (!server) throw new Error('BENCH_MARIADB_URL (mysql://…) names the MariaDB server')
const [ROWS = 1_000_000] = integers('BENCH_MARIADB_CURSOR_ROWS', '1000000')
const [RUNS = 200] = integers('BENCH_MARIADB_CURSOR_RUNS', '200')
const { url } = await prepareMariadbDatabase(server, ROWS)
// The cursor page of bench:peers: the rows after the one 30 % of the table deep.
const position = eventRow(ROWS - Math.round(ROWS * 0.3) + 1)

/** A statement as the client logged it, its parameters as the driver would send them. */
interface Logged {
  sql: string
  params: unknown[]
}
const logged: Logged[] = []
const prisma = new PrismaClient({
  adapter: new PrismaMariaDb(url),
  log: [{ emit: 'event', level: 'query' }],
})
prisma.$on('query', (event) => logged.push({ sql: event.query, params: JSON.parse(event.params) }))
const lastStatement = (): Logged => {
  const found = logged.at(-1)
  if (!found) throw new Error('the client logged no statement')
  return found
}

const response = await createHydraApp({ prisma }).fetch(
  new Request(`http://localhost${feedLink(position, 'lt')}`)
)
if (response.status !== 200) throw new Error(`the feed answered ${response.status}`)
const ours = lastStatement()
await prisma.event.findMany({
  select: { id: true, createdAt: true, payload: true },
  orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
  cursor: { id: position.id },
  skip: 1,
  take: PER_PAGE + 1,
})
const prismaCursor = lastStatement()
await prisma.$disconnect()

// As @prisma/adapter-mariadb sends them: a date as UTC text, LIMIT and OFFSET as numbers.
const driverValue = (value: unknown): unknown =>
  typeof value === 'string' && /^\d{4}-\d\d-\d\dT/.test(value)
    ? value.replace('T', ' ').replace(/Z$/, '')
    : typeof value === 'string' && /^\d+$/.test(value)
      ? Number(value)
      : value
const STATEMENTS: Record<string, Logged> = {
  'the `prisma` engine: the position expanded, `createdAt <= ? AND (createdAt < ? OR id <= ?)`':
    ours,
  "Prisma's own `cursor: { id }, skip: 1`: the cursor row's values read by subqueries":
    prismaCursor,
  'the row-value comparison `(createdAt, id) <= (?, ?)`': {
    sql: 'SELECT `id`, `createdAt`, `payload` FROM `Event` WHERE (`createdAt`, `id`) <= (?, ?) ORDER BY `createdAt` DESC, `id` DESC LIMIT ?',
    params: [position.createdAt.toISOString(), position.id, PER_PAGE + 2],
  },
}

interface PlanTable {
  table_name?: string
  access_type?: string
  key?: string
  r_rows?: number
  r_total_time_ms?: number
}
/** The tables of an ANALYZE FORMAT=JSON plan, subqueries included. */
function tablesOf(node: unknown, found: PlanTable[] = []): PlanTable[] {
  if (Array.isArray(node)) for (const child of node) tablesOf(child, found)
  else if (node && typeof node === 'object') {
    const record = node as Record<string, unknown>
    if (record.table && typeof record.table === 'object') found.push(record.table as PlanTable)
    for (const [key, child] of Object.entries(record)) if (key !== 'table') tablesOf(child, found)
  }
  return found
}

const connection = await createConnection(url.replace(/^mysql:/, 'mariadb:'))
const rows: string[] = []
for (const [label, { sql, params }] of Object.entries(STATEMENTS)) {
  const values = params.map(driverValue)
  const [plan] = (await connection.query(`ANALYZE FORMAT=JSON ${sql}`, values)) as Array<
    Record<string, string>
  >
  const tables = tablesOf(JSON.parse(Object.values(plan ?? {})[0] ?? '{}'))
  const main = tables[0] ?? {}
  const times: number[] = []
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now()
    await connection.execute(sql, values)
    times.push((performance.now() - started) * 1000)
  }
  rows.push(
    `| ${label} | ${main.access_type} on ${main.key} | ${main.r_rows} | ${tables.length - 1} | ${median(times).toFixed(0)} |`
  )
}
await connection.end()

const markdown = `## MariaDB's cursor page: the statements and their plans

\`BENCH_MARIADB_URL=mysql://root@127.0.0.1:3306/test npm run bench:mariadb-cursor\` (bench/mariadb-cursor.ts): the cursor page of bench:peers on the ${ROWS.toLocaleString('en')}-event table (the ${PER_PAGE} rows after id ${position.id}, 30 % deep), each statement as its Prisma client logged it, under \`ANALYZE FORMAT=JSON\` (the main table's access and the rows it read; subqueries resolved once), then executed ${RUNS} times through the \`mariadb\` driver (median µs a statement, wall time on the shared 2-core machine: compare the rows).

| statement | access | rows read | subqueries | µs a statement |
|---|---|---:|---:|---:|
${rows.join('\n')}

${machine()}
`
await writeSection('mariadb-cursor', markdown)
process.stdout.write(markdown)
