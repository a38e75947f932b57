import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest'
import { outageLogOf, readRouting } from './read-routing.js'

/** A database that answers its name, or fails as an unreachable server does while `down`. */
function database(name: string) {
  const target = { down: false, reads: 0 }
  const client = {}
  const reads = async () => {
    target.reads++
    if (target.down)
      throw Object.assign(new Error(`connect ECONNREFUSED ${name}`), { code: 'ECONNREFUSED' })
    return name
  }
  return { target, entry: { client, reads } }
}

type Reads = () => Promise<string>

describe('readRouting', () => {
  let log: MockInstance<typeof console.error>
  beforeEach(() => {
    log = vi.spyOn(console, 'error').mockImplementation(() => {})
  })
  afterEach(() => log.mockRestore())

  it('without replicas, reads the primary', async () => {
    const primary = database('primary')
    const routing = readRouting<Reads>(primary.entry, [], [])
    expect(await routing.pin()((reads) => reads())).toBe('primary')
  })

  it('takes the replicas in turn, one per request, and keeps a request on its replica', async () => {
    const primary = database('primary')
    const replicas = [database('a'), database('b'), database('c')]
    const list = replicas.map(({ entry }) => entry.client)
    const routing = readRouting<Reads>(
      primary.entry,
      replicas.map(({ entry }) => entry),
      list
    )
    const seen: string[] = []
    for (let i = 0; i < 4; i++) {
      const run = routing.pin()
      const first = await run((reads) => reads())
      expect(await run((reads) => reads())).toBe(first)
      seen.push(first)
    }
    expect(seen).toEqual(['a', 'b', 'c', 'a'])
    // Another resource given the same list goes on with the same turn.
    const other = readRouting<Reads>(
      primary.entry,
      replicas.map(({ entry }) => entry),
      list
    )
    expect(await other.pin()((reads) => reads())).toBe('b')
    expect(primary.target.reads).toBe(0)
  })

  it('passes a failed replica by for a while, then the primary; tries it again later', async () => {
    const primary = database('primary')
    const [a, b] = [database('a'), database('b')]
    const routing = readRouting<Reads>(primary.entry, [a.entry, b.entry], [{}], 50)
    a.target.down = true
    expect(await routing.pin()((reads) => reads())).toBe('b')
    expect(await routing.pin()((reads) => reads())).toBe('b')
    expect(a.target.reads).toBe(1)
    b.target.down = true
    expect(await routing.pin()((reads) => reads())).toBe('primary')
    expect(await routing.pin()((reads) => reads())).toBe('primary')
    expect(b.target.reads).toBe(3)
    expect(log.mock.calls.map((call) => String(call[0]))).toEqual([
      expect.stringContaining('read replica 1 is unavailable'),
      expect.stringContaining('read replica 2 is unavailable'),
    ])
    a.target.down = false
    await new Promise((resolve) => setTimeout(resolve, 60))
    const answers = new Set<string>()
    for (let i = 0; i < 2; i++) answers.add(await routing.pin()((reads) => reads()))
    expect(answers.has('a')).toBe(true)
    expect(log.mock.calls.at(-1)?.[0]).toContain('read replica 1 answers again')
  })

  it('once its period is over, one request tries a failed replica again, the others pass it by', async () => {
    const primary = database('primary')
    const a = database('a')
    const routing = readRouting<Reads>(primary.entry, [a.entry], [{}], 30)
    a.target.down = true
    expect(await routing.pin()((reads) => reads())).toBe('primary')
    await new Promise((resolve) => setTimeout(resolve, 40))
    // Three requests at once: the first tries the replica (and fails over), the others do not.
    const answers = await Promise.all([1, 2, 3].map(() => routing.pin()((reads) => reads())))
    expect(answers).toEqual(['primary', 'primary', 'primary'])
    expect(a.target.reads).toBe(2)
    a.target.down = false
    await new Promise((resolve) => setTimeout(resolve, 40))
    expect(await routing.pin()((reads) => reads())).toBe('a')
    // Answering again, it is every request's replica.
    const after = await Promise.all([1, 2].map(() => routing.pin()((reads) => reads())))
    expect(after).toEqual(['a', 'a'])
  })

  it('a failure that is not an outage is the answer, on the replica', async () => {
    const primary = database('primary')
    const routing = readRouting<Reads>(primary.entry, [database('a').entry], [{}])
    await expect(
      routing.pin()(async () => {
        throw new TypeError('a bug')
      })
    ).rejects.toThrow('a bug')
    expect(primary.target.reads).toBe(0)
  })

  it('the primary failing is the answer (503 rules of the routes)', async () => {
    const primary = database('primary')
    const a = database('a')
    a.target.down = true
    primary.target.down = true
    const routing = readRouting<Reads>(primary.entry, [a.entry], [{}])
    await expect(routing.pin()((reads) => reads())).rejects.toThrow('ECONNREFUSED primary')
  })
})

describe('outageLogOf: one log per database, none per process', () => {
  it("gives each client its own primary's log, shared by every resource over it", () => {
    const [a, b] = [database('a'), database('b')]
    const first = readRouting(a.entry, [], [])
    const second = readRouting(a.entry, [], [])
    const other = readRouting(b.entry, [], [])
    expect(first.outages).toBe(outageLogOf(a.entry.client))
    expect(second.outages).toBe(first.outages)
    expect(other.outages).not.toBe(first.outages)
  })

  it("an episode of one client's log is not ended by another's success", () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      const [a, b] = [outageLogOf({}), outageLogOf({})]
      a.failed(new Error('connect ECONNREFUSED a'))
      b.succeeded()
      a.failed(new Error('connect ECONNREFUSED a'))
      expect(log).toHaveBeenCalledTimes(1)
      a.succeeded()
      expect(log.mock.calls.map((call) => String(call[0]))).toEqual([
        expect.stringContaining('the database is unavailable'),
        expect.stringContaining('answers again after'),
      ])
    } finally {
      log.mockRestore()
    }
  })
})
