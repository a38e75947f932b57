/**
 * A CPU profile of one server of bench/peers-server.ts answering one request again and again, its
 * self time summed by layer (bench/layers.ts: the generated code, Hono, the caller view, data
 * access, Prisma's client, the driver adapter, the driver, serialization, the validator, links,
 * Node's own code, garbage collection): where a response's time goes.
 *
 *   npm run bench:profile -- compiled /events/partial?page=2
 *
 * Arguments: the server kind (bench/peers-server.ts: generated, compiled, handwritten, floor…;
 * prisma8 and compiledNode22 under Node 22, on PostgreSQL) and the path. Settings: BENCH_PROFILE_REQUESTS (20000), BENCH_PROFILE_CONNECTIONS (10),
 * BENCH_PROFILE_ROWS (10000), BENCH_PROFILE_SERVER (a PostgreSQL or MariaDB server's URL, as
 * bench:peers takes it: the events are read there instead of from SQLite), BENCH_PROFILE_KEEP (set:
 * the `.cpuprofile` is kept and its path printed, for a look by function).
 */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { shown } from './databases.js'
import { nodeLayers } from './layers.js'
import { integers } from './load.js'
import { node22 } from './node22.js'
import { type Kind, ON_NODE_22 } from './peers-server.js'
import { prepareDatabase } from './setup.js'
import { prepareMariadbDatabase, preparePostgresDatabase } from './setup-servers.js'

const [kind = 'compiled', target = '/events/partial?page=2'] = process.argv.slice(2)
const [REQUESTS = 20000] = integers('BENCH_PROFILE_REQUESTS', '20000')
const [CONNECTIONS = 10] = integers('BENCH_PROFILE_CONNECTIONS', '10')
const [ROWS = 10000] = integers('BENCH_PROFILE_ROWS', '10000')

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string }
}
interface Profile {
  nodes: ProfileNode[]
  samples: number[]
  timeDeltas: number[]
}

const env = process.env
const SERVER = env.BENCH_PROFILE_SERVER
const { url } = !SERVER
  ? await prepareDatabase(ROWS)
  : /^(mysql|mariadb):/.test(SERVER)
    ? await prepareMariadbDatabase(SERVER, ROWS)
    : await preparePostgresDatabase(SERVER, ROWS)
const dir = await mkdtemp(path.join(tmpdir(), 'prisma-hydra-profile-'))
const server = fileURLToPath(new URL('./peers-server.ts', import.meta.url))
const child = spawn(
  ON_NODE_22.has(kind as Kind) ? node22() : process.execPath,
  ['--cpu-prof', '--cpu-prof-dir', dir, '--import', 'tsx', server, kind, url],
  { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] }
)
let origin = ''
for await (const line of createInterface({ input: child.stdout as NodeJS.ReadableStream })) {
  const match = /^listening (\d+)$/.exec(line)
  if (match) {
    origin = `http://127.0.0.1:${match[1]}`
    break
  }
}
let left = REQUESTS
const worker = async () => {
  while (left-- > 0) {
    const response = await fetch(`${origin}${target}`)
    if (response.status !== 200) throw new Error(`${target}: ${response.status}`)
    await response.arrayBuffer()
  }
}
await Promise.all(Array.from({ length: CONNECTIONS }, worker))
child.send('exit')
await once(child, 'exit')
const [file] = await readdir(dir)
const profile = JSON.parse(await readFile(path.join(dir, file as string), 'utf8')) as Profile
if (env.BENCH_PROFILE_KEEP) console.log(`the profile: ${path.join(dir, file as string)}`)
else await rm(dir, { recursive: true, force: true })

const layerOf = nodeLayers(profile.nodes)
const nameOf = new Map(
  profile.nodes.map((node) => {
    const { functionName, url: script } = node.callFrame
    return [node.id, `${functionName || '(anonymous)'} ${script.split('/').slice(-2).join('/')}`]
  })
)
const spent = new Map<string, number>()
const byFunction = new Map<string, number>()
let total = 0
profile.samples.forEach((id, index) => {
  const layer = layerOf.get(id)
  if (!layer) return
  const delta = profile.timeDeltas[index] ?? 0
  spent.set(layer, (spent.get(layer) ?? 0) + delta)
  const name = `${layer}: ${nameOf.get(id)}`
  byFunction.set(name, (byFunction.get(name) ?? 0) + delta)
  total += delta
})
process.stdout.write(
  `${kind} ${target}, ${REQUESTS} requests, ${CONNECTIONS} connections, ${SERVER ? shown(SERVER) : 'SQLite'} ${ROWS} rows: busy CPU ${(total / REQUESTS).toFixed(0)} µs a response\n\n| layer | share | µs a response |\n|---|---:|---:|\n`
)
for (const [layer, time] of [...spent].sort(([, a], [, b]) => b - a))
  process.stdout.write(
    `| ${layer} | ${((100 * time) / total).toFixed(1)} % | ${(time / REQUESTS).toFixed(0)} |\n`
  )
process.stdout.write(
  '\nThe twelve functions of most self time:\n\n| function | µs a response |\n|---|---:|\n'
)
for (const [name, time] of [...byFunction].sort(([, a], [, b]) => b - a).slice(0, 12))
  process.stdout.write(`| ${name.trim()} | ${(time / REQUESTS).toFixed(0)} |\n`)
