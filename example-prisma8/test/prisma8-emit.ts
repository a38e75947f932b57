/**
 * The example's schema on both Prisma lines, as the tests compare them: prisma/contract.prisma
 * written from the repository's schema and emitted for real by Prisma 8's CLI, and Prisma 7's DMMF
 * of the repository's schema on PostgreSQL.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { DMMF } from '@prisma/generator-helper'
import internals from '@prisma/internals'
import { contractFile, contractSource, schemaFile } from '../scripts/contract-source.mjs'

export const workspace = fileURLToPath(new URL('..', import.meta.url))
export const contractJson = fileURLToPath(new URL('../prisma/contract.json', import.meta.url))
export { contractFile }

/** Writes prisma/contract.prisma and runs `prisma contract emit`; throws with its output. */
export function emitContract(): void {
  writeFileSync(contractFile, contractSource(readFileSync(schemaFile, 'utf8')))
  const run = spawnSync(
    process.execPath,
    ['scripts/node22.mjs', 'node_modules/.bin/prisma', 'contract', 'emit'],
    { cwd: workspace, encoding: 'utf8' }
  )
  if (run.status !== 0)
    throw new Error(`prisma contract emit failed (${run.status}):\n${run.stdout}\n${run.stderr}`)
}

/** Prisma 7's DMMF of the repository's schema, its datasource on PostgreSQL. */
export async function prisma7Datamodel(): Promise<DMMF.Datamodel> {
  const models = contractSource(readFileSync(schemaFile, 'utf8'))
  const datasource = 'datasource db {\n  provider = "postgresql"\n}\n'
  const dmmf = await internals.getDMMF({ datamodel: `${datasource}${models}` })
  return dmmf.datamodel as DMMF.Datamodel
}
