#!/usr/bin/env node
// Applies a Prisma schema to a database with Prisma's own schema engine (the wasm build,
// `@prisma/schema-engine-wasm`), the offline equivalent of `prisma db push`. No DDL is written
// by hand: the engine diffs the schema against the live database and migrates it. MySQL/MariaDB,
// which the wasm engine cannot reach, get DDL derived from the schema's DMMF instead
// (src/mysql-ddl.mjs, applied by src/mysql-push.mjs).
//
//   prisma-offline-push <schemaPath> <url>   (or node tools/prisma-offline/src/push-schema.mjs)
//   import { pushSchema } from '@prisma-hydra/prisma-offline/push-schema'
//   await pushSchema({ schemaPath: 'prisma/schema.prisma', url: 'file:./dev.db' })
//
// The URL scheme picks the driver adapter from ADAPTERS:
//   file:                     SQLite, @prisma/adapter-better-sqlite3 (relative paths resolve
//                             against the current working directory); @prisma/adapter-libsql on
//                             Bun and Deno, or with SQLITE_DRIVER=libsql
//   postgres:, postgresql:    PostgreSQL, @prisma/adapter-pg
//   mysql:, mariadb:          MySQL/MariaDB, @prisma/adapter-mariadb. The schema engine cannot
//                             apply a schema to them: every published build of
//                             @prisma/schema-engine-wasm is compiled with the SQLite and
//                             PostgreSQL connectors only, and its driver-adapter constructor panics
//                             on any other provider ("Unsupported adapter provider: Mysql").
//                             openSchemaEngine() refuses them up front; pushSchema() creates their
//                             tables from the DMMF-derived DDL of src/mysql-ddl.mjs (new
//                             databases only: src/mysql-push.mjs).
// Each database's schema must declare the matching datasource provider (src/schema-copy.mjs
// writes a copy of a schema for another provider).
//
// The helpers below are shared with src/schema-engine.mjs (the JSON-RPC shim for the CLI).

import { realpathSync } from 'node:fs'
import { readdir, readFile, stat } from 'node:fs/promises'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { mysqlDatamodel, mysqlDdl } from './mysql-ddl.mjs'
import { applyMysqlDdl } from './mysql-push.mjs'

const require = createRequire(import.meta.url)

// PostgreSQL's one-byte internal type "char" (OID 18) holds the catalogs' kinds and flags
// (pg_constraint.contype, pg_class.relkind, ...), which the engine's describer reads as text.
// @prisma/adapter-pg 7.10 has no column type for it and rejects the whole result ("Column type
// 'char' could not be deserialized"); node-postgres already returns its values as strings, so the
// columns are reported as text (OID 25), as Prisma's native PostgreSQL driver reads them.
const PG_CHAR_OID = 18
const PG_TEXT_OID = 25

/** Makes a node-postgres-backed queryable of @prisma/adapter-pg report "char" columns as text. */
function readPgCharAsText(queryable) {
  if (typeof queryable.performIO !== 'function') {
    throw new Error(
      'This version of @prisma/adapter-pg has no performIO(); check the "char" column workaround in push-schema.mjs'
    )
  }
  const performIO = queryable.performIO.bind(queryable)
  queryable.performIO = async (query) => {
    const result = await performIO(query)
    for (const field of result.fields) {
      if (field.dataTypeID === PG_CHAR_OID) field.dataTypeID = PG_TEXT_OID
    }
    return result
  }
}

// better-sqlite3 is a native addon that Bun and Deno cannot load; libsql's loads on all three.
// SQLITE_DRIVER=libsql picks it on Node too.
const LIBSQL = Boolean(
  process.versions.bun || process.versions.deno || process.env.SQLITE_DRIVER === 'libsql'
)

const ADAPTERS = [
  {
    schemes: ['file:'],
    provider: 'sqlite',
    pkg: LIBSQL ? '@prisma/adapter-libsql' : '@prisma/adapter-better-sqlite3',
    create: (mod, url) =>
      LIBSQL ? new mod.PrismaLibSql({ url }) : new mod.PrismaBetterSqlite3({ url }),
    // The wasm engine sends whole migration scripts through executeRaw when it replays them on
    // the shadow database (`migrate dev`); better-sqlite3 prepares one statement at a time, so
    // run multi-statement SQL as a script instead.
    patchConnection: (connection) => {
      const executeRaw = connection.executeRaw.bind(connection)
      connection.executeRaw = async (query) => {
        try {
          return await executeRaw(query)
        } catch (error) {
          if (query.args.length > 0 || !/more than one statement/.test(error?.message)) throw error
          await connection.executeScript(query.sql)
          return 0
        }
      }
    },
  },
  {
    schemes: ['postgres:', 'postgresql:'],
    provider: 'postgresql',
    pkg: '@prisma/adapter-pg',
    create: (mod, url) => {
      // With an adapter, the engine neither sets the search_path nor qualifies every name with
      // the schema (enums land in the default schema): one database per run instead.
      const schema = new URL(url).searchParams.get('schema')
      if (schema && schema !== 'public') {
        throw new Error(
          `The wasm schema engine cannot target the PostgreSQL schema "${schema}" (?schema=): ` +
            'use a database of its own instead (createScratchDatabase, @prisma-hydra/prisma-offline/scratch-database)'
        )
      }
      return new mod.PrismaPg({ connectionString: url })
    },
    patchConnection: (connection) => {
      readPgCharAsText(connection)
      const startTransaction = connection.startTransaction.bind(connection)
      connection.startTransaction = async (...args) => {
        const transaction = await startTransaction(...args)
        readPgCharAsText(transaction)
        return transaction
      }
    },
  },
  {
    schemes: ['mysql:', 'mariadb:'],
    provider: 'mysql',
    pkg: '@prisma/adapter-mariadb',
    create: (mod, url) => new mod.PrismaMariaDb(url),
    schemaEngine: false,
  },
]

/** The adapter table's entry for `url`'s scheme; throws for an unknown scheme. */
function adapterSpec(url) {
  const scheme = /^[a-z][a-z0-9+.-]*:/i.exec(url)?.[0].toLowerCase()
  const spec = ADAPTERS.find((a) => a.schemes.includes(scheme))
  if (!spec) {
    const known = ADAPTERS.flatMap((a) => a.schemes).join(', ')
    throw new Error(`Unsupported database URL scheme "${scheme ?? url}" (supported: ${known})`)
  }
  return spec
}

/** The Prisma datasource provider for a database URL: "sqlite", "postgresql" or "mysql". */
export function providerOf(url) {
  return adapterSpec(url).provider
}

/**
 * A driver adapter factory for `url`, for plain SQL outside the engine (src/scratch-database.mjs,
 * tests), with the same fixes the schema engine's connections get.
 */
export async function createDriverAdapter(url) {
  const spec = adapterSpec(url)
  const adapterModule = await importFromApp(spec.pkg, `The URL scheme "${spec.schemes[0]}"`)
  const raw = spec.create(adapterModule, url)
  if (spec.patchConnection) {
    const connect = raw.connect.bind(raw)
    raw.connect = async (...args) => {
      const connection = await connect(...args)
      spec.patchConnection(connection)
      return connection
    }
  }
  return raw
}

/** Imports a package resolved from this app (works for CJS/ESM packages alike). */
async function importFromApp(pkg, purpose) {
  let resolved
  try {
    resolved = require.resolve(pkg)
  } catch {
    throw new Error(
      `${purpose} needs the package ${pkg}; add it to the dependencies of @prisma-hydra/prisma-offline`
    )
  }
  return import(pathToFileURL(resolved).href)
}

let enginePromise
let lastPanicMessage
let openEngines = 0
// The engine races its queries against timers (setTimeout, never cleared): left alone they keep
// the process alive for a minute after the work is done. They are cleared when the last engine
// is disposed.
const pendingTimers = new Set()

/**
 * Loads the schema engine wasm module by hand (its ESM entry imports a `.wasm` file, which
 * Node 20 cannot do without --experimental-wasm-modules). Resolves to the module namespace
 * exporting `SchemaEngine` and `version()`.
 */
export function loadSchemaEngineWasm() {
  enginePromise ??= (async () => {
    // The engine reports Rust panics through this global before trapping; keep the message so
    // the resulting WebAssembly.RuntimeError can say what went wrong (see panicMessage()).
    globalThis.PRISMA_WASM_PANIC_REGISTRY ??= {
      set_message(message) {
        lastPanicMessage = message
      },
    }
    const bgPath = require.resolve('@prisma/schema-engine-wasm/schema_engine_bg')
    const bindings = await import(pathToFileURL(bgPath).href)
    const bytes = await readFile(path.join(path.dirname(bgPath), 'schema_engine_bg.wasm'))
    const imports = { ...bindings }
    for (const name of Object.keys(bindings).filter((n) => n.startsWith('__wbg_setTimeout_'))) {
      imports[name] = (callback, ms) => {
        const timer = setTimeout(() => {
          pendingTimers.delete(timer)
          callback()
        }, ms >>> 0)
        pendingTimers.add(timer)
        return timer
      }
    }
    const { instance } = await WebAssembly.instantiate(bytes, {
      './schema_engine_bg.js': imports,
    })
    bindings.__wbg_set_wasm(instance.exports)
    instance.exports.__wbindgen_start()
    return bindings
  })()
  return enginePromise
}

/** The message of the last Rust panic inside the engine, if any. */
export function panicMessage() {
  return lastPanicMessage
}

/**
 * Creates the migration-aware driver adapter factory the wasm engine needs for `url`.
 * Returns `{ factory, dispose }`; `dispose()` closes every connection the engine opened.
 */
export async function createAdapterFactory(url) {
  const spec = adapterSpec(url)
  if (spec.schemaEngine === false) {
    throw new Error(
      `Prisma's wasm schema engine cannot apply schemas to ${spec.provider} databases (${url.split(':')[0]}: URLs): ` +
        '@prisma/schema-engine-wasm is built with the SQLite and PostgreSQL connectors only'
    )
  }
  const adapterModule = await importFromApp(spec.pkg, `The URL scheme "${spec.schemes[0]}"`)
  const { bindMigrationAwareSqlAdapterFactory } = await importFromApp(
    '@prisma/driver-adapter-utils',
    'The schema engine'
  )
  const raw = spec.create(adapterModule, url)

  // Track the connections the engine opens so that dispose() can close them.
  const connections = []
  for (const method of ['connect', 'connectToShadowDb'].filter(
    (m) => typeof raw[m] === 'function'
  )) {
    const original = raw[method].bind(raw)
    raw[method] = async (...args) => {
      const connection = await original(...args)
      spec.patchConnection?.(connection)
      connections.push(connection)
      return connection
    }
  }
  // Newest first: a PostgreSQL shadow database is dropped through the connection opened before it.
  const dispose = async () => {
    for (const connection of connections.splice(0).reverse()) {
      await connection.dispose().catch(() => {})
    }
  }
  return { factory: bindMigrationAwareSqlAdapterFactory(raw), dispose }
}

/**
 * Reads a schema file, or every `.prisma` file below a schema folder (multi-file schemas).
 * Returns `[{ path, content }]` with absolute paths.
 */
export async function readSchemaFiles(schemaPath) {
  const root = path.resolve(schemaPath)
  if (!(await stat(root)).isDirectory()) {
    return [{ path: root, content: await readFile(root, 'utf8') }]
  }
  const entries = await readdir(root, { recursive: true, withFileTypes: true })
  const files = entries
    .filter((e) => e.isFile() && e.name.endsWith('.prisma'))
    .map((e) => path.join(e.parentPath, e.name))
    .sort()
  if (files.length === 0) throw new Error(`No .prisma files found in ${root}`)
  return Promise.all(files.map(async (p) => ({ path: p, content: await readFile(p, 'utf8') })))
}

/**
 * Starts a wasm schema engine for `schemaFiles` connected to `url`.
 * `log` receives the engine's JSON log lines. Returns `{ engine, dispose }`.
 */
export async function openSchemaEngine({ schemaFiles, url, log = () => {} }) {
  const { SchemaEngine } = await loadSchemaEngineWasm()
  const { factory, dispose: disposeAdapter } = await createAdapterFactory(url)
  openEngines += 1
  const release = async () => {
    await disposeAdapter()
    openEngines -= 1
    if (openEngines === 0) {
      for (const timer of pendingTimers) clearTimeout(timer)
      pendingTimers.clear()
    }
  }
  try {
    const engine = await SchemaEngine.new(
      { datamodels: schemaFiles.map((f) => [f.path, f.content]) },
      log,
      factory
    )
    const dispose = async () => {
      engine.free()
      await release()
    }
    return { engine, dispose }
  } catch (error) {
    await release()
    throw error
  }
}

/**
 * Pushes the schema at `schemaPath` (file or folder) to the database at `url`.
 * With `force` (default) data-loss warnings are accepted; without it, a push that would lose
 * data is refused. Throws if the engine reports an error or unexecutable steps.
 * Idempotent: a second push of the same schema executes 0 steps.
 *
 * @param {{ schemaPath: string, url: string, force?: boolean }} options
 * @returns {Promise<{ executedSteps: number, warnings: string[] }>}
 */
export async function pushSchema({ schemaPath, url, force = true }) {
  if (!schemaPath || !url) throw new Error('pushSchema needs both schemaPath and url')
  const files = await readSchemaFiles(schemaPath)
  if (adapterSpec(url).schemaEngine === false) return pushMysqlSchema(files, url)
  const { engine, dispose } = await openSchemaEngine({ schemaFiles: files, url })
  try {
    const result = await engine.schemaPush({
      force,
      schema: { files },
      filters: { externalTables: [], externalEnums: [] },
    })
    if (result.unexecutable.length > 0) {
      throw new Error(
        `Schema push to ${url} has changes that cannot be executed:\n- ${result.unexecutable.join('\n- ')}`
      )
    }
    if (!force && result.warnings.length > 0) {
      throw new Error(
        `Schema push to ${url} was not applied because it would lose data (use force):\n- ${result.warnings.join('\n- ')}`
      )
    }
    return { executedSteps: result.executedSteps, warnings: result.warnings }
  } finally {
    await dispose()
  }
}

/**
 * pushSchema for MySQL/MariaDB: the DDL derived from the schema (mysql-ddl.mjs) applied through
 * @prisma/adapter-mariadb. It only ever creates tables, so no push can lose data (`force` has
 * nothing to accept).
 */
async function pushMysqlSchema(files, url) {
  const ddl = mysqlDdl(mysqlDatamodel(files))
  const factory = await createDriverAdapter(url)
  const connection = await factory.connect()
  try {
    return await applyMysqlDdl(connection, ddl)
  } finally {
    await connection.dispose()
  }
}

const isMain = process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)
if (isMain) {
  const [schemaPath, url] = process.argv.slice(2)
  if (!schemaPath || !url) {
    console.error('Usage: prisma-offline-push <schemaPath> <url>')
    process.exit(2)
  }
  try {
    const { executedSteps, warnings } = await pushSchema({ schemaPath, url })
    for (const warning of warnings) console.warn(`warning: ${warning}`)
    console.log(
      executedSteps === 0
        ? `${url} is already in sync with ${schemaPath}`
        : `Applied ${executedSteps} step(s) from ${schemaPath} to ${url}`
    )
  } catch (error) {
    console.error(error instanceof Error ? error.message : error)
    process.exit(1)
  }
}
