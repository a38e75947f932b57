/**
 * A real PostgreSQL primary and streaming standby of a test's own: a new cluster (`initdb`) in a
 * temporary folder on a free port, a standby made from it with `pg_basebackup -R -X stream` on
 * another, both started with `pg_ctl`, stopped and removed by `stop()`. As root, the clusters
 * belong to the `postgres` user (PostgreSQL refuses to run as root). Each server logs every
 * statement with its backend and virtual transaction (`%p %v`) to a file the test can read.
 */
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { appendFile, chown, mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { freePort } from './free-port.js'

const run = promisify(execFile)

/** The folder of PostgreSQL's server programs, or undefined with the reason they cannot be used. */
export async function postgresPrograms(): Promise<{ bin?: string; missing?: string }> {
  let bin: string
  try {
    bin = (await run('pg_config', ['--bindir'], { timeout: 5000 })).stdout.trim()
  } catch {
    return { missing: 'pg_config is not installed (PostgreSQL server packages)' }
  }
  for (const program of ['initdb', 'pg_ctl', 'pg_basebackup', 'postgres']) {
    if (!existsSync(path.join(bin, program)))
      return { missing: `${program} is not in ${bin} (PostgreSQL server packages)` }
  }
  if (process.getuid?.() === 0) {
    try {
      await run('id', ['postgres'], { timeout: 5000 })
    } catch {
      return { missing: 'running as root without a postgres user to own the clusters' }
    }
  }
  return { bin }
}

/** One server of the pair. */
export interface PgServer {
  port: number
  /** `postgres://postgres@127.0.0.1:PORT/postgres`. */
  url: string
  /** Stops it (fast shutdown: connections are closed). */
  stop(): Promise<void>
  start(): Promise<void>
  /** Its statement log so far. */
  log(): Promise<string>
}

export interface PgPair {
  primary: PgServer
  standby: PgServer
  /** Stops both and removes their folder. */
  stop(): Promise<void>
}

const BOUND = 30_000

/** Makes and starts the pair: about 3 s on an idle machine. */
export async function startPgPair(bin: string): Promise<PgPair> {
  const asRoot = process.getuid?.() === 0
  const dir = await mkdtemp(path.join(tmpdir(), 'prisma-hydra-pg-pair-'))
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres'])
    const { stdout: group } = await run('id', ['-g', 'postgres'])
    await chown(dir, Number(stdout), Number(group))
  }
  const program = (name: string, args: string[]) =>
    asRoot
      ? run('runuser', ['-u', 'postgres', '--', path.join(bin, name), ...args], { timeout: BOUND })
      : run(path.join(bin, name), args, { timeout: BOUND })
  const started: PgServer[] = []
  const server = async (name: string, port: number): Promise<PgServer> => {
    const data = path.join(dir, name)
    const logFile = path.join(dir, `${name}.log`)
    const stop = async () => {
      await program('pg_ctl', ['-D', data, '-w', '-m', 'fast', 'stop']).catch(() => undefined)
    }
    const start = async () => {
      await program('pg_ctl', ['-D', data, '-l', logFile, '-w', '-t', '30', 'start'])
    }
    return {
      port,
      url: `postgres://postgres@127.0.0.1:${port}/postgres`,
      stop,
      start,
      log: () => readFile(logFile, 'utf8').catch(() => ''),
    }
  }
  const settings = (port: number) =>
    [
      '',
      `port = ${port}`,
      "listen_addresses = '127.0.0.1'",
      `unix_socket_directories = '${dir}'`,
      'wal_level = replica',
      'max_connections = 40',
      'shared_buffers = 16MB',
      'fsync = off',
      "log_statement = 'all'",
      "log_line_prefix = '%p %v '",
      '',
    ].join('\n')
  try {
    const [primaryPort, standbyPort] = [await freePort(), await freePort()]
    const primaryData = path.join(dir, 'primary')
    await program('initdb', ['-D', primaryData, '-A', 'trust', '-U', 'postgres', '--no-sync'])
    await appendFile(path.join(primaryData, 'postgresql.conf'), settings(primaryPort))
    await appendFile(
      path.join(primaryData, 'pg_hba.conf'),
      '\nhost replication all 127.0.0.1/32 trust\n'
    )
    const primary = await server('primary', primaryPort)
    await primary.start()
    started.push(primary)
    await program('pg_basebackup', [
      ...['-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres'],
      ...['-D', path.join(dir, 'standby'), '-R', '-X', 'stream', '--no-sync'],
    ])
    await appendFile(path.join(dir, 'standby', 'postgresql.conf'), `\nport = ${standbyPort}\n`)
    const standby = await server('standby', standbyPort)
    await standby.start()
    started.push(standby)
    return {
      primary,
      standby,
      async stop() {
        for (const one of started.reverse()) await one.stop()
        await rm(dir, { recursive: true, force: true })
      },
    }
  } catch (error) {
    for (const one of started.reverse()) await one.stop()
    await rm(dir, { recursive: true, force: true })
    throw error
  }
}
