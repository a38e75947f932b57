// Applies the DDL of mysql-ddl.mjs to a MySQL/MariaDB database through a driver adapter
// connection (@prisma/adapter-mariadb, see push-schema.mjs): the offline stand-in for `prisma db
// push` on MySQL, where Prisma's wasm schema engine cannot go.
//
// It creates schemas; it never alters one. On a database without any of the schema's tables it
// creates them all (tables, then foreign keys); on one that has all of them with the schema's
// columns it does nothing (0 steps, as a second push does); anything in between is refused with
// the difference, since changing tables safely takes a diff that only Prisma's engine makes
// (`prisma migrate` / `prisma db push` with the native engine).

/** Table name → column names (in order) of the connection's current database. */
async function describeTables(queryable) {
  const { rows } = await queryable.queryRaw({
    sql:
      'SELECT TABLE_NAME, COLUMN_NAME FROM information_schema.COLUMNS ' +
      'WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME, ORDINAL_POSITION',
    args: [],
    argTypes: [],
  })
  const tables = new Map()
  for (const [table, column] of rows) {
    const name = String(table)
    tables.set(name, [...(tables.get(name) ?? []), String(column)])
  }
  return tables
}

const execute = (queryable, sql) => queryable.executeRaw({ sql, args: [], argTypes: [] })

/**
 * Brings the database of `connection` to the schema of `ddl` (mysqlDdl's result) as described
 * above. Returns `{ executedSteps, warnings }` like pushSchema; throws when the database holds
 * some of the schema's tables but not all, or a table whose columns differ.
 *
 * @param {{ queryRaw: Function, executeRaw: Function, startTransaction: Function }} connection
 * @param {{ tables: Array<{ name: string, columns: string[], sql: string }>, foreignKeys: Array<{ sql: string }> }} ddl
 */
export async function applyMysqlDdl(connection, ddl) {
  const existing = await describeTables(connection)
  const present = ddl.tables.filter((t) => existing.has(t.name))
  if (present.length > 0) {
    const problems = []
    const missing = ddl.tables.filter((t) => !existing.has(t.name)).map((t) => t.name)
    if (missing.length > 0) problems.push(`missing tables: ${missing.join(', ')}`)
    for (const table of present) {
      const columns = existing.get(table.name)
      if (columns.join(',') !== table.columns.join(',')) {
        problems.push(
          `table ${table.name} has columns (${columns.join(', ')}), the schema (${table.columns.join(', ')})`
        )
      }
    }
    if (problems.length === 0) return { executedSteps: 0, warnings: [] }
    throw new Error(
      `The database differs from the schema and cannot be changed offline (the MySQL DDL is ` +
        `derived for new databases only; use Prisma's migrate or db push):\n- ${problems.join('\n- ')}`
    )
  }

  // One session for every statement, so that a failure can be undone on it (DDL commits
  // implicitly in MySQL: the transaction only pins the connection).
  const session = await connection.startTransaction()
  const created = []
  try {
    for (const table of ddl.tables) {
      await execute(session, table.sql)
      created.push(table.name)
    }
    for (const foreignKey of ddl.foreignKeys) await execute(session, foreignKey.sql)
    await session.commit()
  } catch (error) {
    try {
      await execute(session, 'SET FOREIGN_KEY_CHECKS = 0')
      for (const name of created.reverse()) {
        await execute(session, `DROP TABLE IF EXISTS \`${name.replaceAll('`', '``')}\``)
      }
      await execute(session, 'SET FOREIGN_KEY_CHECKS = 1')
    } finally {
      await session.rollback().catch(() => {})
    }
    throw error
  }
  return { executedSteps: ddl.tables.length + ddl.foreignKeys.length, warnings: [] }
}
