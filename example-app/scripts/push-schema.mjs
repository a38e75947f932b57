#!/usr/bin/env node
// Applies a Prisma schema to a database with Prisma's own schema engine (the wasm build,
// `@prisma/schema-engine-wasm`), the offline equivalent of `prisma db push`. No DDL is written
// by hand: the engine diffs the schema against the live database and migrates it.
//
//   node scripts/push-schema.mjs <schemaPath> <url>
//   import { pushSchema } from './scripts/push-schema.mjs'
//   await pushSchema({ schemaPath: 'prisma/schema.prisma', url: 'file:./dev.db' })
//
// The URL scheme picks the driver adapter from ADAPTERS; today only `file:` (SQLite, through
// @prisma/adapter-better-sqlite3). Relative SQLite paths are resolved against the current working
// directory. PostgreSQL and MySQL/MariaDB were tried and do not work with this wasm engine build
// (8.1.0-2.59be4fda…): it panics with "Unsupported adapter provider: Mysql", and through
// @prisma/adapter-pg 7.10.1 it fails to read the catalogs ("Column type 'char' could not be
// deserialized"). A new entry in ADAPTERS is all another database would need.
//
// The helpers below are shared with scripts/schema-engine.mjs (the JSON-RPC shim for the CLI).

import { realpathSync } from 'node:fs'
import { readdir, readFile, stat } from 'node:fs/promises'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const require = createRequire(import.meta.url)

const ADAPTERS = [
  {
    schemes: ['file:'],
    pkg: '@prisma/adapter-better-sqlite3',
    create: (mod, url) => new mod.PrismaBetterSqlite3({ url }),
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
]

/** Imports a package resolved from this app (works for CJS/ESM packages alike). */
async function importFromApp(pkg, purpose) {
  let resolved
  try {
    resolved = require.resolve(pkg)
  } catch {
    throw new Error(`${purpose} needs the package ${pkg}; add it to example-app's dependencies`)
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
  const scheme = /^[a-z][a-z0-9+.-]*:/i.exec(url)?.[0].toLowerCase()
  const spec = ADAPTERS.find((a) => a.schemes.includes(scheme))
  if (!spec) {
    const known = ADAPTERS.flatMap((a) => a.schemes).join(', ')
    throw new Error(
      `Unsupported database URL scheme "${scheme ?? url}" (supported: ${known}); ` +
        'the wasm schema engine does not work with the PostgreSQL and MySQL driver adapters'
    )
  }
  const adapterModule = await importFromApp(spec.pkg, `The URL scheme "${scheme}"`)
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
  const dispose = async () => {
    await Promise.allSettled(connections.splice(0).map((c) => c.dispose()))
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

const isMain = process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)
if (isMain) {
  const [schemaPath, url] = process.argv.slice(2)
  if (!schemaPath || !url) {
    console.error('Usage: node scripts/push-schema.mjs <schemaPath> <url>')
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
