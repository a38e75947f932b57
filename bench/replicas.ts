/**
 * What a read replica takes off the primary, and the app's CPU time a response, with and without
 * one: the example app (its PostgreSQL client) over a primary and a streaming standby this script
 * makes (example-app/test/support/pg-pair.ts: initdb and pg_basebackup on free ports, removed at
 * the end). The same requests go to an app without replicas and to one with the standby, in turns;
 * each server's statements are counted from its own statement log (`log_statement = 'all'`), and
 * the app's CPU time from `process.cpuUsage()` around each turn (requests in-process through
 * `app.request`: the database servers are other processes). Writes bench/RESULTS.md's section.
 *
 *   npx turbo run build generate --output-logs=errors-only && npm run bench:replicas
 *
 * Settings: BENCH_REPLICAS_ROUNDS (5), BENCH_REPLICAS_REQUESTS (600 a turn).
 */
import os from 'node:os'
import { createApp } from '../example-app/src/app.js'
import { prepareDatabase } from '../example-app/src/database.js'
import { createPrismaClient } from '../example-app/src/prisma.js'
import { postgresPrograms, startPgPair } from '../example-app/test/support/pg-pair.js'
import { integers } from './load.js'
import { machine, writeSection } from './report.js'

const [ROUNDS = 5] = integers('BENCH_REPLICAS_ROUNDS', '5')
const [REQUESTS = 600] = integers('BENCH_REPLICAS_REQUESTS', '600')
/** One of each kind of read: item, full page (page + count), partial, cursor, sub-collection. */
const READS = ['/books/7', '/books?page=2', '/reviews?page=2', '/activities', '/authors/3/books']

/** Statements a server's log records (simple and extended protocol). */
const statements = (log: string) => log.match(/ LOG: {2}(statement|execute [^:]*):/g)?.length ?? 0

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] as number
}

async function main() {
  const { bin, missing } = await postgresPrograms()
  if (!bin) throw new Error(`bench:replicas needs PostgreSQL's server programs: ${missing}`)
  const loadBefore = os.loadavg()[0] as number
  const pair = await startPgPair(bin)
  const clients = [
    createPrismaClient(pair.primary.url),
    createPrismaClient(pair.primary.url),
    createPrismaClient(pair.primary.url),
    createPrismaClient(pair.standby.url),
  ]
  const [setup, alone, withReplica, replica] = clients as [
    (typeof clients)[0],
    (typeof clients)[0],
    (typeof clients)[0],
    (typeof clients)[0],
  ]
  try {
    await prepareDatabase(setup, pair.primary.url)
    await setup.$disconnect()
    const apps = {
      'primary only': createApp(alone),
      'primary + 1 replica': createApp(withReplica, { replicas: [replica] }),
    }
    const results = new Map<string, { cpu: number[]; primary: number[]; standby: number[] }>()
    const turn = async (name: keyof typeof apps, requests: number) => {
      const app = apps[name]
      const logs = [await pair.primary.log(), await pair.standby.log()]
      const cpu = process.cpuUsage()
      for (let i = 0; i < requests; i++) {
        const response = await app.request(READS[i % READS.length] as string)
        if (response.status !== 200) throw new Error(`${name}: ${response.status}`)
        await response.arrayBuffer()
      }
      const used = process.cpuUsage(cpu)
      // The servers write their logs as they go; a moment for the last lines.
      await new Promise((resolve) => setTimeout(resolve, 200))
      const [primary, standby] = [await pair.primary.log(), await pair.standby.log()]
      return {
        cpu: (used.user + used.system) / requests,
        primary: statements(primary.slice((logs[0] as string).length)) / requests,
        standby: statements(standby.slice((logs[1] as string).length)) / requests,
      }
    }
    for (const name of Object.keys(apps) as Array<keyof typeof apps>) await turn(name, 300)
    for (let round = 0; round < ROUNDS; round++) {
      const order = Object.keys(apps) as Array<keyof typeof apps>
      if (round % 2 === 1) order.reverse()
      for (const name of order) {
        const figures = await turn(name, REQUESTS)
        const known = results.get(name) ?? { cpu: [], primary: [], standby: [] }
        known.cpu.push(figures.cpu)
        known.primary.push(figures.primary)
        known.standby.push(figures.standby)
        results.set(name, known)
      }
    }
    const rows = [...results].map(([name, figures]) => {
      const range = (values: number[], digits: number) =>
        `${median(values).toFixed(digits)} (${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)})`
      return `| ${name} | ${range(figures.cpu, 0)} | ${range(figures.primary, 2)} | ${range(figures.standby, 2)} |`
    })
    const [first, second] = [...results.values()]
    if (!first || !second) throw new Error('bench:replicas measures two apps')
    const overlap =
      Math.max(...first.cpu) >= Math.min(...second.cpu) &&
      Math.max(...second.cpu) >= Math.min(...first.cpu)
    const cpuNote = overlap
      ? "The CPU ranges overlap at this machine's load (above): the difference of the medians is not established by this run; rerun it on a quiet machine."
      : 'The CPU ranges do not overlap: compare the medians.'
    const markdown = `## Read replicas: what they take off the primary

Generated by \`npx turbo run build generate --output-logs=errors-only && npm run bench:replicas\` at the repository root (bench/replicas.ts).

- ${machine()}; load average (1 min) ${loadBefore.toFixed(2)} before the run, ${(os.loadavg()[0] as number).toFixed(2)} at its end (its own load included)
- the example app on PostgreSQL ${bin.match(/\d+/)?.[0] ?? ''} (its seed: 120 books, 300 reviews, 500 activities), a primary and a streaming standby made by the run on this machine; requests in-process through \`app.request\`, one at a time, in turns of ${REQUESTS} over ${READS.map((read) => `\`${read}\``).join(', ')}; ${ROUNDS} rounds, the two apps' turns alternating in order
- CPU: the app process's user + system time a response (\`process.cpuUsage()\` around each turn); statements: each server's \`log_statement = 'all'\` lines during the turn, a request (the page-and-count transaction is its \`BEGIN\`, isolation, read-only, page, count and \`COMMIT\`)

| app | CPU µs a response, median (range) | statements on the primary a request | statements on the standby a request |
|---|---:|---:|---:|
${rows.join('\n')}

With the replica, every read of these routes leaves the primary (0 statements there): the primary is left to the application's writes. The replica's page-and-count transaction has one statement more than the primary's (\`SET TRANSACTION READ ONLY\`). ${cpuNote}
`
    await writeSection('replicas', markdown)
    process.stdout.write(markdown)
  } finally {
    for (const client of clients) await client.$disconnect().catch(() => undefined)
    await pair.stop()
  }
}

await main()
