/**
 * The driver of the example's SQLite databases: better-sqlite3 on Node; libsql on Bun and Deno,
 * where better-sqlite3, a native addon, cannot load (docs/runtime-bun-deno.md). SQLITE_DRIVER
 * chooses one on any runtime (`libsql` on Node; `better-sqlite3` on Bun or Deno stops the start
 * with the runtime's reason, as the runtimes smoke test checks).
 */
export type SqliteDriver = 'better-sqlite3' | 'libsql'

export function sqliteDriver(chosen: string | undefined = process.env.SQLITE_DRIVER): SqliteDriver {
  if (chosen === 'better-sqlite3' || chosen === 'libsql') return chosen
  if (chosen) throw new Error(`SQLITE_DRIVER: "${chosen}" is neither better-sqlite3 nor libsql`)
  return process.versions.bun || process.versions.deno ? 'libsql' : 'better-sqlite3'
}
