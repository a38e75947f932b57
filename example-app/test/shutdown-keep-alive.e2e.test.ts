/**
 * Stopping the server under load (docs/deployment.md#stopping-the-server): clients that keep their
 * connection alive (Node's `http.Agent` with `keepAlive`, as undici, autocannon and proxies' pools
 * do) ask for pages continuously while the example app gets `SIGTERM`. Every request sent before
 * the server stopped listening is answered in full; the answers written once the stop began say
 * `Connection: close`, so that no client sends another request on a connection about to close,
 * and the next request each client sends, on a new connection, is refused: the server listens no
 * more. No request fails on a reused connection (`ECONNRESET`, the loss of a rolling deploy). On
 * Node, createHydraServer and closeGracefully; on Bun and Deno, src/serve.ts's answers.
 */
import { Agent } from 'node:http'
import { describe, expect, it } from 'vitest'
import { TEST_DATABASE } from './support/harness.js'
import { askKeptAlive } from './support/keep-alive-request.js'
import { startExample } from './support/runtime-servers.js'
import { pause, seededDatabase } from './support/seeded-database.js'

/** A page read with its count, so that each answer reads the database. */
const PAGE = '/books?page=2'
const CLIENTS = 40

const seeded = seededDatabase()

/**
 * `CLIENTS` clients, each on a connection of its own kept alive, asking for `url` again as soon as
 * it is answered, until a request fails; `stop` is called once each was answered at least once,
 * 300 ms later. What each client saw, in order.
 */
async function askingAcross(url: string, stop: () => Promise<unknown>): Promise<string[][]> {
  const seen = Array.from({ length: CLIENTS }, (): string[] => [])
  const clients = seen.map(async (answers) => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    // Bounded: a server that never stops answering ends the walk, and fails the expectation.
    for (let asked = 0; asked < 5_000; asked++) {
      const answer = await askKeptAlive(url, agent)
      answers.push(answer)
      if (!answer.startsWith('200 ')) break
    }
    agent.destroy()
  })
  for (let waited = 0; seen.some((answers) => answers.length === 0); waited += 20) {
    if (waited > 30_000) throw new Error('a client was not answered within 30 s')
    await pause(20)
  }
  await pause(300)
  await stop()
  await Promise.all(clients)
  return seen
}

/**
 * Each client's answers on its connection kept alive (Bun and Deno write no `Connection` on
 * them), then answers closing their connections (one on Node, which stops listening first; on Bun
 * and Deno, which listen a second more, one a new connection until they stop), then the refusal.
 */
const EXPECTED = /^(200 (keep-alive|undefined)\n)+(200 close\n)+ECONNREFUSED on a new socket$/
/**
 * On Bun and Deno, the request a client sends on a connection opened as the server stops may be
 * reset instead (`server.stop()` and `server.shutdown()` close it with the listener): 0 to 3
 * clients of 40 on Bun, 5 to 27 on Deno (2026-11-28). Never a request on a reused connection.
 */
const EXPECTED_NATIVE =
  /^(200 (keep-alive|undefined)\n)+(200 close\n)+(ECONNREFUSED|ECONNRESET) on a new socket$/

/** Each runtime of the example: Bun and Deno are documented on SQLite and PostgreSQL. */
const RUNTIMES =
  TEST_DATABASE === 'mysql' ? (['node'] as const) : (['node', 'bun', 'deno'] as const)

describe(`SIGTERM under keep-alive load (${TEST_DATABASE})`, () => {
  it.each(RUNTIMES)(
    'loses no request of a reused connection on %s: the last answers close them',
    async (runtime) => {
      const server = await startExample(runtime, seeded.database.url)
      let seen: string[][]
      try {
        seen = await askingAcross(`${server.origin}${PAGE}`, server.stop)
      } finally {
        await server.stop()
      }
      const expected = runtime === 'node' ? EXPECTED : EXPECTED_NATIVE
      const unexpected = seen.filter((answers) => !expected.test(answers.join('\n')))
      // The last answers of each client that saw otherwise: what it lost, and how.
      expect(unexpected.map((answers) => answers.slice(-3))).toEqual([])
      const kept = seen.flat().filter((answer) => /^200 (keep-alive|undefined)$/.test(answer))
      expect(kept.length).toBeGreaterThanOrEqual(CLIENTS)
    },
    120_000
  )
})
