import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import type { GeneratorOptions } from '@prisma/generator-helper'
import helper from '@prisma/generator-helper'
import { clientModuleNaming } from './client-options.js'
import { buildHydra } from './generate.js'
import { blockFolder, checkGeneratorBlocks, relativePath } from './generator-blocks.js'
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
    try {
      await generateInto(options, client, outputDir)
    } catch (error) {
      // Prisma prints the message and goes on with the other generators.
      if (error instanceof Error) error.message += `\n\n${unchanged(outputDir)}`
      throw error
    }
  },
})

/** What a failed run leaves: nothing of it is written (write.ts swaps the folder at the end). */
function unchanged(outputDir: string): string {
  const folder = relativePath(process.cwd(), outputDir)
  const kept = existsSync(outputDir)
    ? `${folder} keeps the routes of the last successful generation`
    : `${folder} was not created`
  return `prisma-hydra wrote nothing: ${kept}. Prisma's client may have been generated anyway: run \`prisma generate\` again once this is fixed, so that the two match.`
}

async function generateInto(
  options: GeneratorOptions,
  client: ReturnType<typeof checkGeneratorBlocks>['client'],
  outputDir: string
): Promise<void> {
  const naming = clientModuleNaming(client, configValue(options, 'importFileExtension'))
  const configPath = configValue(options, 'config')
  let globalConfig: { text: string; label: string } | undefined
  if (configPath) {
    // Beside the file declaring the block, as Prisma resolves `output` (a multi-file schema's
    // `prisma/schema/main.prisma`: its folder, not the schema folder's parent).
    const absolute = path.resolve(blockFolder(options.generator, options.schemaPath), configPath)
    const text = await readFile(absolute, 'utf8').catch((error: Error) => {
      throw new Error(
        `prisma-hydra cannot read the platform config "${configPath}" (${absolute}): ${error.message}`
      )
    })
    globalConfig = { text, label: configPath }
  }
  const extension = naming.importExtension
  const result = buildHydra({
    datamodel: options.dmmf.datamodel,
    provider: options.datasources[0]?.activeProvider ?? 'sqlite',
    clientModule: clientModule(client.output.value, outputDir, extension),
    importExtension: extension,
    fileExtension: naming.fileExtension,
    schema: options.datamodel,
    ...(globalConfig ? { globalConfig } : {}),
    ...(configValue(options, 'runtimeModule')
      ? { runtimeModule: configValue(options, 'runtimeModule') as string }
      : {}),
  })
  for (const warning of result.warnings)
    process.stdout.write(`prisma-hydra ${formatProblem(warning)}\n`)
  await writeFiles(outputDir, result.files)
}
