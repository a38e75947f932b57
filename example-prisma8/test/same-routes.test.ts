/**
 * One annotated schema means the same on Prisma 7 and Prisma 8: the example's schema, emitted for
 * real by `prisma contract emit` (global-setup.ts) and read back into a DMMF datamodel
 * (generator/src/prisma8/), gives the generator what Prisma 7's DMMF of the same schema gives it,
 * the same resolved model and byte for byte the same files; `prisma-hydra generate` writes them.
 */
import { spawnSync } from 'node:child_process'
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

/** The files of `datamodel` for a Prisma 7 client (of CLIENT_MODULE) or a Prisma 8 one. */
const build = async (datamodel: DMMF.Datamodel, client: 'prisma7' | 'prisma8' = 'prisma7') =>
  buildHydra({
    datamodel,
    provider: 'postgresql',
    client,
    ...(client === 'prisma7' ? { clientModule: CLIENT_MODULE } : {}),
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

  it('resolves to the same model and the same files, for either client', async () => {
    for (const client of ['prisma7', 'prisma8'] as const) {
      const [seven, eight] = await Promise.all([build(prisma7, client), build(prisma8, client)])
      expect(eight.model).toEqual(seven.model)
      expect([...eight.files.keys()].sort()).toEqual([...seven.files.keys()].sort())
      for (const [name, content] of seven.files) expect(eight.files.get(name), name).toBe(content)
    }
  })

  it('is written by `prisma-hydra generate` as Prisma 7 models write it for Prisma 8', async () => {
    const lines: string[] = []
    const written = await generated((output) =>
      runContractCommand([...ARGS, '--output', output], workspace, {
        out: (line) => lines.push(line),
        err: (line) => lines.push(line),
      })
    )
    expect(lines.join('\n')).toMatch(/^prisma-hydra wrote \d+ files to /)
    await expectFilesOfPrisma7Models(written)
  })

  it("is written by the package's bin (its built dist/: turbo run build)", async () => {
    const bin = path.join(workspace, '../generator/bin/prisma-hydra.js')
    const written = await generated((output) => {
      const run = spawnSync(process.execPath, [bin, 'generate', ...ARGS, '--output', output], {
        cwd: workspace,
        encoding: 'utf8',
      })
      if (run.status !== 0) throw new Error(`${run.stdout}\n${run.stderr}`)
      return Promise.resolve(run.status)
    })
    await expectFilesOfPrisma7Models(written)
  })
})

/** The command's options but its output folder. */
const ARGS = [
  '--contract',
  'prisma/contract.json',
  '--schema',
  'prisma/contract.prisma',
  '--config',
  '../prisma/platform.yaml',
]

/** The files `generate` writes into a new folder (exit code 0), by name; the folder removed. */
async function generated(generate: (output: string) => Promise<number>) {
  const output = await mkdtemp(path.join(tmpdir(), 'hydra-prisma8-'))
  try {
    expect(await generate(output)).toBe(0)
    const names = await readdir(output)
    const contents = await Promise.all(
      names.map((name) => readFile(path.join(output, name), 'utf8'))
    )
    return new Map(names.map((name, index) => [name, contents[index]]))
  } finally {
    await rm(output, { recursive: true, force: true })
  }
}

/**
 * Expects `files` to be those buildHydra writes for a Prisma 8 client from Prisma 7's DMMF, byte
 * for byte.
 */
async function expectFilesOfPrisma7Models(files: ReadonlyMap<string, string | undefined>) {
  const seven = await build(prisma7, 'prisma8')
  expect([...files.keys()].sort()).toEqual([...seven.files.keys()].sort())
  for (const [name, content] of seven.files) expect(files.get(name), name).toBe(content)
}
