/**
 * Two instances of the example behind a real HAProxy with the configuration
 * docs/deployment.md#load-balancers gives (its default connection reuse, `http-reuse safe`,
 * included): HAProxy's own health check (`option httpchk GET /ready`, HTTP/1.0 without `Host`)
 * finds both up; then, under 50 clients each on a connection to HAProxy kept alive and asking
 * without pause, one instance gets `SIGTERM` and is started again once it has exited, then the
 * other: readiness answers `503` from the signal on, HAProxy takes the instance out of rotation
 * while it still serves, the instance exits by itself with code 0, and no request fails or is
 * cut. The instances reach the database through PgBouncer in transaction mode
 * (docs/deployment.md#poolers); once restarted, they and HAProxy answer alike, under writes too
 * (instances.e2e's agreement), and a validator of one is answered `304` by the others.
 * PostgreSQL only: what it checks is the servers', not the database's.
 */
import { Agent, get } from 'node:http'
import { describe, expect, it } from 'vitest'
import { freePort } from './support/free-port.js'
import { haproxyPresent, type ServerStates, startHaproxy } from './support/haproxy.js'
import { TEST_DATABASE } from './support/harness.js'
import { AGREED_TARGETS, agreeUnderWrites } from './support/instances.js'
import { pgbouncerPresent, startPgbouncer } from './support/pgbouncer.js'
import { sendRaw } from './support/raw-http.js'
import { type RuntimeServer, startExample } from './support/runtime-servers.js'
import { pause, seededDatabase } from './support/seeded-database.js'

const CLIENTS = 50
/**
 * The entrypoint, which reads no database: what is measured is the servers' connections, and the
 * readiness probe's `SELECT 1` then waits for no connection of a pool busy with pages (an
 * instance left alone with every client asking for pages can take longer than the probe's
 * timeout to answer it, and be taken out too: docs/deployment.md#load-balancers).
 */
const PAGE = '/'

const runs =
  TEST_DATABASE === 'postgresql' &&
  haproxyPresent('rolling-restart.e2e') &&
  pgbouncerPresent('rolling-restart.e2e')

const seeded = seededDatabase(runs)

/** Waits until `states()` satisfies `wanted`, for at most `within` ms; the states last read. */
async function until(
  states: () => Promise<ServerStates>,
  wanted: (states: ServerStates) => boolean,
  within: number
): Promise<ServerStates> {
  const started = Date.now()
  for (;;) {
    const seen = await states()
    if (wanted(seen)) return seen
    if (Date.now() - started > within)
      throw new Error(`HAProxy's servers after ${within} ms: ${JSON.stringify(seen)}`)
    await pause(100)
  }
}

/**
 * GET `url` through `agent`: `200`, or what else came back: a status with the type of its body
 * (the app's problems are `application/problem+json`, HAProxy's own errors HTML), or how the
 * request failed (askKeptAlive's words).
 */
function ask(url: string, agent: Agent): Promise<string> {
  return new Promise((resolve) => {
    const sent = get(url, { agent, timeout: 15_000 }, (response) => {
      response.resume()
      const type = response.headers['content-type']
      response.on('end', () =>
        resolve(
          !response.complete
            ? `incomplete ${response.statusCode}`
            : response.statusCode === 200
              ? '200'
              : `${response.statusCode} ${type} ${response.headers['retry-after'] ?? ''}`
        )
      )
      response.on('error', (error: NodeJS.ErrnoException) => resolve(`${error.code} in a body`))
    })
    sent.on('timeout', () => sent.destroy(new Error('no answer in 15 s')))
    sent.on('error', (error: NodeJS.ErrnoException) =>
      resolve(`${error.code ?? error.message} on a ${sent.reusedSocket ? 'reused' : 'new'} socket`)
    )
  })
}

/**
 * `CLIENTS` clients asking for `url` without pause on connections kept alive, until `stop`; a
 * client whose request failed pauses a little before it asks again, rather than spinning. Every
 * answer but `200` is a failure: the entrypoint reads no database, so the app has no load to shed
 * on it (docs/deployment.md#shedding-load), and a `503` of its own is an outage.
 */
function load(url: string, phase: () => string) {
  let stopping = false
  const failed: string[] = []
  let answered = 0
  const clients = Array.from({ length: CLIENTS }, async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    while (!stopping) {
      const answer = await ask(url, agent)
      if (answer === '200') answered++
      else {
        failed.push(`${answer} (${phase()})`)
        await pause(50)
      }
    }
    agent.destroy()
  })
  return {
    answered: () => answered,
    stop: async () => {
      stopping = true
      await Promise.all(clients)
      return { answered, failed }
    },
  }
}

describe.runIf(runs)('two instances through PgBouncer behind HAProxy', () => {
  it('lose no request of 50 kept-alive clients in a rolling restart, and answer alike', async () => {
    const { database, prisma } = seeded
    const bouncer = await startPgbouncer(database.url, { mode: 'transaction', poolSize: 4 })
    const pooled = new URL(bouncer.url)
    pooled.searchParams.set('pgbouncer', 'true')
    const ports = [await freePort(), await freePort()]
    const start = (port: number) =>
      startExample('node', pooled.href, { PORT: String(port), DIRECT_DATABASE_URL: database.url })
    const instances: RuntimeServer[] = await Promise.all(ports.map(start))
    // What the test is doing, named in each failure.
    let phase = 'both up'
    const haproxy = await startHaproxy(ports)
    let traffic: ReturnType<typeof load> | undefined
    try {
      // HAProxy's default check, HTTP/1.0 without Host, finds both ready.
      await until(haproxy.states, (s) => s.a === 'UP' && s.b === 'UP', 30_000)
      traffic = load(`${haproxy.origin}${PAGE}`, () => phase)
      for (let waited = 0; traffic.answered() < CLIENTS * 4; waited += 50) {
        if (waited > 60_000) throw new Error(`${traffic.answered()} answers in 60 s`)
        await pause(50)
      }
      for (const [index, name] of ['a', 'b'].entries()) {
        const instance = instances[index] as RuntimeServer
        phase = `${name} stopping`
        const exited = instance.stop()
        // From the signal until it stops: unready, while HAProxy still reaches it.
        let probe = await sendRaw(instance.origin, 'GET /ready HTTP/1.0\r\n\r\n')
        for (let tries = 0; probe.status === 200 && tries < 50; tries++) {
          await pause(20)
          probe = await sendRaw(instance.origin, 'GET /ready HTTP/1.0\r\n\r\n')
        }
        expect(probe.status).toBe(503)
        await until(haproxy.states, (s) => s[name]?.startsWith('DOWN') === true, 10_000)
        // Marked down by its readiness's 503, not by a refused connection once the drain ended.
        const down = haproxy
          .output()
          .split('\n')
          .filter((line) => line.includes(`Server instances/${name} is DOWN`))
          .at(-1)
        expect(down).toMatch(/Layer7 wrong status, code: 503/)
        expect((await sendRaw(instance.origin, 'GET /ready HTTP/1.0\r\n\r\n')).status).toBe(503)
        phase = `${name} down`
        // It ended its drain and stop itself, as main.ts does: exit code 0, not killed.
        expect(await exited).toEqual({ code: 0, signal: null })
        phase = `${name} exited`
        instances[index] = await start(ports[index] as number)
        phase = `${name} started`
        await until(haproxy.states, (s) => s[name] === 'UP', 30_000)
        phase = `${name} up`
      }
      const { answered, failed } = await traffic.stop()
      const changes = haproxy
        .output()
        .split('\n')
        .filter((line) => /Server instances/.test(line))
      console.info(`rolling restart: ${answered} answered 200`)
      console.info(changes.join('\n'))
      expect(failed).toEqual([])
      expect(answered).toBeGreaterThan(CLIENTS * 4)
      // Either instance and the balancer: cursor walks across them, pages and their totals, the
      // same answers; a validator of one instance answered 304 by the others.
      const origins = [haproxy.origin, ...instances.map((instance) => instance.origin)]
      await agreeUnderWrites(origins, prisma, AGREED_TARGETS)
      const tagged = await fetch(`${instances[0]?.origin}/books/1`)
      const etag = tagged.headers.get('ETag') as string
      expect(etag).toBeTruthy()
      for (const origin of origins.slice(1).concat(origins[0] as string)) {
        const again = await fetch(`${origin}/books/1`, { headers: { 'If-None-Match': etag } })
        expect([origin, again.status]).toEqual([origin, 304])
      }
    } finally {
      await traffic?.stop()
      await haproxy.stop()
      await Promise.all(instances.map((instance) => instance.stop()))
      await bouncer.stop()
    }
  }, 240_000)
})
