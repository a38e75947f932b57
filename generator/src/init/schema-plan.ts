/**
 * What `prisma-hydra init` does to the Prisma schema: writes docs/getting-started.md's in a project
 * without one; in a project with one, reads where its client is generated and which database it
 * serves, adds the routes' generator beside the client's, and a first served model when the schema
 * has no model at all. It never changes a line that is there.
 */

import path from 'node:path'
import { parseAnnotations } from '../annotations/parse.js'
import { type Provider, readProvider } from './client-module.js'
import { docLink } from './doc-links.js'
import { DEFAULT_LAYOUT, type Layout, projectFolder } from './layout.js'
import type { FoundSchema } from './project.js'
import { FIRST_MODEL, hydraBlock, newSchema } from './project-files.js'
import type { SchemaBlock } from './schema-blocks.js'

export interface SchemaPlan {
  layout: Layout
  provider: Provider
  /** The schema's text after init, when init writes or changes it. */
  text?: string
  /** Whether the schema is new. */
  created: boolean
  /** What init added to an existing schema, one line each. */
  added: string[]
  /** Whether init added the first model (so its rows come with it). */
  firstModel: boolean
  /** A model of the schema to annotate, when it has models but none is served. */
  toAnnotate?: string
}

const SCHEMA_DOC = docLink('getting-started.md', '4. By hand: the schema')

/** The schema of a project without one: docs/getting-started.md's. */
export function newSchemaPlan(): SchemaPlan {
  const layout = DEFAULT_LAYOUT
  return {
    layout,
    provider: 'sqlite',
    text: newSchema(layout),
    created: true,
    added: [],
    firstModel: true,
  }
}

/** What init does to `schema`; the reasons it cannot, one line each, instead. */
export function existingSchemaPlan(schema: FoundSchema): SchemaPlan | string[] {
  const generators = schema.blocks.filter((block) => block.kind === 'generator')
  const client = generators.find(
    (block) => block.options.get('provider') === 'prisma-client' && block.options.has('output')
  )
  const hydra = generators.find((block) => block.options.get('provider')?.includes('prisma-hydra'))
  const datasource = schema.blocks.find((block) => block.kind === 'datasource')
  const providerName = datasource?.options.get('provider')
  const provider = readProvider(providerName)
  const refusals: string[] = []
  if (!client) refusals.push(noClient(schema.path, generators))
  if (!provider)
    refusals.push(
      `${schema.path}: the datasource's provider is ${JSON.stringify(providerName ?? null)}; init writes the clients of "sqlite", "postgresql" and "mysql" (${docLink('databases.md')})`
    )
  if (hydra && !hydra.options.has('output'))
    refusals.push(`${schema.path}: the generator "${hydra.name}" has no output (${SCHEMA_DOC})`)
  if (!hydra && generators.some((block) => block.name === 'hydra'))
    refusals.push(
      `${schema.path}: a generator is already called "hydra"; add prisma-hydra's under another name (${SCHEMA_DOC})`
    )
  if (!client || !provider || refusals.length > 0) return refusals
  const place = { schemaPath: schema.path }
  const clientFolder = projectFolder(place, client.options.get('output') as string)
  const hydraFolder = hydra
    ? projectFolder(place, hydra.options.get('output') as string)
    : path.posix.join(path.posix.dirname(clientFolder), 'hydra')
  const outside = [clientFolder, hydraFolder].filter((folder) => folder.startsWith('..'))
  if (outside.length > 0)
    return outside.map((folder) => `${schema.path}: ${folder} is outside the project`)
  const layout = { schemaPath: schema.path, clientFolder, hydraFolder }
  return { layout, provider, ...edits(schema, layout, client, hydra) }
}

function noClient(schemaPath: string, generators: SchemaBlock[]): string {
  const legacy = generators.find((block) => block.options.get('provider') === 'prisma-client-js')
  return legacy
    ? `${schemaPath}: the generator "${legacy.name}" is Prisma 6's "prisma-client-js", which the routes cannot import: use Prisma 7's "prisma-client" with an output folder (${SCHEMA_DOC})`
    : `${schemaPath}: no "prisma-client" generator with an output folder, which the routes import the client from (${SCHEMA_DOC})`
}

/** The routes' generator after the client's, a first model when there is none: only added lines. */
function edits(
  schema: FoundSchema,
  layout: Layout,
  client: SchemaBlock,
  hydra: SchemaBlock | undefined
): Pick<SchemaPlan, 'text' | 'created' | 'added' | 'firstModel' | 'toAnnotate'> {
  const newline = schema.text.includes('\r\n') ? '\r\n' : '\n'
  const lines = schema.text.split(/\r?\n/)
  const added: string[] = []
  if (!hydra) {
    lines.splice(client.endLine + 1, 0, '', ...hydraBlock(layout).split('\n'))
    added.push(`the generator "hydra", writing the routes to ${layout.hydraFolder}`)
  }
  const models = schema.blocks.filter((block) => block.kind === 'model' || block.kind === 'view')
  const firstModel = models.length === 0
  if (firstModel) {
    while (lines.length > 0 && lines[lines.length - 1]?.trim() === '') lines.pop()
    lines.push('', ...FIRST_MODEL.split('\n'), '')
    added.push('the model "Book", served by its /// @pagination annotation')
  }
  const served = models.some((model) =>
    parseAnnotations(model.documentation).annotations.some((a) => a.name === 'pagination')
  )
  const toAnnotate = !firstModel && !served ? models[0]?.name : undefined
  return {
    ...(added.length > 0 ? { text: lines.join(newline) } : {}),
    created: false,
    added,
    firstModel,
    ...(toAnnotate ? { toAnnotate } : {}),
  }
}
