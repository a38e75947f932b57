import { describe, expect, it } from 'vitest'
import { type ServerInfo, sessionLimitSql, statementLimitSql } from './statement-limit.js'

/** A server as the `mariadb` driver describes it (`connection.info`). */
function server(mariaDb: boolean, version: [number, number, number]): ServerInfo {
  const [major, minor, patch] = version
  return {
    isMariaDB: () => mariaDb,
    hasMinVersion: (a, b, c) => (major !== a ? major > a : minor !== b ? minor > b : patch >= c),
  }
}

describe('the statement that limits a session', () => {
  it("is MariaDB's max_statement_time, in seconds", () => {
    expect(statementLimitSql(server(true, [10, 11, 19]), 1500)).toBe(
      'SET SESSION max_statement_time = 1.5'
    )
    expect(statementLimitSql(server(true, [10, 1, 1]), 10_000)).toBe(
      'SET SESSION max_statement_time = 10'
    )
  })

  it("is MySQL's max_execution_time, in milliseconds", () => {
    expect(statementLimitSql(server(false, [8, 0, 36]), 1500)).toBe(
      'SET SESSION max_execution_time = 1500'
    )
  })

  it('is none on servers without either, or before the driver knows the server', () => {
    expect(statementLimitSql(server(true, [10, 0, 38]), 1500)).toBeUndefined()
    expect(statementLimitSql(server(false, [5, 7, 7]), 1500)).toBeUndefined()
    expect(statementLimitSql(null, 1500)).toBeUndefined()
  })
})

describe("the statement that sets a session's limits", () => {
  it('sets the statement limit and both lock waits, in whole seconds rounded up', () => {
    expect(sessionLimitSql(server(true, [10, 11, 19]), { statement: 1500, lock: 1200 })).toBe(
      'SET SESSION max_statement_time = 1.5, lock_wait_timeout = 2, innodb_lock_wait_timeout = 2'
    )
    expect(sessionLimitSql(server(false, [8, 0, 36]), { lock: 300 })).toBe(
      'SET SESSION lock_wait_timeout = 1, innodb_lock_wait_timeout = 1'
    )
  })

  it('sets the lock waits alone where the server has no statement limit', () => {
    expect(sessionLimitSql(server(true, [10, 0, 38]), { statement: 1500, lock: 5000 })).toBe(
      'SET SESSION lock_wait_timeout = 5, innodb_lock_wait_timeout = 5'
    )
  })

  it('is none without a limit, or before the driver knows the server', () => {
    expect(sessionLimitSql(server(true, [10, 11, 19]), { statement: 0, lock: 0 })).toBeUndefined()
    expect(sessionLimitSql(server(true, [10, 11, 19]), {})).toBeUndefined()
    expect(sessionLimitSql(null, { statement: 1500, lock: 1000 })).toBeUndefined()
  })
})
