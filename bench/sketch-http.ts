/**
 * The sketch of an emitted response writer (bench/route-sketch.ts) over HTTP, its rows through the
 * Prisma client and through the floor's plain SQL on the driver, beside the generated route on
 * both engines, the hand-written Prisma route and the floor of bench:peers, on each database of
 * the run: the partial
 * page 2 of the 10,000-event table, every server answering the same status, type, `Link` and body
 * (checked first). Each server in its own process on @hono/node-server; `RUNS` runs in a rotating
 * order, each a warm-up and `AMOUNT` requests over 10 connections; the server's CPU µs a response
 * (`process.cpuUsage()` before and after) and its rate, the median over the runs and its range, and
 * each over the hand-written route's and the floor's within a run.
 *
 *   BENCH_POSTGRES_URL=postgres://postgres@127.0.0.1:5432/test BENCH_MARIADB_URL=mysql://root@127.0.0.1:3306/test npm run bench:sketch
 *
 * Settings: BENCH_SKETCH_RUNS (5), BENCH_SKETCH_REQUESTS (3000).
 */
import { fileURLToPath } from 'node:url'
import {
  checkSame,
  cpuTime,
  integers,
  loadTurn,
  rotated,
  type Server,
  shownSpread,
  spread,
  startServer,
  stopServers,
} from './load.js'
import { machine, writeSection } from './report.js'
import { prepareDatabase } from './setup.js'
import { prepareMariadbDatabase, preparePostgresDatabase } from './setup-servers.js'

const [RUNS = 5] = integers('BENCH_SKETCH_RUNS', '5')
const [AMOUNT = 3000] = integers('BENCH_SKETCH_REQUESTS', '3000')
const ROWS = 10_000
const PATH = '/events/partial?page=2'
const env = process.env
const DATABASES = [
  { name: 'SQLite', prepare: () => prepareDatabase(ROWS) },
  ...(env.BENCH_POSTGRES_URL
    ? [
        {
          name: 'PostgreSQL',
          prepare: () => preparePostgresDatabase(env.BENCH_POSTGRES_URL as string, ROWS),
        },
      ]
    : []),
  ...(env.BENCH_MARIADB_URL
    ? [
        {
          name: 'MariaDB',
          prepare: () => prepareMariadbDatabase(env.BENCH_MARIADB_URL as string, ROWS),
        },
      ]
    : []),
]
const script = (name: string) => fileURLToPath(new URL(`./${name}`, import.meta.url))
const SERVERS = ['generated', 'sketch', 'handwritten', 'compiled', 'sketchDriver', 'floor'] as const
type Name = (typeof SERVERS)[number]
const LABELS: Record<Name, string> = {
  generated: 'generated (`prisma` engine)',
  sketch: 'sketch of an emitted writer, through Prisma',
  handwritten: 'hand-written Prisma',
  compiled: 'generated, compiled engine',
  sketchDriver: 'sketch of an emitted writer, on the driver',
  floor: 'floor (driver, plain SQL, node:http)',
}
/** How each server is started: bench/sketch-server.ts or bench/peers-server.ts. */
const started = (name: Name, url: string) =>
  name === 'sketch' || name === 'sketchDriver'
    ? startServer(script('sketch-server.ts'), [name === 'sketch' ? 'prisma' : 'driver', url])
    : startServer(script('peers-server.ts'), [name, url])

const lines: string[] = []
for (const database of DATABASES) {
  const { url } = await database.prepare()
  const servers = new Map<Name, Server>(
    await Promise.all(SERVERS.map(async (name) => [name, await started(name, url)] as const))
  )
  try {
    await checkSame(servers, PATH)
    const cpu = new Map<Name, number[]>()
    const rates = new Map<Name, number[]>()
    for (let run = 0; run < RUNS; run++) {
      for (const name of rotated(SERVERS, run)) {
        const server = servers.get(name) as Server
        await loadTurn(server.origin, PATH, { connections: 10, amount: AMOUNT / 5 })
        const before = await cpuTime(server.child)
        const measure = await loadTurn(server.origin, PATH, { connections: 10, amount: AMOUNT })
        const after = await cpuTime(server.child)
        cpu.set(name, [...(cpu.get(name) ?? []), (after - before) / measure.total])
        rates.set(name, [...(rates.get(name) ?? []), measure.perSecond])
      }
      process.stdout.write('.')
    }
    const within = (values: Map<Name, number[]>, name: Name, base: Name) =>
      spread(
        (values.get(name) ?? []).map((value, index) => value / (values.get(base)?.[index] ?? value))
      )
    for (const name of SERVERS) {
      lines.push(
        `| ${database.name} | ${LABELS[name]} | ${shownSpread(spread(rates.get(name) ?? []), 0)} | ${shownSpread(within(rates, name, 'handwritten'), 2)} | ${shownSpread(within(rates, name, 'floor'), 2)} | ${shownSpread(spread(cpu.get(name) ?? []), 0)} | ${shownSpread(within(cpu, name, 'handwritten'), 2)} |`
      )
    }
  } finally {
    await stopServers(servers.values())
  }
}
process.stdout.write('\n')

const markdown = `## The sketch of an emitted writer over HTTP

\`npm run bench:sketch\` (bench/sketch-http.ts), with \`BENCH_POSTGRES_URL\` and \`BENCH_MARIADB_URL\` set: \`${PATH}\` of the ${ROWS.toLocaleString('en')}-event table on each database, answered by the generated route (\`prisma\` and compiled engines), the sketch of a response writer emitted at generate time (bench/route-sketch.ts; its rows through the Prisma client, or through the floor's plain SQL on the driver: what the compiled engine could cost with such a writer), the hand-written Prisma route and the floor of bench:peers, each in its own process on @hono/node-server, all answering the same status, type, \`Link\` and body (checked first); ${RUNS} runs in a rotating order, each a warm-up of ${(AMOUNT / 5).toLocaleString('en')} requests and ${AMOUNT.toLocaleString('en')} measured, 10 connections. Requests per second and the server's CPU µs a response (\`process.cpuUsage()\`), the median over the runs and its range, and each over the hand-written route's (and the rate over the floor's) within a run. Figures from a 2-core machine shared with other work (its load average in the last line).

| database | route | requests per second | / hand-written | / floor | CPU µs a response | / hand-written |
|---|---|---|---|---|---|---|
${lines.join('\n')}

${machine()}
`
await writeSection('sketch', markdown)
process.stdout.write(markdown)
