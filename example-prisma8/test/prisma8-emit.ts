/**
 * A schema on both Prisma lines, as the tests compare them: emitted for real by Prisma 8's CLI and
 * read back through the generator's prisma8/ room, and Prisma 7's DMMF of the same models.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { DMMF } from '@prisma/generator-helper'
import internals from '@prisma/internals'
import { readContract } from '../../generator/src/prisma8/contract.js'
import { type Prisma8Datamodel, prisma8Datamodel } from '../../generator/src/prisma8/datamodel.js'
import { readSource } from '../../generator/src/prisma8/psl-source.js'
import { loadPslSyntax } from '../../generator/src/prisma8/psl-syntax.js'
import {
  contractFile,
  contractSource,
  schemaFile,
  writeContractSource,
} from '../scripts/contract-source.mjs'

export const workspace = fileURLToPath(new URL('..', import.meta.url))
export const contractJson = fileURLToPath(new URL('../prisma/contract.json', import.meta.url))
export { contractFile, schemaFile }

/**
 * Runs `prisma contract emit` with the config `config` (the workspace's by default), into
 * `outputPath` (beside the schema by default); throws with its output when it fails.
 */
export function emitContract(config?: string, outputPath?: string): void {
  const options = [
    ...(config ? ['--config', config] : []),
    ...(outputPath ? ['--output-path', outputPath] : []),
  ]
  const run = spawnSync(
    process.execPath,
    ['scripts/node22.mjs', 'node_modules/.bin/prisma', 'contract', 'emit', ...options],
    { cwd: workspace, encoding: 'utf8' }
  )
  if (run.status !== 0)
    throw new Error(`prisma contract emit failed (${run.status}):\n${run.stdout}\n${run.stderr}`)
}

/** Writes prisma/contract.prisma from the repository's schema and emits it. */
export function emitExample(): void {
  writeContractSource()
  emitContract()
}

/** Prisma 7's DMMF of the schema `text` (its datasource on PostgreSQL, or added so). */
export async function prisma7Datamodel(text: string): Promise<DMMF.Datamodel> {
  const datasource = 'datasource db {\n  provider = "postgresql"\n}\n'
  const datamodel = text.includes('datasource db') ? text : `${datasource}${text}`
  const dmmf = await internals.getDMMF({ datamodel })
  return dmmf.datamodel as DMMF.Datamodel
}

/** The example's models as Prisma 7 reads them on PostgreSQL. */
export const examplePrisma7 = () =>
  prisma7Datamodel(contractSource(readFileSync(schemaFile, 'utf8')))

/** The datamodel of the contract `json` emitted from `schema`, as `prisma-hydra generate` reads it. */
export async function readPrisma8(json: string, schema: string): Promise<Prisma8Datamodel> {
  const syntax = await loadPslSyntax([workspace])
  const source = readSource(syntax, await readFile(schema, 'utf8'), path.basename(schema))
  const contract = readContract(await readFile(json, 'utf8'), path.basename(json))
  return prisma8Datamodel(contract, source, path.basename(json))
}
