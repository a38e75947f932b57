/**
 * A page of 30 books with their authors' names (docs/member-shape.md), read three ways from the
 * example app over its seeded library (prisma/seed.ts) on a fresh SQLite file: the authors
 * embedded in the page (`/books?itemsPerPage=30&properties[]=title&properties[author][]=name`,
 * one request), the page and then one request per distinct author of it (what a client without
 * the property filter does, API Platform's admin among them), and the page alone, without the
 * authors. Both engines of the app. In-process through `app.request`, rounds interleaving every
 * read (the order reversed every other round), medians and their spread over the rounds; the
 * ratios are of medians within this one run. Then relations embedded by declaration, the same
 * way (bench/declared-embedding.ts), and a capped to-many embed over books of 1, 100 and 20,000
 * loans, on SQLite and the servers the environment names (bench/capped-embedding.ts). Writes its
 * section of bench/RESULTS.md.
 *
 *   npm run bench:embedding
 *   BENCH_EMBEDDING_ROUNDS=51 npm run bench:embedding    # a quick run
 *   BENCH_POSTGRES_URL=postgres://postgres@127.0.0.1:5432/test \
 *   BENCH_MARIADB_URL=mysql://root@127.0.0.1:3306/test npm run bench:embedding   # and the servers
 */
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { createApp } from '../example-app/src/app.js'
import { prepareDatabase } from '../example-app/src/database.js'
import { createPrismaClient } from '../example-app/src/prisma.js'
import { cappedEmbedding } from './capped-embedding.js'
import { targets } from './capped-embedding-databases.js'
import { declaredEmbedding } from './declared-embedding.js'
import { integers, median } from './load.js'
import { machine, writeSection } from './report.js'

const [ROUNDS = 201] = integers('BENCH_EMBEDDING_ROUNDS', '201')
const WARMUP = 5
const PAGE = '/books?itemsPerPage=30&page=2'
const EMBEDDED = `${PAGE}&properties[]=title&properties[author][]=name`

type App = ReturnType<typeof createApp>
type Body = { 'hydra:member': Array<{ author: string | { name: string } }> }

async function json(app: App, url: string): Promise<Body> {
  const response = await app.request(url)
  if (response.status !== 200) throw new Error(`${url}: ${response.status}`)
  return (await response.json()) as Body
}

/** The three reads, each answering the authors' names of the page (or none). */
const READS = {
  embedded: async (app: App) =>
    (await json(app, EMBEDDED))['hydra:member'].map(
      (book) => (book.author as { name: string }).name
    ),
  'one request per author': async (app: App) => {
    const page = await json(app, PAGE)
    const iris = [...new Set(page['hydra:member'].map((book) => book.author as string))]
    const names = new Map(
      await Promise.all(
        iris.map(async (iri) => {
          const author = (await json(app, iri)) as unknown as { name: string }
          return [iri, author.name] as const
        })
      )
    )
    return page['hydra:member'].map((book) => names.get(book.author as string) as string)
  },
  'the page alone': async (app: App) => {
    await json(app, PAGE)
    return []
  },
} as const
type Read = keyof typeof READS
const NAMES = Object.keys(READS) as Read[]

async function timeOf(run: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint()
  await run()
  return Number(process.hrtime.bigint() - start) / 1e6
}

const ms = (value: number) => (value < 10 ? value.toFixed(2) : value.toFixed(1))
const cell = (times: number[]) =>
  `${ms(median(times))} (${ms(Math.min(...times))}–${ms(Math.max(...times))})`

/** The command of this run: the settings and servers its environment gave, passwords hidden. */
function command(): string {
  const set = [
    'BENCH_EMBEDDING_ROUNDS',
    'BENCH_CAPPED_ROUNDS',
    'BENCH_CAPPED_LOANS',
    'BENCH_POSTGRES_URL',
    'DATABASE_URL_POSTGRES',
    'BENCH_MARIADB_URL',
    'DATABASE_URL_MARIADB',
  ].flatMap((name) => {
    const value = process.env[name]
    if (!value) return []
    if (!value.includes('://')) return [`${name}=${value}`]
    const url = new URL(value)
    if (url.password) url.password = '***'
    return [`${name}=${url}`]
  })
  return [...set, 'npm run bench:embedding'].join(' ')
}

async function main(): Promise<void> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'prisma-hydra-embedding-'))
  const url = `file:${path.join(folder, 'library.db')}`
  const prisma = createPrismaClient(url)
  const load = os.loadavg()[0] ?? 0
  // The servers are asked first: one that does not answer stops the run before any round.
  const databases = await targets()
  try {
    await prepareDatabase(prisma, url)
    const apps = {
      prisma: createApp(prisma),
      compiled: createApp(prisma, { engine: 'compiled' }),
    }
    const times = new Map<string, number[]>()
    for (const [engine, app] of Object.entries(apps)) {
      // The same names every way, before anything is timed.
      const expected = await READS['one request per author'](app)
      const embedded = await READS.embedded(app)
      if (JSON.stringify(embedded) !== JSON.stringify(expected))
        throw new Error(`${engine}: the embedded names differ from the authors' own`)
      for (const name of NAMES) times.set(`${engine} ${name}`, [])
    }
    const authors = new Set(
      (await json(apps.prisma, PAGE))['hydra:member'].map((book) => book.author)
    ).size
    for (let round = 0; round < WARMUP + ROUNDS; round++) {
      const order = Object.entries(apps).flatMap(([engine, app]) =>
        NAMES.map((name) => ({ key: `${engine} ${name}`, run: () => READS[name](app) }))
      )
      if (round % 2 === 1) order.reverse()
      for (const { key, run } of order) {
        const time = await timeOf(run)
        if (round >= WARMUP) times.get(key)?.push(time)
      }
    }
    const rows = Object.keys(apps).map((engine) => {
      const of = (name: Read) => times.get(`${engine} ${name}`) as number[]
      const alone = median(of('the page alone'))
      const embedded = median(of('embedded'))
      const perAuthor = median(of('one request per author'))
      return `| ${engine} | ${cell(of('embedded'))} | ${cell(of('one request per author'))} | ${cell(of('the page alone'))} | ${(embedded / alone).toFixed(2)} | ${(perAuthor / embedded).toFixed(1)} |`
    })
    const declared = await declaredEmbedding(ROUNDS, WARMUP)
    const capped = await cappedEmbedding(databases)
    const end = os.loadavg()[0] ?? 0
    await writeSection(
      'embedding',
      `## A page with its authors: embedded, one request per author, or without them

Generated by \`${command()}\` at the repository root (bench/embedding.ts).

- ${machine()}; load average (1 min) ${load.toFixed(2)} before the run, ${end.toFixed(2)} at its end (all three tables)
- the example app over its seeded library on a fresh SQLite file; page 2 of \`/books\` at 30 a page, whose books have ${authors} distinct authors
- embedded: \`${EMBEDDED}\` (one request, the names read by the page's own query); one request per author: \`${PAGE}\`, then each author's item, all at once (\`Promise.all\`); the page alone: \`${PAGE}\`; both ways answer the same names (checked first)
- on the \`compiled\` app, the embedded read joins the authors in the page's own statement (docs/member-shape.md), as the page alone and the authors' items are compiled
- in-process (\`app.request\`, no network), ${WARMUP} warm-up rounds, then ${ROUNDS} rounds interleaving every read of both engines (the order reversed every other round); a cell is the median time and the range over the rounds

| engine | embedded (ms) | one request per author (ms) | the page alone (ms) | embedded / page alone | per author / embedded |
|---|---:|---:|---:|---:|---:|
${rows.join('\n')}

${declared}

${capped}`
    )
    console.log(rows.join('\n'))
    console.log(declared)
    console.log(capped)
  } finally {
    await prisma.$disconnect()
    await rm(folder, { recursive: true, force: true })
  }
}

await main()
