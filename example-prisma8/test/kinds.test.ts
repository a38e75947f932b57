/**
 * What the example's schema does not hold, the same on both lines: a fixture written once for
 * each (fixtures/kinds: the same models and annotations, each column type in its line's words),
 * emitted for real by Prisma 8, gives the generator what Prisma 7's DMMF gives it. Doc comments
 * split by a blank line, with `//` lines between, indented, with trailing blanks, and ending a
 * field's line; native types Prisma 8 writes in type position (uuid, numeric with a scale,
 * varchar with and without a length, char, smallint, real, date, time, timetz, timestamp with a
 * precision, timestamptz, jsonb, inet); a field preset (`temporal.updatedAt()`, Prisma 7's `@updatedAt`); mapped tables and
 * columns; a named self-relation, a one-to-one, a composite id, uniques of the model and of a
 * field; enums and lists.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { DMMF } from '@prisma/generator-helper'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildHydra } from '../../generator/src/generate.js'
import { emitContract, prisma7Datamodel, readPrisma8 } from './prisma8-emit.js'
import { indexKeys, readByGenerator } from './read-by-generator.js'

const fixture = (name: string) => fileURLToPath(new URL(`fixtures/kinds/${name}`, import.meta.url))

let output: string
let prisma7: DMMF.Datamodel
let prisma8: DMMF.Datamodel

beforeAll(async () => {
  output = await mkdtemp(path.join(tmpdir(), 'hydra-prisma8-kinds-'))
  emitContract(fixture('prisma.config.ts'), output)
  prisma7 = await prisma7Datamodel(await readFile(fixture('schema.prisma'), 'utf8'))
  const built = await readPrisma8(path.join(output, 'contract.json'), fixture('contract.prisma'))
  expect(built.warnings).toEqual([])
  prisma8 = built.datamodel
})
afterAll(async () => {
  await rm(output, { recursive: true, force: true })
})

const build = (datamodel: DMMF.Datamodel) =>
  buildHydra({ datamodel, provider: 'postgresql', clientModule: '@prisma/client' })

describe('fields, keys and comments of every kind', () => {
  it('give the datamodel Prisma 7 gives, in what the generator reads', () => {
    expect(readByGenerator(prisma8)).toEqual(readByGenerator(prisma7))
  })

  it('mark the field preset as Prisma 7 marks @updatedAt', () => {
    const fields = prisma8.models.find((model) => model.name === 'Thing')?.fields ?? []
    expect(fields.filter((field) => field.isUpdatedAt).map((field) => field.name)).toEqual([
      'touched',
    ])
  })

  it('join the doc comments as Prisma 7 does', () => {
    const thing = prisma8.models.find((model) => model.name === 'Thing')
    expect(thing?.documentation?.split('\n').slice(0, 4)).toEqual([
      'Things of all kinds.',
      'an indented line',
      '',
      'trailing blanks kept   ',
    ])
    const price = thing?.fields.find((field) => field.name === 'price')
    expect(price?.documentation).toBe('the price\nand its trailing comment')
  })

  it("hold Prisma 7's indexes, and the foreign-key index Prisma 8 adds", () => {
    const added = indexKeys(prisma8).filter((key) => !indexKeys(prisma7).includes(key))
    expect(indexKeys(prisma8)).toEqual(expect.arrayContaining(indexKeys(prisma7)))
    expect(added).toEqual(['Thing normal (parentId)'])
  })

  it('resolve to the same model and the same files', () => {
    const [seven, eight] = [build(prisma7), build(prisma8)]
    expect(eight.model).toEqual(seven.model)
    expect([...eight.files.keys()].sort()).toEqual([...seven.files.keys()].sort())
    for (const [name, content] of seven.files) expect(eight.files.get(name), name).toBe(content)
  })
})
