import { readFile } from 'node:fs/promises'
import path from 'node:path'
import type { GeneratorOptions } from '@prisma/generator-helper'
import helper from '@prisma/generator-helper'
import { buildHydra } from './generate.js'
import { formatProblem } from './problems.js'
import { writeFiles } from './write.js'

const CLIENT_PROVIDER = 'prisma-client'

function configValue(options: GeneratorOptions, key: string): string | undefined {
  const value = options.generator.config[key]
  return typeof value === 'string' ? value : undefined
}

/** `../prisma/client.js`: the Prisma client module as seen from our output folder. */
function clientModule(options: GeneratorOptions, outputDir: string, extension: string): string {
  const client = options.otherGenerators.find(
    (generator) => generator.provider.value === CLIENT_PROVIDER
  )
  const clientOutput = client?.output?.value
  if (!clientOutput) {
    throw new Error(
      `prisma-hydra needs a generator with provider = "${CLIENT_PROVIDER}" and an output folder in the same schema; it imports the client from there.`
    )
  }
  const relative = path
    .relative(outputDir, path.join(clientOutput, 'client'))
    .split(path.sep)
    .join('/')
  return `${relative.startsWith('.') ? relative : `./${relative}`}${extension}`
}

function importExtension(options: GeneratorOptions): string {
  const client = options.otherGenerators.find(
    (generator) => generator.provider.value === CLIENT_PROVIDER
  )
  const written = client?.config.importFileExtension ?? configValue(options, 'importFileExtension')
  const extension = typeof written === 'string' ? written : 'js'
  return extension === '' ? '' : `.${extension.replace(/^\./, '')}`
}

// The package is CommonJS without static named exports for Node's ESM loader.
helper.generatorHandler({
  onManifest: () => ({
    prettyName: 'Prisma Hydra routes',
    defaultOutput: './generated/hydra',
    requiresGenerators: [CLIENT_PROVIDER],
  }),
  onGenerate: async (options) => {
    const outputDir = options.generator.output?.value
    if (!outputDir)
      throw new Error('prisma-hydra needs an output folder: output = "..." in its generator block.')
    const configPath = configValue(options, 'config')
    let globalConfig: { text: string; label: string } | undefined
    if (configPath) {
      const absolute = path.resolve(path.dirname(options.schemaPath), configPath)
      const text = await readFile(absolute, 'utf8').catch((error: Error) => {
        throw new Error(
          `prisma-hydra cannot read the platform config "${configPath}" (${absolute}): ${error.message}`
        )
      })
      globalConfig = { text, label: configPath }
    }
    const extension = importExtension(options)
    const result = buildHydra({
      datamodel: options.dmmf.datamodel,
      provider: options.datasources[0]?.activeProvider ?? 'sqlite',
      clientModule: clientModule(options, outputDir, extension),
      importExtension: extension,
      ...(globalConfig ? { globalConfig } : {}),
      ...(configValue(options, 'runtimeModule')
        ? { runtimeModule: configValue(options, 'runtimeModule') as string }
        : {}),
    })
    for (const warning of result.warnings)
      process.stdout.write(`prisma-hydra ${formatProblem(warning)}\n`)
    await writeFiles(outputDir, result.files)
  },
})
