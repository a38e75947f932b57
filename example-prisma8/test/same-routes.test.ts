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
import {
  contractFile,
  contractJson,
  examplePrisma7,
  readPrisma8,
  workspace,
} from './prisma8-emit.js'
import { indexKeys, readByGenerator } from './read-by-generator.js'

const platformFile = path.join(workspace, '../prisma/platform.yaml')
const CLIENT_MODULE = '../prisma/client.js'

let prisma7: DMMF.Datamodel
let prisma8: DMMF.Datamodel

beforeAll(async () => {
  prisma7 = await examplePrisma7()
  const built = await readPrisma8(contractJson, contractFile)
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
