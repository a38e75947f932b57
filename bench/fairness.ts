/**
 * Fair streaming on SQLite (issue: one unpaged stream blocked every other request): the latency
 * of a probe, `GET /events/1`, sent one after another while clients read `/events/all` (200,000
 * rows, paging disabled, streamed in batches) as fast as loopback allows. Each mode runs in a fresh
 * server process: `yield` (streams pause with `setImmediate` between batches, the default) and
 * `no-yield` (the same server without the pause: the code before the change), with 1 and 4
 * concurrent streams. Writes its section of bench/RESULTS.md.
 *
 *   npm run bench:fairness
 *   BENCH_FAIRNESS_ROUNDS=1 npm run bench:fairness   # a quick run
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { Agent, request } from 'node:http'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { machine, writeSection } from './report.js'
import { prepareDatabase } from './setup.js'

const ROWS = 200_000
const { BENCH_FAIRNESS_ROUNDS } = process.env
const ROUNDS = Number(BENCH_FAIRNESS_ROUNDS ?? 3)
const MODES = ['no-yield', 'yield'] as const
const STREAMS = [1, 4] as const
const SERVER = fileURLToPath(new URL('./fairness-server.ts', import.meta.url))
const PROBE = '/events/1'

async function startServer(url: string, mode: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER, url, mode], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream })
  for await (const line of lines) {
    const match = /^listening (\d+)$/.exec(line)
    if (match) return { child, origin: `http://127.0.0.1:${match[1]}` }
  }
  throw new Error('the server exited before listening')
}

/** Reads a response to its end; its size in bytes. */
function read(agent: Agent | undefined, url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    request(url, { agent: agent ?? new Agent({ keepAlive: false }) }, (response) => {
      let bytes = 0
      response.on('data', (chunk: Buffer) => {
        bytes += chunk.length
      })
      response.on('end', () => resolve(bytes))
      response.on('error', reject)
    })
      .on('error', reject)
      .end()
  })
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN

interface Round {
  probes: number[]
  streamSeconds: number
  /** Streams answered in full (a blocked server may time a waiting request out: 408). */
  whole: number
}

/** Probes the server while `streams` clients read the whole collection. */
async function round(origin: string, streams: number): Promise<Round> {
  // A new connection per probe: a kept-alive one can be closed by the server's keep-alive timer
  // the moment a blocked event loop runs again, under a probe already sent.
  const agent = new Agent({ keepAlive: false, maxSockets: 1 })
  for (let i = 0; i < 50; i++) await read(agent, `${origin}${PROBE}`)
  const probes: number[] = []
  let streaming = true
  const started = performance.now()
  const readers = Promise.all(
    Array.from({ length: streams }, () => read(undefined, `${origin}/events/all`))
  ).then((sizes) => {
    streaming = false
    return sizes
  })
  // Every probe sent while a stream runs counts, also one answered only once they ended.
  while (streaming) {
    const sent = performance.now()
    await read(agent, `${origin}${PROBE}`)
    probes.push(performance.now() - sent)
  }
  const sizes = await readers
  agent.destroy()
  const whole = sizes.filter((size) => size >= ROWS * 50).length
  return { probes, streamSeconds: (performance.now() - started) / 1000, whole }
}

async function stop(child: ChildProcess) {
  child.kill()
  await new Promise((resolve) => child.once('exit', resolve))
}

const { url } = await prepareDatabase(ROWS)
const rows: string[] = []
for (const streams of STREAMS) {
  for (const mode of MODES) {
    const probes: number[] = []
    let seconds = 0
    let whole = 0
    for (let i = 0; i < ROUNDS; i++) {
      const { child, origin } = await startServer(url, mode)
      process.stderr.write(`${streams} stream(s), ${mode}, round ${i + 1}\n`)
      try {
        const result = await round(origin, streams)
        probes.push(...result.probes)
        seconds += result.streamSeconds
        whole += result.whole
      } finally {
        await stop(child)
      }
    }
    probes.sort((a, b) => a - b)
    const ms = (value: number) => value.toFixed(1)
    const line = `| ${streams} | ${mode === 'yield' ? 'pause between batches (current)' : 'no pause (before)'} | ${probes.length} | ${ms(percentile(probes, 50))} | ${ms(percentile(probes, 99))} | ${ms(probes[probes.length - 1] ?? Number.NaN)} | ${(seconds / ROUNDS).toFixed(2)} | ${whole} of ${streams * ROUNDS} |`
    process.stdout.write(`${line}\n`)
    rows.push(line)
  }
}

const markdown = `## Fairness: a probe during ${ROWS.toLocaleString('en')}-row streams on SQLite

\`npm run bench:fairness\` (${ROUNDS} rounds per row, a fresh server each). The latency of \`GET ${PROBE}\`, sent one after another while clients read \`/events/all\` (paging disabled, streamed in batches of 500) as fast as loopback allows; "no pause" is the same server with \`streamYield: false\`. ${machine()}.

| streams | server | probes | p50 (ms) | p99 (ms) | max (ms) | stream time (s) | streams served whole |
| --- | --- | --- | --- | --- | --- | --- | --- |
${rows.join('\n')}
`
await writeSection('fairness', markdown)
process.stdout.write(markdown)
