import type { DMMF } from '@prisma/generator-helper'
import { emptyGlobalConfig, parseGlobalConfig } from './config/paging/global.js'
import { resolveHydraModel } from './config/resolve.js'
import { ignoredAnnotatedModels } from './config/schema/ignored-models.js'
import type { HydraModel } from './config/schema/model.js'
import type { EmitContext } from './emit/context.js'
import { emitFiles, type FileMap } from './emit/emit.js'
import { GenerationError, type Problem } from './problems.js'

/** What `buildHydra` reads: the schema, its provider and the generator block's settings. */
export interface BuildInput {
  /** The schema's models, as Prisma's DMMF gives them to a generator. */
  datamodel: DMMF.Datamodel
  /** The datasource provider (`sqlite`, `postgresql`, `mysql`...). */
  provider: string
  /** The platform config file's text and a label for messages, when the generator block names one. */
  globalConfig?: {
    /** The file's text (YAML or JSON). */
    text: string
    /** The file as messages name it (`./platform.yaml`). */
    label: string
  }
  /**
   * The import specifier of the Prisma client's module, from the generated files
   * (`../prisma/client.js`): required on Prisma 7, whose client types the routes.
   */
  clientModule?: string
  /** Import specifier of the runtime package; generated code imports its `/generated` entry. */
  runtimeModule?: string
  /**
   * The extension of relative imports in generated files (`.js`, or none), as the client's
   * `importFileExtension`.
   */
  importExtension?: string
  /** Extension of the generated files (`.ts` unless the client's is `.mts` or `.cts`). */
  fileExtension?: string
  /** The schema's text, for what the DMMF leaves out (models Prisma ignores). */
  schema?: string
  /**
   * The Prisma line the routes are served on (default `prisma7`, typed by the client of
   * `clientModule`); `prisma8` routes take a Prisma 8 client and import no client module.
   */
  client?: 'prisma7' | 'prisma8'
}

/** What `buildHydra` produced. */
export interface BuildResult {
  /** The resolved model. */
  model: HydraModel
  /** The generated files, by path relative to the output folder. */
  files: FileMap
  /** Warnings only: errors are thrown. */
  warnings: Problem[]
}

/**
 * The pure core of `prisma generate`: configuration → validated model → file map. Throws a
 * GenerationError listing every problem when any is an error.
 */
export function buildHydra(input: BuildInput): BuildResult {
  const problems: Problem[] = []
  let global = emptyGlobalConfig
  if (input.globalConfig) {
    const parsed = parseGlobalConfig(input.globalConfig.text, input.globalConfig.label)
    problems.push(...parsed.problems)
    global = parsed.config
  }
  const resolved = resolveHydraModel(input.datamodel, global, input.provider, input.schema)
  problems.push(...resolved.problems)
  if (input.schema) problems.push(...ignoredAnnotatedModels(input.schema))
  if (problems.some((problem) => problem.severity === 'error')) throw new GenerationError(problems)
  const client = input.client ?? 'prisma7'
  if (client === 'prisma7' && input.clientModule === undefined)
    throw new TypeError('buildHydra needs the clientModule of the Prisma 7 client.')
  const context: EmitContext = {
    client,
    clientModule: input.clientModule ?? '',
    runtimeModule: `${input.runtimeModule ?? '@prisma-hydra/runtime'}/generated`,
    importExtension: input.importExtension ?? '.js',
    fileExtension: input.fileExtension ?? '.ts',
    provider: input.provider,
  }
  return { model: resolved.model, files: emitFiles(resolved.model, context), warnings: problems }
}
