/**
 * The files of a Cloudflare Worker over D1, as docs/runtime-workers.md writes them: the script
 * writing the Worker's own schema, the entry and wrangler's configuration.
 */

import path from 'node:path'
import type { Layout } from './layout.js'
import { importFromSrc, schemaOutput } from './layout.js'

/** The Worker's schema beside the project's, and the folder of its generated code. */
export interface WorkersLayout {
  /** `prisma/workers.prisma` */
  schemaPath: string
  /** The folder holding the project's generated client and routes: `src/generated`. */
  generatedFolder: string
  /** The same for the Worker's: `src/generated-workers`. */
  workersFolder: string
}

/**
 * The Worker's layout, when the client and the routes are generated into one folder (the script
 * renames that folder's outputs); undefined otherwise.
 */
export function workersLayout(layout: Layout): WorkersLayout | undefined {
  const generatedFolder = path.posix.dirname(layout.clientFolder)
  if (path.posix.dirname(layout.hydraFolder) !== generatedFolder) return undefined
  return {
    schemaPath: path.posix.join(path.posix.dirname(layout.schemaPath), 'workers.prisma'),
    generatedFolder,
    workersFolder: `${generatedFolder}-workers`,
  }
}

/** `scripts/workers-schema.mjs`: writes the Worker's schema from the project's. */
export function workersSchemaScript(layout: Layout, workers: WorkersLayout): string {
  const from = `"${schemaOutput(layout, workers.generatedFolder)}/`
  const to = `"${schemaOutput(layout, workers.workersFolder)}/`
  const source = path.posix.basename(layout.schemaPath)
  return `// Writes ${workers.schemaPath}, the schema of the Cloudflare Worker, from ${layout.schemaPath}:
// the same models, the client generated for workerd, and it and its routes in
// ${workers.workersFolder}/, so that the Worker's routes are typed with the Worker's client.
import { readFileSync, writeFileSync } from 'node:fs'

const schema = readFileSync('${layout.schemaPath}', 'utf8')
const client = /^(\\s*provider\\s*=\\s*"prisma-client")$/m
const outputs = /${escapeRegExp(from).replaceAll('/', '\\/')}/g
if (!client.test(schema) || !schema.match(outputs)) {
  throw new Error('${layout.schemaPath}: no "prisma-client" generator writing to ${workers.generatedFolder}/')
}
const workers = schema
  .replace(client, '$1\\n  runtime             = "workerd"')
  .replace(outputs, '${to}')
writeFileSync(
  '${workers.schemaPath}',
  \`// Written by scripts/workers-schema.mjs from ${source}: edit that file instead.\\n\${workers}\`
)
`
}

/** `src/worker.ts`: the app made on the first request, when the D1 binding is known. */
export function workerEntry(layout: Layout, workers: WorkersLayout): string {
  const generated = (folder: string, file: string) =>
    importFromSrc(`${workers.workersFolder}/${path.posix.basename(folder)}/${file}`)
  return `import { PrismaD1 } from '@prisma/adapter-d1'
import { hydraErrorHandler, hydraNotFound } from '@prisma-hydra/runtime'
import { type ExecutionContext, Hono } from 'hono'
import { createHydraApp } from '${generated(layout.hydraFolder, 'index.js')}'
import { PrismaClient } from '${generated(layout.clientFolder, 'client.js')}'

/** The Worker's bindings (wrangler.jsonc): the D1 database, and the API's public origin. */
type Env = { DB: ConstructorParameters<typeof PrismaD1>[0]; BASE_URL?: string }

function createApp(env: Env) {
  const prisma = new PrismaClient({ adapter: new PrismaD1(env.DB) })
  const app = new Hono().route('/api', createHydraApp({ prisma, baseUrl: env.BASE_URL }))
  app.notFound(hydraNotFound)
  app.onError(hydraErrorHandler)
  return app
}

// One app per isolate, made on its first request: the bindings are known only then.
let app: ReturnType<typeof createApp> | undefined

export default {
  fetch(request: Request, env: Env, context: ExecutionContext) {
    app ??= createApp(env)
    return app.fetch(request, env, context)
  },
}
`
}

/** The compatibility date of docs/runtime-workers.md, which its walk-through is tested with. */
const COMPATIBILITY_DATE = '2026-04-20'

/** `wrangler.jsonc`, for a Worker and a D1 database both called `name`. */
export function wranglerConfig(name: string): string {
  return `{
  "name": ${JSON.stringify(name)},
  "main": "src/worker.ts",
  "compatibility_date": "${COMPATIBILITY_DATE}",
  "compatibility_flags": ["nodejs_compat"],
  "d1_databases": [{ "binding": "DB", "database_name": ${JSON.stringify(name)}, "database_id": "local" }]
}
`
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
