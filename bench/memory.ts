/**
 * Peak memory of the server while it serves a whole collection: `/events/all` (paging
 * disabled, streamed in keyset batches) at 10,000 and 1,000,000 rows, each in a fresh server
 * process, against `/buffered` (the same rows read by one `findMany` and written by one
 * `JSON.stringify`) measured in the same run. Target: the 1,000,000-row streamed response adds
 * less than 50 MB of peak RSS over the 10,000-row one. Writes its section of bench/RESULTS.md.
 *
 *   npm run bench:memory
 *   BENCH_MEMORY_RUNS=1 npm run bench:memory   # a quick run
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { machine, writeSection } from './report.js'
import { prepareDatabase } from './setup.js'

const SIZES = [10_000, 100_000, 1_000_000] as const
/** Paged requests a warmed-up server has answered before it is measured. */
const WARMUP_REQUESTS = 2000
const { BENCH_MEMORY_RUNS } = process.env
const RUNS = Number(BENCH_MEMORY_RUNS ?? 3)
const TARGET_MB = 50
const MODES = [
  { mode: 'streamed', label: 'streamed (generated, D5)', path: '/events/all', warm: true },
  { mode: 'reads', label: 'the same reads, nothing sent', path: '/read-only', warm: true },
  {
    mode: 'kept',
    label: 'the same reads, batches not emptied',
    path: '/read-only?kept',
    warm: true,
  },
  { mode: 'buffered', label: 'buffered (one findMany)', path: '/buffered', warm: true },
  { mode: 'fresh', label: 'streamed, fresh process', path: '/events/all', warm: false },
] as const
type Mode = (typeof MODES)[number]['mode']

const SERVER = fileURLToPath(new URL('./memory-server.ts', import.meta.url))
const MB = 1024 * 1024

interface Measure {
  /** Peak RSS once started (and warmed up), before the measured response (bytes). */
  idle: number
  /** Peak RSS after the whole response (bytes). */
  peak: number
  seconds: number
  bytes: number
}

async function startServer(url: string): Promise<{ child: ChildProcess; origin: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER, url], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream })
  for await (const line of lines) {
    const match = /^listening (\d+)$/.exec(line)
    if (match) return { child, origin: `http://127.0.0.1:${match[1]}` }
  }
  throw new Error('the server exited before listening')
}

async function peakOf(origin: string): Promise<number> {
  const response = await fetch(`${origin}/peak`)
  return ((await response.json()) as { maxRssKiB: number }).maxRssKiB * 1024
}

/** Reads a response to its end without keeping it; returns its size, first and last bytes. */
async function drain(response: Response): Promise<{ bytes: number; ends: string }> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader()
  const decoder = new TextDecoder()
  let bytes = 0
  let head = ''
  let tail = ''
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    bytes += value.byteLength
    const text = decoder.decode(value, { stream: true })
    if (head.length < 4096) head += text.slice(0, 4096 - head.length)
    tail = (tail + text).slice(-4096)
  }
  return { bytes, ends: `${head}${tail}` }
}

async function measure(url: string, rows: number, path: string, warm: boolean): Promise<Measure> {
  const { child, origin } = await startServer(url)
  try {
    // A server in service: it has answered paged requests, and its Prisma client and heap have
    // settled. A fresh process shows what the same response costs on top of its first queries.
    for (let request = 0; request < (warm ? WARMUP_REQUESTS : 1); request++) {
      const page = 1 + ((request * 7919) % Math.floor(rows / 30))
      const response = await fetch(`${origin}/events/partial?page=${page}`)
      if (response.status !== 200)
        throw new Error(`/events/partial?page=${page}: ${response.status}`)
      await response.arrayBuffer()
    }
    const idle = await peakOf(origin)
    const started = performance.now()
    const response = await fetch(`${origin}${path}`)
    if (response.status !== 200) throw new Error(`${path}: ${response.status}`)
    const { bytes, ends } = await drain(response)
    const seconds = (performance.now() - started) / 1000
    const total = /"hydra:totalItems":(\d+)/.exec(ends)?.[1]
    if (Number(total) !== rows) {
      throw new Error(
        `${path}: no "hydra:totalItems":${rows} in ${ends.slice(0, 200)}...${ends.slice(-200)}`
      )
    }
    const peak = await peakOf(origin)
    return { idle, peak, seconds, bytes }
  } finally {
    child.kill()
    await once(child, 'exit')
  }
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2
}

const urls = new Map<number, string>()
for (const rows of SIZES) {
  const started = performance.now()
  const { url, built } = await prepareDatabase(rows)
  console.log(
    `${built ? 'Built' : 'Reused'} ${url} (${rows.toLocaleString('en')} rows, ${((performance.now() - started) / 1000).toFixed(1)} s)`
  )
  urls.set(rows, url)
}

const results = new Map<string, Measure[]>()
const keyOf = (mode: Mode, rows: number) => `${mode} ${rows}`
for (let run = 1; run <= RUNS; run++) {
  for (const rows of SIZES) {
    for (const { mode, path, warm } of MODES) {
      const result = await measure(urls.get(rows) as string, rows, path, warm)
      const list = results.get(keyOf(mode, rows)) ?? []
      list.push(result)
      results.set(keyOf(mode, rows), list)
      console.log(
        `run ${run}: ${mode} ${rows.toLocaleString('en')} rows: peak ${(result.peak / MB).toFixed(1)} MB (idle ${(result.idle / MB).toFixed(1)} MB), ${result.seconds.toFixed(1)} s, ${(result.bytes / MB).toFixed(1)} MB sent`
      )
    }
  }
}

const summary = (mode: Mode, rows: number) => {
  const list = results.get(keyOf(mode, rows)) ?? []
  return {
    idle: median(list.map((m) => m.idle)) / MB,
    peak: median(list.map((m) => m.peak)) / MB,
    seconds: median(list.map((m) => m.seconds)),
    bytes: median(list.map((m) => m.bytes)) / MB,
  }
}
const small = SIZES[0]
const large = SIZES[SIZES.length - 1] as number
/** What one response adds over its server's own peak before it (MB). */
const own = (mode: Mode, rows: number) => summary(mode, rows).peak - summary(mode, rows).idle
const growth = (mode: Mode) => summary(mode, large).peak - summary(mode, small).peak
const streamedGrowth = growth('streamed')
const bufferedGrowth = growth('buffered')
const freshGrowth = growth('fresh')
const readsGrowth = growth('reads')
const keptGrowth = growth('kept')
const middle = SIZES[1] as number
const plateau = (mode: Mode) => summary(mode, large).peak - summary(mode, middle).peak
const met = streamedGrowth < TARGET_MB

const table = [
  '| response | rows | body (MB) | time (s) | peak RSS before (MB) | peak RSS (MB) | peak − before (MB) |',
  '|---|---:|---:|---:|---:|---:|---:|',
  ...MODES.flatMap(({ mode, label }) =>
    SIZES.map((rows) => {
      const s = summary(mode, rows)
      return `| ${label} | ${rows.toLocaleString('en')} | ${s.bytes.toFixed(1)} | ${s.seconds.toFixed(2)} | ${s.idle.toFixed(1)} | ${s.peak.toFixed(1)} | ${(s.peak - s.idle).toFixed(1)} |`
    })
  ),
].join('\n')

const report = `## Peak memory of an unpaged response

Generated by \`${RUNS === 3 ? '' : `BENCH_MEMORY_RUNS=${RUNS} `}npm run bench:memory\` at the repository root (bench/memory.ts, server bench/memory-server.ts).

- ${machine()}
- \`Event\` rows in SQLite (bench/.data/), about ${Math.round((summary('streamed', large).bytes * MB) / large)} bytes of JSON each; every measurement in a fresh server process (\`node --import tsx bench/memory-server.ts\`): warmed up by ${WARMUP_REQUESTS.toLocaleString('en')} paged requests (\`/events/partial?page=…\`), except the "fresh process" rows (one request), then one whole-collection request read to its end by a client in another process. Peak RSS is the server's \`process.resourceUsage().maxRSS\`; each figure is the median of ${RUNS} runs, interleaved
- streamed: \`GET /events/all\` on the generated app (paging disabled, read in keyset batches of 500, each written as it arrives and then emptied); buffered: \`GET /buffered\`, the same rows and members from one \`findMany\` and one \`JSON.stringify\`, as served without D5

${table}

**Target: the ${large.toLocaleString('en')}-row streamed response adds less than ${TARGET_MB} MB of peak RSS over the ${small.toLocaleString('en')}-row one (servers in service): ${streamedGrowth.toFixed(1)} MB, ${met ? 'met' : 'NOT MET'}.** The servers' own peaks before the request vary by tens of MB from one process to the next (the "peak RSS before" column: the warm-up's paged queries set them), so this difference is within that noise; measured from each server's own peak instead, the streamed response adds ${own('streamed', small).toFixed(1)} MB at ${small.toLocaleString('en')} rows and ${own('streamed', large).toFixed(1)} MB at ${large.toLocaleString('en')} rows (${(own('streamed', large) - own('streamed', small)).toFixed(1)} MB more). Buffered, the same step adds ${bufferedGrowth.toFixed(1)} MB (from its own peak: ${own('buffered', large).toFixed(1)} MB at ${large.toLocaleString('en')} rows); in a fresh process the streamed step adds ${freshGrowth.toFixed(1)} MB.

From ${middle.toLocaleString('en')} to ${large.toLocaleString('en')} rows (ten times the data) the streamed peak moves by ${plateau('streamed').toFixed(1)} MB, the buffered one by ${plateau('buffered').toFixed(1)} MB. The "nothing sent" rows are the same keyset batches read through the Prisma client, with no serialization and no HTTP: emptied once read, as the streamed response empties each batch once written, they step up by ${readsGrowth.toFixed(1)} MB from ${small.toLocaleString('en')} to ${large.toLocaleString('en')} rows; left as the client returns them ("batches not emptied"), by ${keptGrowth.toFixed(1)} MB. The client's promise of each query keeps its result reachable through an object with a getter, which V8 keeps alive through young-generation collections even once it is garbage: every row read is promoted, and the old generation fills with garbage that only a full collection frees (garbage, not data held: the live heap stays small). Emptying a batch once its members are written lets its rows die young (\`releaseBatch\`, runtime/src/paging/batches.ts). The serialization and the writes add ${(streamedGrowth - readsGrowth).toFixed(1)} MB on top of the reads. `

await writeSection('memory', report)
console.log(`\n${table}\n`)
console.log(
  `streamed growth ${streamedGrowth.toFixed(1)} MB (target < ${TARGET_MB} MB: ${met ? 'met' : 'NOT MET'}); buffered ${bufferedGrowth.toFixed(1)} MB; fresh process ${freshGrowth.toFixed(1)} MB`
)
console.log('Written to bench/RESULTS.md')
