#!/usr/bin/env node
// Offline stand-in for Prisma's native schema engine binary, backed by the wasm build
// (`@prisma/schema-engine-wasm`) and the driver adapters of push-schema.mjs. Point the
// CLI at it with PRISMA_SCHEMA_ENGINE_BINARY (src/prisma.mjs does this); the CLI then skips
// downloading the native engine.
//
// What the Prisma 7.10 CLI expects from the binary, and what this shim does:
//   schema-engine --version        prints "schema-engine-cli <wasm git hash>"
//   schema-engine --datasource '{"url":…}' cli can-connect-to-database | create-database
//       run before the RPC session by `db push`, `migrate *`: checks / creates the SQLite file or
//       the PostgreSQL database (CREATE DATABASE through the maintenance database `postgres`).
//       Errors go to stderr as JSON log lines ({level:"ERROR", fields:{error_code, message}}),
//       after one leading line (the CLI skips the first stderr line), with exit code 1.
//   schema-engine [--datamodels <file>]… [--datasource '{"url":…}'] [--enabled-preview-features …]
//       a JSON-RPC 2.0 session: one JSON message per line on stdin/stdout, engine logs as JSON
//       lines on stderr. Each method is forwarded to the wasm SchemaEngine method of the same name
//       (`getDatabaseVersion` → `version`); methods the wasm engine lacks (`createDatabase`,
//       `getDatabaseDescription`) answer "method not found". The engine is created lazily with
//       the datamodel files and the datasource URL given on the command line.
//
// Checked offline with SQLite `file:` URLs (relative paths resolve against the directory of
// prisma.config.ts, the cwd the CLI gives the engine): `generate`, `version`, `validate`,
// `format`, `db push` (also `--accept-data-loss`, `--force-reset`), `db pull`, `migrate dev`,
// `migrate deploy`, `migrate status`, `migrate reset --force`, `migrate diff --from-empty
// --to-schema … --script` (to stdout and `--output`); and with `postgres://` URLs:
// `db push` (creating the database), `db pull`, `migrate dev` (its shadow database is created
// and dropped by @prisma/adapter-pg), `migrate status`, `migrate reset --force`. MySQL/MariaDB
// URLs are refused with P1013: the wasm engine has no MySQL connector (push-schema.mjs applies
// DDL derived from the schema to them instead, src/mysql-ddl.mjs).

import { existsSync, mkdirSync, rmSync } from 'node:fs'
import path from 'node:path'
import readline from 'node:readline'
import {
  createAdapterFactory,
  createDriverAdapter,
  loadSchemaEngineWasm,
  openSchemaEngine,
  panicMessage,
  providerOf,
  readSchemaFiles,
} from './push-schema.mjs'
import { createDatabase, databaseName } from './scratch-database.mjs'

const FILTERS = { externalTables: [], externalEnums: [] }

/** Parses the flags the CLI passes; returns { datamodels, datasource, rest }. */
function parseArgs(argv) {
  const options = { datamodels: [], datasource: undefined, rest: [] }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    if (arg === '--datamodels') options.datamodels.push(argv[++i])
    else if (arg === '--datasource') options.datasource = JSON.parse(argv[++i])
    else if (arg === '--enabled-preview-features' || arg === '--extension-types') i++
    else options.rest.push(arg)
  }
  return options
}

/** Writes one log line in the engine's stderr format (the CLI parses these as JSON). */
function logLine(level, fields) {
  process.stderr.write(`${JSON.stringify({ level, fields, target: 'schema_engine::logger' })}\n`)
}

/** Absolute path of a SQLite `file:` URL, resolved against the cwd like the adapter does. */
function sqlitePath(url) {
  return path.resolve(url.slice('file:'.length))
}

/** Whether the server answers and the database in `url` exists (a PostgreSQL/MySQL URL). */
async function checkServerDatabase(url) {
  const factory = await createDriverAdapter(url)
  let connection
  try {
    connection = await factory.connect()
    await connection.queryRaw({ sql: 'SELECT 1', args: [], argTypes: [] })
    return { exists: true }
  } catch (error) {
    if (error?.cause?.kind === 'DatabaseDoesNotExist') return { exists: false }
    throw error
  } finally {
    await connection?.dispose()
  }
}

/** `cli <command>`: one-shot commands; errors are reported as ERROR log lines with exit 1. */
async function runCliCommand(command, url) {
  logLine('INFO', { message: `Starting schema engine CLI command ${command}` })
  const fail = (error_code, message) => {
    logLine('ERROR', { error_code, message })
    process.exitCode = 1
  }
  let provider
  try {
    provider = providerOf(url ?? '')
  } catch (error) {
    return fail('P1013', error.message)
  }
  if (provider === 'mysql') {
    return fail(
      'P1013',
      "Prisma's wasm schema engine has no MySQL/MariaDB connector: it can apply schemas to SQLite and PostgreSQL only " +
        '(prisma-offline-push creates MySQL tables from DDL derived from the schema instead)'
    )
  }
  if (command !== 'can-connect-to-database' && command !== 'create-database') {
    return fail('P1000', `Unknown cli command "${command}"`)
  }
  if (provider === 'sqlite') {
    const file = sqlitePath(url)
    if (command === 'can-connect-to-database') {
      if (!existsSync(file))
        fail('P1003', `Database ${path.basename(file)} does not exist at ${file}`)
    } else {
      mkdirSync(path.dirname(file), { recursive: true })
      const { factory, dispose } = await createAdapterFactory(url)
      await factory.connect() // opening the file creates it
      await dispose()
    }
    return
  }
  try {
    const { exists } = await checkServerDatabase(url)
    const { host } = new URL(url)
    if (command === 'can-connect-to-database') {
      if (!exists)
        fail(
          'P1003',
          `Database \`${databaseName(url)}\` does not exist on the database server at \`${host}\`.`
        )
    } else if (!exists) {
      await createDatabase(url)
    }
  } catch (error) {
    fail(
      error?.cause?.kind === 'DatabaseNotReachable' ? 'P1001' : 'P1000',
      error?.message ?? String(error)
    )
  }
}

/** Turns an engine exception into a JSON-RPC error object the CLI understands. */
function rpcError(error) {
  const message = error instanceof Error ? error.message : String(error)
  if (error instanceof WebAssembly.RuntimeError) {
    const panic = panicMessage() ?? message
    return {
      code: 4466,
      message: panic,
      data: { is_panic: true, message: panic, error: { message: panic } },
    }
  }
  return {
    code: 4466,
    message: 'An error happened. Check the data field for details.',
    data: { is_panic: false, message, error_code: error?.code, meta: error?.meta ?? {} },
  }
}

/**
 * The wasm SQLite connector reports a missing `_prisma_migrations` table as error P1014, where
 * the native engine treats it as "migrations not initialized yet"; this breaks `migrate dev` and
 * `migrate status` on a database that has no migrations table.
 */
function isMissingMigrationsTable(error) {
  return error?.code === 'P1014' && String(error.message).includes('_prisma_migrations')
}

/**
 * The schema the engine is made with when the CLI names none (`migrate diff` sends its schemas
 * with the request): the wasm engine refuses to start without a file, the native one does not.
 */
function providerOnly(url) {
  return {
    path: 'schema.prisma',
    content: `datasource db {\n  provider = "${providerOf(url)}"\n}\n`,
  }
}

/** The `print` requests sent to the CLI, numbered for their JSON-RPC ids. */
let prints = 0

/**
 * The native engine prints `diff`'s script through a `print` request to the CLI, which writes it
 * to its standard output or to `--output`, and answers without it; the wasm engine returns it as
 * `stdout`, which the CLI ignores: print it as the native engine does.
 */
function printed(method, result) {
  if (method !== 'diff' || typeof result?.stdout !== 'string') return result ?? null
  const content = result.stdout.replace(/\n$/, '')
  process.stdout.write(
    `${JSON.stringify({ jsonrpc: '2.0', id: `print-${++prints}`, method: 'print', params: { content } })}\n`
  )
  return { ...result, stdout: null }
}

/** JSON-RPC session over stdio, one request at a time, until stdin closes. */
async function serve({ datamodels, datasource }) {
  const url = datasource?.url
  let session
  const engine = () => {
    session ??= (async () => {
      if (!url)
        throw new Error(
          'The wasm schema engine needs a datasource url (set it in prisma.config.ts)'
        )
      const schemaFiles = datamodels.length
        ? (await Promise.all(datamodels.map(readSchemaFiles))).flat()
        : [providerOnly(url)]
      return openSchemaEngine({
        schemaFiles,
        url,
        log: (line) => process.stderr.write(`${line}\n`),
      })
    })()
    return session.then((s) => s.engine)
  }
  const closeSession = async () => {
    const current = session
    session = undefined
    if (current)
      await current.then(
        (s) => s.dispose(),
        () => {}
      )
  }

  const handle = async ({ method: rpcMethod, params }) => {
    const method = rpcMethod === 'getDatabaseVersion' ? 'version' : rpcMethod
    if (method === 'reset' && url?.startsWith('file:')) {
      // The wasm SQLite connector's reset does nothing; like the native engine, delete the
      // database file (the next request reopens an empty one).
      await closeSession()
      const file = sqlitePath(url)
      for (const suffix of ['', '-journal', '-wal', '-shm'])
        rmSync(`${file}${suffix}`, { force: true })
      return { result: null }
    }
    const instance = await engine()
    if (typeof instance[method] !== 'function' || method === 'free' || method === 'constructor') {
      return { error: { code: -32601, message: `Method not found: ${rpcMethod}` } }
    }
    const call = async () => ({ result: printed(method, await instance[method](params)) })
    try {
      return await call()
    } catch (error) {
      if (!isMissingMigrationsTable(error)) throw error
      // Create the empty migrations table the way the engine itself does (applying an empty
      // migration list), then retry once.
      await instance.applyMigrations({
        migrationsList: {
          baseDir: process.cwd(),
          lockfile: { path: 'migration_lock.toml', content: null },
          shadowDbInitScript: '',
          ...params?.migrationsList,
          migrationDirectories: [],
        },
        filters: params?.filters ?? FILTERS,
      })
      return call()
    }
  }

  const reply = (message) =>
    process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`)
  let queue = Promise.resolve()
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity })
  lines.on('line', (line) => {
    if (!line.trim()) return
    queue = queue.then(async () => {
      let request
      try {
        request = JSON.parse(line)
      } catch {
        reply({ id: null, error: { code: -32700, message: 'Parse error' } })
        return
      }
      // Replies from the CLI (to a `print` request) carry no method.
      if (!request.method) return
      const outcome = await handle(request).catch((error) => ({ error: rpcError(error) }))
      reply({ id: request.id, ...outcome })
    })
  })

  const shutdown = async () => {
    await queue
    await closeSession()
  }
  // The CLI ends stdin and kills the engine right away: close the database cleanly first.
  process.once('SIGTERM', () => shutdown().finally(() => process.exit(0)))
  await new Promise((resolve) => lines.once('close', resolve))
  await shutdown()
}

// A Rust panic inside an engine task surfaces as an uncaught WebAssembly trap: report it the
// way the native engine does (an ERROR log line, exit code 101) so the CLI shows the message.
process.on('uncaughtException', (error) => {
  logLine('ERROR', { message: panicMessage() ?? String(error?.stack ?? error) })
  process.exit(101)
})

const options = parseArgs(process.argv.slice(2))
const [first, second] = options.rest
if (first === '--version' || first === '-V') {
  const { version } = await loadSchemaEngineWasm()
  process.stdout.write(`schema-engine-cli ${version()}\n`)
} else if (first === '--help' || first === '-h') {
  process.stdout.write(
    'Usage: schema-engine.mjs [--datamodels <file>]... [--datasource <json>] [cli <command>]\n' +
      'Without a cli command it serves the Prisma schema engine JSON-RPC protocol on stdio.\n'
  )
} else if (first === 'cli') {
  await runCliCommand(second, options.datasource?.url)
} else if (first === undefined) {
  await serve(options)
} else {
  process.stderr.write(`schema-engine.mjs: unknown argument ${first}\n`)
  process.exitCode = 2
}
