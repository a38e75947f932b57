import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { hydraReadiness } from './readiness.js'

/** A client whose `SELECT 1` answers at once, counting the queries asked. */
function client() {
  const asked: string[] = []
  return {
    asked,
    $queryRawUnsafe: async (query: string) => {
      asked.push(query)
      return [{ '?column?': 1 }]
    },
  }
}

describe('hydraReadiness: stopping', () => {
  it('answers 503 without asking the database once `stopping` says so, 200 before', async () => {
    const prisma = client()
    let stopping = false
    const app = new Hono().get('/ready', hydraReadiness(prisma, { stopping: () => stopping }))
    const before = await app.request('/ready')
    expect([before.status, await before.text()]).toEqual([200, '{"status":"ready"}'])
    stopping = true
    const after = await app.request('/ready')
    expect(after.status).toBe(503)
    expect(after.headers.get('Retry-After')).toBe('5')
    expect(await after.json()).toMatchObject({ detail: expect.stringMatching(/is stopping/) })
    expect(prisma.asked).toEqual(['SELECT 1'])
  })
})
