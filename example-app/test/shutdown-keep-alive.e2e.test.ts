/**
 * Stopping the server under load (docs/deployment.md#stopping-the-server), served directly, with
 * no balancer in front: 50 clients that keep their connection alive (Node's `http.Agent` with
 * `keepAlive`, as undici, autocannon and proxies' pools do) ask for pages continuously while the
 * example app gets `SIGTERM`. It drains first: `/ready` answers `503` while the pages are answered
 * as before; then the answers say `Connection: close`, so that no client sends another request on
 * a connection about to close, and the next request each client sends, on a new connection, is
 * refused: the server listens no more. No request is cut (sent, then reset or left unanswered),
 * on a reused connection or a new one; a request refused at connect reached no server and is not
 * cut. On Node, createHydraServer and closeGracefully; on Bun and Deno, src/serve.ts, which holds
 * the last answers until the server listens no more. The process exits with code 0.
 */
import { Agent } from 'node:http'
import { describe, expect, it } from 'vitest'
import { TEST_DATABASE } from './support/harness.js'
import { askKeptAlive } from './support/keep-alive-request.js'
import { sendRaw } from './support/raw-http.js'
import { type Exit, runtimePresent, startExample } from './support/runtime-servers.js'
import { pause, seededDatabase } from './support/seeded-database.js'

/** A page read with its count, so that each answer reads the database. */
const PAGE = '/books?page=2'
const CLIENTS = 50

const seeded = seededDatabase()

/** What the clients saw across the stop, and what `/ready` answered meanwhile. */
interface AcrossStop {
  /** Each client's answers, in order, up to its first that was no `200`. */
  seen: string[][]
  /** `/ready`'s status on a new connection once the signal was sent, and its body. */
  ready: { status: number; body: string }
  /** Pages answered `200` after `/ready` answered: the server served on while unready. */
  servedWhileUnready: number
  /** How the server's process ended. */
  exit: Exit
}

/** `/ready` of `origin` on a new connection, as a balancer's check: its status and its body. */
async function readiness(origin: string): Promise<{ status: number; body: string }> {
  const { status, body } = await sendRaw(
    origin,
    'GET /ready HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n'
  )
  return { status, body }
}

/**
 * `CLIENTS` clients, each on a connection of its own kept alive, asking for `PAGE` of `origin`
 * again as soon as it is answered, until a request fails; `stop` (the signal) is sent once each
 * was answered at least once, 300 ms later, and `/ready` is asked until it answers `503` (two
 * seconds at most).
 */
async function askingAcross(origin: string, stop: () => Promise<Exit>): Promise<AcrossStop> {
  const seen = Array.from({ length: CLIENTS }, (): string[] => [])
  let answered = 0
  const clients = seen.map(async (answers) => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    // Bounded: a server that never stops answering ends the walk, and fails the expectation.
    for (let asked = 0; asked < 5_000; asked++) {
      const answer = await askKeptAlive(`${origin}${PAGE}`, agent)
      answers.push(answer)
      if (!answer.startsWith('200 ')) break
      answered++
    }
    agent.destroy()
  })
  for (let waited = 0; seen.some((answers) => answers.length === 0); waited += 20) {
    if (waited > 30_000) throw new Error('a client was not answered within 30 s')
    await pause(20)
  }
  await pause(300)
  const stopped = stop()
  let ready = await readiness(origin)
  for (let tries = 0; ready.status === 200 && tries < 100; tries++) {
    await pause(20)
    ready = await readiness(origin)
  }
  const before = answered
  const exit = await stopped
  await Promise.all(clients)
  return { seen, ready, servedWhileUnready: answered - before, exit }
}

/**
 * Each client's answers on its connection kept alive (Bun and Deno write no `Connection` on
 * them), then answers closing their connections (one on Node, which stops listening first; on Bun
 * and Deno, which listen a second more, one a new connection until they stop), then the refusal:
 * no request cut.
 */
const EXPECTED = /^(200 (keep-alive|undefined)\n)+(200 close\n)+ECONNREFUSED on a new socket$/

/** Each runtime of the example: Bun and Deno are documented on SQLite and PostgreSQL. */
const RUNTIMES = (
  TEST_DATABASE === 'mysql' ? (['node'] as const) : (['node', 'bun', 'deno'] as const)
).filter((runtime) => runtimePresent(runtime, 'shutdown-keep-alive.e2e'))

describe(`SIGTERM under keep-alive load, served directly (${TEST_DATABASE})`, () => {
  it.each(RUNTIMES)(
    'drains unready on %s, then cuts no request of 50 kept-alive clients',
    async (runtime) => {
      const server = await startExample(runtime, seeded.database.url)
      let across: AcrossStop
      try {
        across = await askingAcross(server.origin, () => server.stop())
      } finally {
        await server.stop()
      }
      const { seen, ready, servedWhileUnready, exit } = across
      expect(exit).toEqual({ code: 0, signal: null })
      expect(ready).toEqual({ status: 503, body: expect.stringMatching(/instance is stopping/) })
      expect(servedWhileUnready).toBeGreaterThan(CLIENTS)
      const refused = seen.filter((answers) => answers.at(-1) === 'ECONNREFUSED on a new socket')
      console.info(
        `${runtime}: ${CLIENTS - refused.length} of ${CLIENTS} clients' last request cut`
      )
      // The last answers of each client that saw otherwise: what it lost, and how.
      const unexpected = seen.filter((answers) => !EXPECTED.test(answers.join('\n')))
      expect(unexpected.map((answers) => answers.slice(-3))).toEqual([])
    },
    120_000
  )
})
