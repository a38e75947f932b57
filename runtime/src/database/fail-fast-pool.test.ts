/**
 * `failFastPool` as an application names it from the main entry: a pool of its own (a wrapper, a
 * test double) typed `failFastPool.Pool`, its options `failFastPool.Options` (docs/deployment.md).
 * With no connection open and the database out of reach, a read fails at once with the reason,
 * where the pool itself would keep it waiting.
 */
import { EventEmitter } from 'node:events'
import { describe, expect, it } from 'vitest'
import { failFastPool } from '../index.js'

/** A pool that never opens a connection: each request for one waits for ever. */
function unreachablePool(): failFastPool.Pool {
  const events = new EventEmitter()
  const waiting = () => new Promise<never>(() => {})
  return {
    totalConnections: () => 0,
    getConnection: waiting,
    query: waiting,
    execute: waiting,
    batch: waiting,
    on: (
      event: 'connection' | 'acquire',
      listener: (connection: failFastPool.Connection) => void
    ) => events.on(event, listener),
  }
}

describe('failFastPool, typed by the names of the main entry', () => {
  it('fails a read at once with the reason the database is out of reach', async () => {
    const options: failFastPool.Options = { statementTimeout: 10_000, lockTimeout: 5_000 }
    const refused = new Error('connect ECONNREFUSED 127.0.0.1:3306')
    const pool = failFastPool(unreachablePool(), () => Promise.reject(refused), options)
    await expect(pool.query()).rejects.toBe(refused)
    await expect(pool.getConnection()).rejects.toBe(refused)
  }, 5_000)
})
