/**
 * One annotated schema means the same on Prisma 7 and Prisma 8: the example's schema, emitted for
 * real by `prisma contract emit` (global-setup.ts), read back into a DMMF datamodel (generator/src/prisma8/), gives
 * the generator what Prisma 7's DMMF of the same schema gives it, the same resolved model and
 * byte for byte the same files; `prisma-hydra generate` writes those files.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { DMMF } from '@prisma/generator-helper'
import { beforeAll, describe, expect, it } from 'vitest'
import { runContractCommand } from '../../generator/src/contract-command.js'
import { buildHydra } from '../../generator/src/generate.js'
import { readContract } from '../../generator/src/prisma8/contract.js'
import { prisma8Datamodel } from '../../generator/src/prisma8/datamodel.js'
import { readSource } from '../../generator/src/prisma8/psl-source.js'
import { loadPslSyntax } from '../../generator/src/prisma8/psl-syntax.js'
import { contractFile, contractJson, prisma7Datamodel, workspace } from './prisma8-emit.js'

const platformFile = path.join(workspace, '../prisma/platform.yaml')
const CLIENT_MODULE = '../prisma/client.js'

/** What the generator reads of a datamodel (grep of generator/src/config), absent as null. */
function readByGenerator(datamodel: DMMF.Datamodel) {
  return {
    models: datamodel.models.map((model) => ({
      name: model.name,
      dbName: model.dbName ?? null,
      schema: model.schema ?? null,
      documentation: model.documentation ?? null,
      primaryKey: model.primaryKey,
      uniqueFields: model.uniqueFields,
      uniqueIndexes: model.uniqueIndexes,
      fields: model.fields.map((field) => ({
        name: field.name,
        kind: field.kind,
        type: field.type,
        isList: field.isList,
        isRequired: field.isRequired,
        isId: field.isId,
        isUnique: field.isUnique,
        dbName: field.dbName ?? null,
        nativeType: field.nativeType ?? null,
        documentation: field.documentation ?? null,
        relationName: field.relationName ?? null,
        relationFromFields: field.relationFromFields ?? null,
        relationToFields: field.relationToFields ?? null,
      })),
    })),
    enums: datamodel.enums.map(({ name, values }) => ({
      name,
      values: values.map((value) => ({ name: value.name, dbName: value.dbName ?? null })),
    })),
  }
}

/** The indexes as the generator reads them: a model and its fields in order. */
const indexKeys = (datamodel: DMMF.Datamodel) =>
  (datamodel.indexes ?? []).map(
    (index) =>
      `${index.model} ${index.type} (${index.fields.map((field) => field.name).join(', ')})`
  )

let prisma7: DMMF.Datamodel
let prisma8: DMMF.Datamodel

beforeAll(async () => {
  prisma7 = await prisma7Datamodel()
  const syntax = await loadPslSyntax([workspace])
  const source = readSource(syntax, await readFile(contractFile, 'utf8'), 'contract.prisma')
  const contract = readContract(await readFile(contractJson, 'utf8'), 'contract.json')
  const built = prisma8Datamodel(contract, source, 'contract.json')
  expect(built.warnings).toEqual([])
  prisma8 = built.datamodel
})

const build = async (datamodel: DMMF.Datamodel) =>
  buildHydra({
    datamodel,
    provider: 'postgresql',
    clientModule: CLIENT_MODULE,
    globalConfig: { text: await readFile(platformFile, 'utf8'), label: './platform.yaml' },
  })

describe('the example schema emitted by Prisma 8', () => {
  it('gives the datamodel Prisma 7 gives, in what the generator reads', () => {
    expect(readByGenerator(prisma8)).toEqual(readByGenerator(prisma7))
  })

  it("holds Prisma 7's indexes, and the foreign-key indexes Prisma 8 adds", () => {
    const added = indexKeys(prisma8).filter((key) => !indexKeys(prisma7).includes(key))
    expect(indexKeys(prisma8)).toEqual(expect.arrayContaining(indexKeys(prisma7)))
    expect(added).toEqual(['Review normal (bookId)', 'Loan normal (bookId)'])
  })

  it('resolves to the same model and the same files', async () => {
    const [seven, eight] = await Promise.all([build(prisma7), build(prisma8)])
    expect(eight.model).toEqual(seven.model)
    expect([...eight.files.keys()].sort()).toEqual([...seven.files.keys()].sort())
    for (const [name, content] of seven.files) expect(eight.files.get(name), name).toBe(content)
  })

  it('is written by `prisma-hydra generate` as prisma generate writes it', async () => {
    const output = await mkdtemp(path.join(tmpdir(), 'hydra-prisma8-'))
    try {
      const lines: string[] = []
      const code = await runContractCommand(
        [
          '--contract',
          'prisma/contract.json',
          '--schema',
          'prisma/contract.prisma',
          '--output',
          output,
          '--config',
          '../prisma/platform.yaml',
          '--client-module',
          CLIENT_MODULE,
        ],
        workspace,
        { out: (line) => lines.push(line), err: (line) => lines.push(line) }
      )
      expect(lines.join('\n')).toMatch(/^prisma-hydra wrote \d+ files to /)
      expect(code).toBe(0)
      const seven = await build(prisma7)
      expect((await readdir(output)).sort()).toEqual([...seven.files.keys()].sort())
      for (const [name, content] of seven.files)
        expect(await readFile(path.join(output, name), 'utf8'), name).toBe(content)
    } finally {
      await rm(output, { recursive: true, force: true })
    }
  })
})
