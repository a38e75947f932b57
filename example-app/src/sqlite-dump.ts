import Database from 'better-sqlite3'

/** One value as an SQL literal: integers stay integers, reals keep a decimal point, bytes are hex. */
function literal(value: unknown): string {
  if (value === null) return 'NULL'
  if (typeof value === 'bigint') return value.toString()
  if (typeof value === 'number') return Number.isInteger(value) ? `${value}.0` : String(value)
  if (Buffer.isBuffer(value)) return `X'${value.toString('hex')}'`
  return `'${String(value).replaceAll("'", "''")}'`
}

/**
 * The SQL that recreates the SQLite database at `file`, tables, rows and indexes, in the form
 * `wrangler d1 execute --file` takes (no transaction statements; foreign keys checked at the end):
 * the example's D1 database is filled with it (scripts/d1-seed.ts). Tables already there are
 * dropped first, so that the script can be run again.
 */
export function sqliteDump(file: string): string {
  const db = new Database(file, { readonly: true })
  try {
    db.defaultSafeIntegers(true)
    const schema = db
      .prepare<[], { type: string; name: string; sql: string }>(
        "SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT GLOB 'sqlite_*' ORDER BY type = 'table' DESC, rowid"
      )
      .all()
    const tables = schema.filter((entry) => entry.type === 'table')
    const lines = ['PRAGMA defer_foreign_keys = true;']
    for (const { name } of [...tables].reverse()) lines.push(`DROP TABLE IF EXISTS "${name}";`)
    for (const { name, sql } of tables) {
      lines.push(`${sql};`)
      for (const row of db.prepare(`SELECT * FROM "${name}"`).raw().all() as unknown[][]) {
        lines.push(`INSERT INTO "${name}" VALUES (${row.map(literal).join(', ')});`)
      }
    }
    for (const { sql } of schema.filter((entry) => entry.type !== 'table')) lines.push(`${sql};`)
    return `${lines.join('\n')}\n`
  } finally {
    db.close()
  }
}
