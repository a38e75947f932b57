import { readFile } from 'node:fs/promises'
import path from 'node:path'
import type { GeneratorConfig, GeneratorOptions } from '@prisma/generator-helper'
import helper from '@prisma/generator-helper'
import { buildHydra } from './generate.js'
import { checkGeneratorBlocks, relativePath } from './generator-blocks.js'
import { formatProblem } from './problems.js'
import { writeFiles } from './write.js'

function configValue(options: GeneratorOptions, key: string): string | undefined {
  const value = options.generator.config[key]
  return typeof value === 'string' ? value : undefined
}

/** `../prisma/client.js`: the Prisma client module as seen from our output folder. */
function clientModule(clientOutput: string, outputDir: string, extension: string): string {
  return `${relativePath(outputDir, path.join(clientOutput, 'client'))}${extension}`
}

function importExtension(options: GeneratorOptions, client: GeneratorConfig): string {
  const written = client.config.importFileExtension ?? configValue(options, 'importFileExtension')
  const extension = typeof written === 'string' ? written : 'js'
  return extension === '' ? '' : `.${extension.replace(/^\./, '')}`
}

// The package is CommonJS without static named exports for Node's ESM loader.
helper.generatorHandler({
  onManifest: () => ({
    prettyName: 'Prisma Hydra routes',
    // Only so that Prisma runs the generator without an `output`: checkGeneratorBlocks refuses
    // it, with the block to paste. Nor `requiresGenerators`, whose message suggests a client
    // block without an output, which fails too.
    defaultOutput: './generated/hydra',
  }),
  onGenerate: async (options) => {
    const { client, outputDir } = checkGeneratorBlocks(options)
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
    const extension = importExtension(options, client)
    const result = buildHydra({
      datamodel: options.dmmf.datamodel,
      provider: options.datasources[0]?.activeProvider ?? 'sqlite',
      clientModule: clientModule(client.output.value, outputDir, extension),
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
