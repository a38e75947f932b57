import path from 'node:path'
import type { GeneratorConfig, GeneratorOptions } from '@prisma/generator-helper'

const CLIENT_PROVIDER = 'prisma-client'
/** Prisma 6's client, generated into node_modules: the routes have no module path to import. */
const LEGACY_CLIENT_PROVIDER = 'prisma-client-js'

/** The folders the messages suggest when the schema gives no other to go by (as in the docs). */
const SUGGESTED = { client: '../src/generated/prisma', hydra: '../src/generated/hydra' }

/** A Prisma client generator with its output folder, and our own output folder. */
export interface GeneratorBlocks {
  client: GeneratorConfig & { output: { value: string } }
  outputDir: string
}

/**
 * Checks that the schema has what the generated routes need: Prisma 7's `prisma-client`
 * generator with an output folder (the routes import the client from there) and an output folder
 * of our own. Throws one error saying every missing piece, with the block to paste.
 */
export function checkGeneratorBlocks(
  options: Pick<GeneratorOptions, 'generator' | 'otherGenerators' | 'schemaPath'>
): GeneratorBlocks {
  const own = options.generator
  const schemaDir = blockFolder(own, options.schemaPath)
  const client = options.otherGenerators.find(
    (generator) => generator.provider.value === CLIENT_PROVIDER && generator.output?.value
  )
  // The manifest's default output is never used: a folder of generated code is named by the user.
  const outputDir = own.isCustomOutput ? (own.output?.value ?? undefined) : undefined
  /** A folder beside `folder` (an absolute path), as the schema would write it. */
  const beside = (folder: string | undefined, name: string, fallback: string) =>
    folder ? relativePath(schemaDir, path.join(path.dirname(folder), name)) : fallback
  const messages: string[] = []
  if (!client) {
    const legacy = options.otherGenerators.find(
      (generator) => generator.provider.value === LEGACY_CLIENT_PROVIDER
    )
    // The user's own output folder and module format are kept; Prisma 6's default output
    // (node_modules/.prisma/client) is not a folder routes can import from.
    const legacyOutput =
      legacy?.isCustomOutput && legacy.output?.value
        ? relativePath(blockFolder(legacy, options.schemaPath), legacy.output.value)
        : undefined
    const moduleFormat = legacy?.config.moduleFormat
    const block = [
      `generator ${legacy?.name ?? 'client'} {`,
      `  provider            = "${CLIENT_PROVIDER}"`,
      `  output              = "${legacyOutput ?? beside(outputDir, 'prisma', SUGGESTED.client)}"`,
      ...(typeof moduleFormat === 'string' ? [`  moduleFormat        = "${moduleFormat}"`] : []),
      '  importFileExtension = "js"',
      '}',
    ].join('\n')
    messages.push(
      legacy
        ? `prisma-hydra needs Prisma 7's "${CLIENT_PROVIDER}" generator with an output folder: the routes it writes import the client from there. The generator "${legacy.name}" uses "${LEGACY_CLIENT_PROVIDER}" (Prisma 6's client), which they cannot import. Replace that block with:\n\n${block}\n\nand import PrismaClient from the client.js of that folder instead of "@prisma/client".`
        : `prisma-hydra needs Prisma 7's "${CLIENT_PROVIDER}" generator with an output folder in the same schema: the routes it writes import the client from there. Add this block:\n\n${block}`
    )
  }
  if (!outputDir) {
    const block = [
      `generator ${own.name} {`,
      `  provider = "${own.provider.value}"`,
      `  output   = "${beside(client?.output?.value ?? undefined, 'hydra', SUGGESTED.hydra)}"`,
      '}',
    ].join('\n')
    messages.push(
      `prisma-hydra needs an output folder for the routes it writes: add "output" to the generator "${own.name}":\n\n${block}`
    )
  }
  if (!client || !outputDir) throw new Error(messages.join('\n\n'))
  return { client: client as GeneratorBlocks['client'], outputDir }
}

/**
 * The folder of the schema file declaring `block`: Prisma resolves the block's relative paths
 * from there (in a multi-file schema, the file's own folder).
 */
export function blockFolder(
  block: Pick<GeneratorConfig, 'sourceFilePath'>,
  schemaPath: string
): string {
  return path.dirname(block.sourceFilePath || schemaPath)
}

/** `to` relative to `from`, with forward slashes and a leading `./` when it goes down. */
export function relativePath(from: string, to: string): string {
  const relative = path.relative(from, to).split(path.sep).join('/')
  return relative.startsWith('.') ? relative : `./${relative}`
}
