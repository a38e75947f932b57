/**
 * The databases the end-to-end suite runs on, and how each is configured. Read by
 * vitest.config.ts (which test projects exist), the harness (which database a test gets) and the
 * summary printed after every run.
 *
 * - SQLite always runs: an embedded file per test file.
 * - PostgreSQL runs when DATABASE_URL_POSTGRES names a server: every end-to-end test file runs
 *   again (the `postgresql` project), each on a database of its own, dropped afterwards.
 * - MariaDB/MySQL the same when DATABASE_URL_MARIADB names a server (the `mysql` project); the
 *   tables are created from DDL derived from each schema (@prisma-hydra/prisma-offline/mysql-ddl),
 *   since Prisma's wasm schema engine has no MySQL connector.
 */

/**
 * The suffix of the name of a database's project of files that each need a process of their own
 * (vitest.config.ts): `sqlite-isolated` runs SQLite's.
 */
export const ISOLATED_SUFFIX = '-isolated'

/** The environment variable that selects the database of a test process (set per project). */
export const TEST_DATABASE_VARIABLE = 'HYDRA_TEST_DATABASE'

/** The database servers, each with its test project (named for its Prisma provider). */
export const SERVERS = {
  postgresql: {
    name: 'PostgreSQL',
    variable: 'DATABASE_URL_POSTGRES',
    example: 'postgres://postgres@127.0.0.1:5432/test',
    project: 'postgresql',
  },
  mariadb: {
    name: 'MariaDB',
    variable: 'DATABASE_URL_MARIADB',
    example: 'mysql://root@127.0.0.1:3306/test',
    project: 'mysql',
  },
} as const

/** The server URL configured for `server`, if any (an empty variable counts as unset). */
export function serverUrl(
  server: keyof typeof SERVERS,
  env: NodeJS.ProcessEnv = process.env
): string | undefined {
  return env[SERVERS[server].variable] || undefined
}

/** A server URL without its password, for messages. */
function redacted(url: string): string {
  const parsed = new URL(url)
  if (parsed.password) parsed.password = '***'
  return parsed.toString()
}

/** What one test project did with its test files. */
export interface ProjectRun {
  passed: number
  failed: number
  skipped: number
}

function ran(run: ProjectRun | undefined, where: string): string {
  const files = run ? run.passed + run.failed + run.skipped : 0
  if (!run || files === 0) return `no test file ran${where}`
  const outcome = [
    `${run.passed} passed`,
    ...(run.failed > 0 ? [`${run.failed} failed`] : []),
    ...(run.skipped > 0 ? [`${run.skipped} skipped`] : []),
  ].join(', ')
  return `${files} test file${files === 1 ? '' : 's'}${where}: ${outcome}`
}

/** One line per database: what the run did with it (`runs`: by test project name). */
export function databaseSummary(
  runs: Record<string, ProjectRun>,
  env: NodeJS.ProcessEnv = process.env
): string[] {
  const lines = [`SQLite      ${ran(runs.sqlite, '')}`]
  for (const key of Object.keys(SERVERS) as Array<keyof typeof SERVERS>) {
    const server = SERVERS[key]
    const url = serverUrl(key, env)
    lines.push(
      `${server.name.padEnd(11)} ${
        url
          ? ran(runs[server.project], ` on ${redacted(url)}, a database each`)
          : `not configured: set ${server.variable} (e.g. ${server.example}) to run the end-to-end files on it too`
      }`
    )
  }
  return lines
}
