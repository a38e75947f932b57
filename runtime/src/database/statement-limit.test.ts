import { describe, expect, it } from 'vitest'
import { type ServerInfo, statementLimitSql } from './statement-limit.js'

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
