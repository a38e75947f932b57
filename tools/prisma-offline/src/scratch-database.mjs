// Creates and drops databases, on PostgreSQL and MySQL/MariaDB, through the same driver adapters
// as the schema engine (src/push-schema.mjs): one fresh database per run, so that runs never
// see each other's rows. Only CREATE/DROP DATABASE is issued here; tables are the schema
// engine's business.
//
//   import { createScratchDatabase } from '@prisma-hydra/prisma-offline/scratch-database'
//   const { url, drop } = await createScratchDatabase(process.env.DATABASE_URL_POSTGRES)
//   await pushSchema({ schemaPath, url }) … await drop()
//
// A database per run rather than a PostgreSQL schema per run (?schema=): Prisma's wasm engine
// with a driver adapter neither sets the search_path nor qualifies every name with the schema,
// and a client would need the schema passed to its adapter separately; a database needs nothing
// but its URL, and dropping it removes everything the run made (tables, enum types, sequences).
// MySQL has no schemas below a database anyway.

import { randomBytes } from 'node:crypto'
import { createDriverAdapter, providerOf } from './push-schema.mjs'

const NAME = /^[a-z_][a-z0-9_]{0,62}$/

/** The database named in a server URL's path ('' when none). */
export function databaseName(url) {
  return decodeURIComponent(new URL(url).pathname.replace(/^\//, ''))
}

/** `url` pointing at database `name`. */
export function withDatabase(url, name) {
  const next = new URL(url)
  next.pathname = `/${encodeURIComponent(name)}`
  return next.toString()
}

/** Runs statements one by one on a connection to `url`, then closes it. */
async function execute(url, statements) {
  const factory = await createDriverAdapter(url)
  const connection = await factory.connect()
  try {
    for (const sql of statements) await connection.executeRaw({ sql, args: [], argTypes: [] })
  } finally {
    await connection.dispose()
  }
}

/** CREATE/DROP statements for `provider`. `name` has been checked against NAME. */
const DIALECTS = {
  postgresql: {
    // Connected to the maintenance database, like Prisma's own engine does.
    adminDatabase: 'postgres',
    create: (name) => [`CREATE DATABASE "${name}"`],
    // WITH (FORCE) (PostgreSQL 13+) ends the sessions a run left open.
    drop: (name) => [`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`],
  },
  mysql: {
    // Every account may connect to it (the mariadb driver needs a database in the URL).
    adminDatabase: 'information_schema',
    // The character set and collation Prisma's MySQL migrations give every table they create.
    create: (name) => [
      `CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`,
    ],
    drop: (name) => [`DROP DATABASE IF EXISTS \`${name}\``],
  },
}

function dialectFor(url) {
  const provider = providerOf(url)
  const dialect = DIALECTS[provider]
  if (!dialect) throw new Error(`Creating databases is not supported for ${provider} URLs`)
  return dialect
}

function checkedName(url) {
  const name = databaseName(url)
  if (!NAME.test(name)) {
    throw new Error(
      `Database name "${name}" must be lower-case letters, digits and underscores (at most 63)`
    )
  }
  return name
}

/** What went wrong, from a driver adapter error (`{ kind, originalMessage }` in its cause) or any other. */
function reason(error) {
  const details = error?.cause
  if (details && typeof details === 'object' && 'kind' in details) {
    return details.originalMessage ? `${details.kind} (${details.originalMessage})` : details.kind
  }
  return error instanceof Error ? error.message : String(error)
}

/**
 * Checks that the server of `url` answers: connects to its maintenance database and asks for its
 * version (resolved). Rejects with a message naming the server (password hidden) and the cause,
 * after `timeoutMs` at most.
 *
 * @param {string} url
 * @param {{ timeoutMs?: number }} [options]
 * @returns {Promise<string>}
 */
export async function checkServer(url, { timeoutMs = 5000 } = {}) {
  const dialect = dialectFor(url)
  const target = new URL(url)
  const where = `${target.protocol}//${target.host}`
  let timer
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer after ${timeoutMs} ms`)), timeoutMs)
  })
  const ask = async () => {
    const factory = await createDriverAdapter(withDatabase(url, dialect.adminDatabase))
    const connection = await factory.connect()
    try {
      const { rows } = await connection.queryRaw({
        sql: 'SELECT version()',
        args: [],
        argTypes: [],
      })
      return String(rows[0]?.[0])
    } finally {
      await connection.dispose()
    }
  }
  try {
    return await Promise.race([ask(), timeout])
  } catch (error) {
    throw new Error(`The database server ${where} cannot be reached: ${reason(error)}`, {
      cause: error,
    })
  } finally {
    clearTimeout(timer)
  }
}

/** Creates the database named in `url` (connecting to the server's maintenance database). */
export async function createDatabase(url) {
  const dialect = dialectFor(url)
  const name = checkedName(url)
  await execute(withDatabase(url, dialect.adminDatabase), dialect.create(name))
}

/** Drops the database named in `url` if it exists. */
export async function dropDatabase(url) {
  const dialect = dialectFor(url)
  const name = checkedName(url)
  await execute(withDatabase(url, dialect.adminDatabase), dialect.drop(name))
}

/**
 * Creates a new, empty database on the server of `serverUrl` (any database URL of that server,
 * e.g. its `test` database) with a unique name starting with `prefix`.
 * Returns its `url`, `name` and `drop()`.
 *
 * @param {string} serverUrl
 * @param {{ prefix?: string }} [options]
 * @returns {Promise<{ url: string, name: string, drop: () => Promise<void> }>}
 */
export async function createScratchDatabase(serverUrl, { prefix = 'prisma_hydra' } = {}) {
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`
  const url = withDatabase(serverUrl, name)
  await createDatabase(url)
  return { url, name, drop: () => dropDatabase(url) }
}
