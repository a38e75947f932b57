/**
 * Everything `prisma-hydra init` would do in a project, decided before anything is written: the
 * files it creates, the files it adds to (the schema, package.json), what it says, and the
 * reasons it cannot, one line each.
 */

import { adapterPackage, clientModule, type Provider } from './client-module.js'
import { installCommands } from './dependencies.js'
import { docLink } from './doc-links.js'
import { compiledEntry, importFromSrc, type Layout } from './layout.js'
import { packageJsonPlan, projectName } from './package-plan.js'
import type { Project } from './project.js'
import { prismaConfig, SEED_SCRIPT, SEED_SQL, tsconfig } from './project-files.js'
import { nextCommands, type Runtime, runtimeScripts } from './runtimes.js'
import { existingSchemaPlan, newSchemaPlan, type SchemaPlan } from './schema-plan.js'
import { fetchServer, nodeServer } from './server-entries.js'
import {
  type WorkersLayout,
  workerEntry,
  workersLayout,
  workersSchemaScript,
  wranglerConfig,
} from './workers-files.js'

export interface FileChange {
  /** Relative to the project's root. */
  path: string
  text: string
}

export interface Plan {
  /** Files init creates: it refuses when one exists. */
  create: FileChange[]
  /** Files init adds to (package.json, the schema), with what it adds. */
  update: Array<FileChange & { added: string[] }>
  /** What init leaves as it is and the user should know. */
  notes: string[]
  /** The commands from there to the first served request, each with what it does. */
  next: Array<[string, string]>
}

/** What init does in `project` for `runtime`; the reasons it cannot, instead. */
export function planInit(project: Project, runtime: Runtime): Plan | string[] {
  if (!project.schema && project.otherPrismaFiles.length > 0)
    return [
      `${project.otherPrismaFiles.join(', ')}: a Prisma project whose schema is neither prisma/schema.prisma nor schema.prisma, the files init reads; add the generator by hand (${docLink('getting-started.md', '4. By hand: the schema')})`,
    ]
  const schema = project.schema ? existingSchemaPlan(project.schema) : newSchemaPlan()
  if (Array.isArray(schema)) return schema
  const workers = runtime === 'workers' ? workersLayout(schema.layout) : undefined
  const refusals = runtimeRefusals(runtime, schema, workers)
  const generated = [schema.layout.clientFolder, schema.layout.hydraFolder]
  if (workers) generated.push(workers.workersFolder)
  const scripts = runtimeScripts(runtime, {
    compiled: (name) => compiledEntry(generated, name),
    envFile: project.exists('.env'),
    seed: schema.firstModel,
    workersSchema: workers?.schemaPath ?? '',
  })
  const packageJson = packageJsonPlan(project, scripts)
  if (Array.isArray(packageJson)) refusals.push(...packageJson)
  if (refusals.length > 0 || Array.isArray(packageJson)) return refusals
  const files = runtimeFiles(runtime, schema, project, workers as WorkersLayout)
  const create: FileChange[] = []
  const update: Plan['update'] = []
  if (schema.text !== undefined) {
    const change = { path: schema.layout.schemaPath, text: schema.text }
    if (schema.created) create.push(change)
    else update.push({ ...change, added: schema.added })
  }
  if (schema.created) create.push({ path: 'prisma.config.ts', text: prismaConfig(schema.layout) })
  create.push(...files)
  if (!project.exists('tsconfig.json'))
    create.push({ path: 'tsconfig.json', text: tsconfig(generated) })
  const packageChange = { path: 'package.json', text: packageJson.text }
  if (packageJson.created) create.unshift(packageChange)
  else if (packageJson.added.length > 0)
    update.push({ ...packageChange, added: packageJson.added.map((name) => `script "${name}"`) })
  const notes = [...packageJson.kept, ...schemaNotes(schema, project)]
  const install = installCommands(project, runtime, schema.provider)
  const next = [
    ...install.map((command): [string, string] => [command, 'the packages it lacks']),
    ...nextCommands(runtime, schema.firstModel, workers?.schemaPath ?? ''),
  ]
  return { create, update, notes, next }
}

function runtimeRefusals(
  runtime: Runtime,
  schema: SchemaPlan,
  workers: WorkersLayout | undefined
): string[] {
  if (runtime !== 'workers') return []
  if (schema.provider !== 'sqlite')
    return [
      `--runtime workers: D1 is SQLite, and ${schema.layout.schemaPath} serves ${schema.provider} (${docLink('runtime-workers.md')})`,
    ]
  if (!workers)
    return [
      `--runtime workers: the client (${schema.layout.clientFolder}) and the routes (${schema.layout.hydraFolder}) must be generated into one folder, which the Worker's schema renames (${docLink('runtime-workers.md', 'A schema of its own')})`,
    ]
  return []
}

/** The entry files of `runtime`, and the first model's rows when init adds it. */
function runtimeFiles(
  runtime: Runtime,
  schema: SchemaPlan,
  project: Project,
  workers: WorkersLayout
): FileChange[] {
  const { layout, provider, firstModel } = schema
  if (runtime === 'workers')
    return [
      { path: 'scripts/workers-schema.mjs', text: workersSchemaScript(layout, workers) },
      { path: 'src/worker.ts', text: workerEntry(layout, workers) },
      { path: 'wrangler.jsonc', text: wranglerConfig(projectName(project)) },
      ...(firstModel ? [{ path: 'seed.sql', text: SEED_SQL }] : []),
    ]
  const hydraImport = importFromSrc(`${layout.hydraFolder}/index.js`)
  return [
    { path: 'src/prisma.ts', text: clientSource(provider, runtime, layout) },
    {
      path: 'src/server.ts',
      text:
        runtime === 'node'
          ? nodeServer(hydraImport)
          : fetchServer(
              hydraImport,
              adapterPackage(provider, runtime) === '@prisma/adapter-libsql'
            ),
    },
    ...(firstModel ? [{ path: 'src/seed.ts', text: SEED_SCRIPT }] : []),
  ]
}

function clientSource(provider: Provider, runtime: Exclude<Runtime, 'workers'>, layout: Layout) {
  return clientModule(provider, runtime, importFromSrc(`${layout.clientFolder}/client.js`))
}

function schemaNotes(schema: SchemaPlan, project: Project): string[] {
  const notes: string[] = []
  if (project.exists('tsconfig.json'))
    notes.push(
      `tsconfig.json kept as it is: the generated code needs "module" and "moduleResolution" "NodeNext" and compiles under "strict" (${docLink('getting-started.md', '5. By hand: the client, the app, the server and the scripts')})`
    )
  if (schema.toAnnotate)
    notes.push(
      `No model is served yet: only models annotated with /// @pagination are. To serve ${schema.toAnnotate}, add above \`model ${schema.toAnnotate} {\` in ${schema.layout.schemaPath}:\n    /// @pagination(itemsPerPage: 30)\n  (${docLink('annotations.md')})`
    )
  return notes
}
