/**
 * A real PgBouncer before the suite's PostgreSQL server (docs/deployment.md#poolers): Debian's
 * `pgbouncer`, run in the foreground with the configuration the page gives (its one ```ini block
 * holding `[pgbouncer]`), its database line made the server's, its port a free one on the loopback
 * interface, its pool mode and pool size the test's, and its files in a folder of its own. It
 * refuses to run as root: run as `postgres`, which owns the folder. Whether it is installed:
 * required under CI, else the test is skipped with a message. And the app's role with the limits
 * the page sets on it (its ```sql block of `ALTER ROLE app SET ..._timeout`), run as written on a
 * role of the test's own.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { fencedBlocks } from './doc-snippets.js'
import { freePort } from './free-port.js'

const PGBOUNCER = '/usr/sbin/pgbouncer'
const DEPLOYMENT = new URL('../../../docs/deployment.md', import.meta.url).pathname
const run = promisify(execFile)

/** Whether PgBouncer is installed; under CI its absence throws. */
export function pgbouncerPresent(skipped: string): boolean {
  if (existsSync(PGBOUNCER)) return true
  const message = `PgBouncer is not installed (apt-get install -y pgbouncer): ${skipped} is skipped.`
  if (process.env.CI) throw new Error(message)
  console.warn(message)
  return false
}

/** `name = value` of the block's `[pgbouncer]` section set to `value`, or added to it. */
function setting(ini: string, name: string, value: string | number): string {
  const line = new RegExp(`^${name} = .*$`, 'm')
  if (line.test(ini)) return ini.replace(line, `${name} = ${value}`)
  return ini.replace(/^\[pgbouncer\]$/m, `[pgbouncer]\n${name} = ${value}`)
}

export interface PgbouncerOptions {
  /** `transaction` or `session`. */
  mode: 'transaction' | 'session'
  /** Its server connections for each database and user (`default_pool_size`). */
  poolSize: number
}

/** PgBouncer before the server of `url` (`postgres://user@host:port/db`): the URL through it. */
export async function startPgbouncer(url: string, options: PgbouncerOptions) {
  const server = new URL(url)
  const database = server.pathname.slice(1)
  const blocks = fencedBlocks('deployment.md', await readFile(DEPLOYMENT, 'utf8'))
  const ini = blocks.filter(
    (block) => block.language === 'ini' && /^\[pgbouncer\]$/m.test(block.code)
  )
  if (ini.length !== 1) throw new Error(`deployment.md has ${ini.length} PgBouncer blocks`)
  const folder = await mkdtemp(path.join(tmpdir(), 'prisma-hydra-pgbouncer-'))
  const port = await freePort()
  let code = (ini[0]?.code ?? '').replace(
    /^\[databases\]\n[^\n]+$/m,
    `[databases]\n${database} = host=${server.hostname} port=${server.port || 5432} dbname=${database}`
  )
  const own = {
    listen_addr: '127.0.0.1',
    listen_port: port,
    pool_mode: options.mode,
    default_pool_size: options.poolSize,
    // The suite's server trusts local connections: so does PgBouncer, for its one user.
    auth_type: 'trust',
    auth_file: path.join(folder, 'users.txt'),
    logfile: path.join(folder, 'pgbouncer.log'),
    pidfile: path.join(folder, 'pgbouncer.pid'),
    unix_socket_dir: '',
  }
  for (const [name, value] of Object.entries(own)) code = setting(code, name, value)
  await writeFile(path.join(folder, 'pgbouncer.ini'), code)
  await writeFile(own.auth_file, `"${decodeURIComponent(server.username)}" ""\n`)
  await run('chown', ['-R', 'postgres', folder])
  await chmod(folder, 0o755)
  const child: ChildProcess = spawn(
    'runuser',
    ['-u', 'postgres', '--', PGBOUNCER, path.join(folder, 'pgbouncer.ini')],
    { stdio: ['ignore', 'pipe', 'pipe'], detached: true }
  )
  let output = ''
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk))
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk))
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()))
  const log = () => readFile(own.logfile, 'utf8').catch(() => '')
  const stop = async () => {
    if (child.exitCode === null && child.pid !== undefined) process.kill(-child.pid, 'SIGTERM')
    await exited
    await rm(folder, { recursive: true, force: true })
  }
  for (let tries = 0; !(await listening(port)); tries++) {
    if (child.exitCode !== null || tries >= 150) {
      const said = `${output}${await log()}`
      await stop()
      throw new Error(`pgbouncer does not listen:\n${said}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  const through = new URL(url)
  through.hostname = '127.0.0.1'
  through.port = String(port)
  return { url: through.href, stop, log }
}

/** What the role's set-up runs through a Prisma client. */
interface Runner {
  $executeRawUnsafe(query: string): PromiseLike<unknown>
}

/**
 * deployment.md's block setting the statement and lock limits on the app's role `app`: its one
 * ```sql block naming `statement_timeout`.
 */
async function documentedLimits(): Promise<string> {
  const blocks = fencedBlocks('deployment.md', await readFile(DEPLOYMENT, 'utf8'))
  const sql = blocks.filter(
    (block) => block.language === 'sql' && /statement_timeout/.test(block.code)
  )
  if (sql.length !== 1) throw new Error(`deployment.md has ${sql.length} blocks of the limits`)
  const code = sql[0]?.code ?? ''
  if (!/^ALTER ROLE app SET /m.test(code))
    throw new Error(`the limits' block sets no role app:\n${code}`)
  return code
}

/**
 * A new login role `name` on the server of `url`, which may read and write every table of its
 * databases (the tables are its owner's, pushed past the pooler), and, when `limits`, the limits
 * deployment.md sets on the app's role, its statements run one by one with the role named `name`.
 * `url` as that role, and `drop`, which removes it and its settings.
 */
export async function appRole(runner: Runner, url: string, name: string, limits: boolean) {
  await dropStaleRoles(runner)
  await runner.$executeRawUnsafe(`CREATE ROLE "${name}" LOGIN`)
  const drop = async () => void (await runner.$executeRawUnsafe(`DROP ROLE IF EXISTS "${name}"`))
  try {
    await runner.$executeRawUnsafe(`GRANT pg_read_all_data, pg_write_all_data TO "${name}"`)
    const statements = limits ? (await documentedLimits()).split(/;\s*/).filter(Boolean) : []
    for (const statement of statements)
      await runner.$executeRawUnsafe(statement.replace(/^ALTER ROLE app /, `ALTER ROLE "${name}" `))
  } catch (error) {
    await drop()
    throw error
  }
  const as = new URL(url)
  as.username = name
  as.password = ''
  return { url: as.href, drop }
}

/**
 * Drops the roles earlier runs made and a killed one left on the shared server (`appRole`'s names),
 * those with no session: they may read and write every table. One still owning something is left.
 */
async function dropStaleRoles(runner: Runner): Promise<void> {
  await runner.$executeRawUnsafe(`DO $$
DECLARE stale text;
BEGIN
  FOR stale IN SELECT rolname FROM pg_roles WHERE rolname LIKE 'prisma\\_hydra\\_app\\_%'
    AND NOT EXISTS (SELECT 1 FROM pg_stat_activity WHERE usename = rolname)
  LOOP
    BEGIN
      EXECUTE format('DROP ROLE %I', stale);
    EXCEPTION WHEN dependent_objects_still_exist THEN NULL;
    END;
  END LOOP;
END $$`)
}

/** Whether something accepts connections on `port` of the loopback interface. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.destroy()
      resolve(true)
    })
    socket.on('error', () => resolve(false))
  })
}
