/**
 * What a validator costs a response (docs/hydra.md#http-caching): the generated routes of
 * bench/schema.prisma on SQLite (10,000 events), asked in-process through the app's `fetch` (no
 * network: what is measured is the server's work), CPU time (user + system, `process.cpuUsage()`)
 * over `REQUESTS` responses, for three responses written whole:
 *
 * - `200`: the response as served, body read to the end;
 * - `304`: the same request with `If-None-Match` naming its tag (the page is still read and
 *   rendered; the body is neither sent nor read);
 * - `hash`: the ETag alone (`entityTag`) of that response's body, the whole of what the validator
 *   adds to a `200` besides one header.
 *
 * Without the validator a `200` would cost `200 − hash`; the ratio `200 / (200 − hash)` is the
 * price of the validator, within each round, then the median and range over the rounds. Writes its
 * section of bench/RESULTS.md.
 *
 *   npm run bench:validators
 *   BENCH_VALIDATORS_ROUNDS=2 BENCH_VALIDATORS_REQUESTS=500 npm run bench:validators   # quick
 */
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3'
// The validator the routes compute, priced alone. No entry exports it, nor should: applications
// get ETags from the routes and hydraCollection; the entries are what applications write (40 names
// at most), what generated modules import and what the generator shares.
import { entityTag } from '../runtime/src/hono/response/http-cache.js'
import { createHydraApp } from './.generated/hydra/index.js'
import { PrismaClient } from './.generated/prisma/client.js'
import { cpuPer, integers, type Spread, shownSpread, spread } from './load.js'
import { machine, writeSection } from './report.js'
import { prepareDatabase } from './setup.js'

const [ROUNDS = 5] = integers('BENCH_VALIDATORS_ROUNDS', '5')
const [REQUESTS = 2000] = integers('BENCH_VALIDATORS_REQUESTS', '2000')
const ROWS = 10_000
const TARGETS = [
  { label: 'full page 2 (30 events and a count)', path: '/events?page=2' },
  { label: 'partial page 2 (30 events)', path: '/events/partial?page=2' },
  { label: 'an item', path: '/events/4321' },
] as const

type Fetch = (request: Request) => Response | Promise<Response>

async function measure(fetch: Fetch, path: string) {
  const url = `http://localhost${path}`
  const first = await fetch(new Request(url))
  const body = await first.text()
  const type = first.headers.get('content-type') ?? ''
  const tag = first.headers.get('etag')
  if (first.status !== 200 || !tag || entityTag(body, type) !== tag)
    throw new Error(`${path}: expected a 200 with its ETag, got ${first.status} ${tag}`)
  const conditional = { headers: { 'If-None-Match': tag } }
  const check = await fetch(new Request(url, conditional))
  if (check.status !== 304) throw new Error(`${path}: expected a 304, got ${check.status}`)
  const full = await cpuPer(REQUESTS, async () => (await fetch(new Request(url))).text())
  const notModified = await cpuPer(REQUESTS, async () =>
    (await fetch(new Request(url, conditional))).text()
  )
  const hash = await cpuPer(REQUESTS, () => entityTag(body, type))
  return { full, notModified, hash, bytes: Buffer.byteLength(body) }
}

const { url } = await prepareDatabase(ROWS)
const prisma = new PrismaClient({ adapter: new PrismaBetterSqlite3({ url }) })
const app = createHydraApp({ prisma })
const fetch: Fetch = (request) => app.fetch(request)

const results = new Map<string, Array<Awaited<ReturnType<typeof measure>>>>()
for (let round = 0; round < ROUNDS; round++) {
  // Rotated order: a target is not always measured first (warm-up) or last.
  const order = TARGETS.map((_, index) => TARGETS[(index + round) % TARGETS.length])
  for (const target of order) {
    if (!target) continue
    const runs = results.get(target.path) ?? []
    runs.push(await measure(fetch, target.path))
    results.set(target.path, runs)
    process.stdout.write('.')
  }
}
process.stdout.write('\n')
await prisma.$disconnect()

const us = (value: Spread) => shownSpread(value, 1)
const ratio = (value: Spread) => shownSpread(value, 3)
const rows = TARGETS.map(({ label, path }) => {
  const runs = results.get(path) ?? []
  const pick = (key: 'full' | 'notModified' | 'hash') => spread(runs.map((run) => run[key]))
  const price = spread(runs.map((run) => run.full / (run.full - run.hash)))
  const saved = spread(runs.map((run) => run.notModified / run.full))
  return `| ${label} (\`${path}\`) | ${runs[0]?.bytes ?? 0} | ${us(pick('full'))} | ${us(pick('hash'))} | ${ratio(price)} | ${us(pick('notModified'))} | ${ratio(saved)} |`
})

const markdown = `## What a validator costs a response

\`npm run bench:validators\` (bench/validators.ts): the generated routes of bench/schema.prisma on SQLite (${ROWS.toLocaleString('en')} events), asked in-process through the app's \`fetch\`, ${REQUESTS.toLocaleString('en')} responses a measure, ${ROUNDS} rounds in a rotating order; CPU µs a response (\`process.cpuUsage()\`, user + system), the median over the rounds and its range. \`hash\` is the ETag alone (SHA-256 of the body and its type), all a validator adds to a \`200\` besides one header; with / without is \`200 / (200 − hash)\` within each round. A \`304\` still reads and renders the page: it saves the transfer and the client's parse, not the query.

| response | body bytes | \`200\` CPU µs | \`hash\` CPU µs | with / without ETag | \`304\` CPU µs | \`304\` / \`200\` |
|---|---|---|---|---|---|---|
${rows.join('\n')}

${machine()}
`
await writeSection('validators', markdown)
process.stdout.write(markdown)
