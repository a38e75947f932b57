/**
 * The limits of an app behind a connection pooler (docs/deployment.md#poolers): the server's own
 * settings, since no session setting may be sent through it (src/adapter.ts). Checked at start, so
 * that a server without them is said, not found under a lock.
 */

/** What the check reads through a Prisma client. */
interface Asker {
  $queryRawUnsafe<T>(query: string): PromiseLike<T>
}

/** The server's statement and lock limits of the app's connections, in milliseconds; 0: none. */
async function serverLimits(asker: Asker): Promise<{ statement: number; lock: number }> {
  // `SHOW` answers with units (`10s`); the pg_settings rows hold milliseconds.
  const rows = await asker.$queryRawUnsafe<Array<{ name: string; setting: string }>>(
    "SELECT name, setting FROM pg_settings WHERE name IN ('statement_timeout', 'lock_timeout')"
  )
  const of = (name: string) => Number(rows.find((row) => row.name === name)?.setting ?? 0)
  return { statement: of('statement_timeout'), lock: of('lock_timeout') }
}

/**
 * The line a start behind a pooler writes when the server leaves a limit unset (0), or sets it
 * above the app's (`wanted`, milliseconds); undefined when both are in force.
 */
export async function pooledLimitsWarning(
  asker: Asker,
  wanted: { statement: number; lock: number }
): Promise<string | undefined> {
  const found = await serverLimits(asker)
  const missing = (['statement', 'lock'] as const).filter(
    (limit) => found[limit] === 0 || found[limit] > wanted[limit]
  )
  if (missing.length === 0) return undefined
  const settings = missing.map(
    (limit) => `ALTER ROLE <role> SET ${limit}_timeout = '${wanted[limit]}ms'`
  )
  return (
    `The database's ${missing.map((limit) => `${limit}_timeout`).join(' and ')} ` +
    `${missing.length > 1 ? 'are' : 'is'} not in force behind the pooler (pgbouncer=true): ` +
    `statements may run on past the app's answer. Set ${missing.length > 1 ? 'them' : 'it'} on ` +
    `the app's role: ${settings.join('; ')} (docs/deployment.md#poolers).`
  )
}
