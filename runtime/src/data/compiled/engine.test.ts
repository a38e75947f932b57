import { describe, expect, it } from 'vitest'
import type { ModelSource } from '../../contract/model-source.js'
import { fieldEquals } from '../../plan/condition.js'
import type { ModelReads } from '../model-reads.js'
import { compiledReads } from './engine.js'
import type { SqlQuery } from './query.js'
import type { SqlRunner } from './sql-runner.js'

const model: ModelSource = {
  delegate: 'book',
  provider: 'postgresql',
  table: { name: 'Book', schema: null },
  key: { name: 'id' },
  select: { id: true, title: true },
  compiled: {
    select: 'SELECT "id", "title" FROM "Book"',
    columns: { id: ['id', 'Int'], title: ['title', 'String'] },
  },
}

const unused = (): never => {
  throw new Error('read by Prisma')
}
const prisma = {
  findMany: unused,
  count: unused,
  findManyAndCount: unused,
  estimate: unused,
  findUnique: unused,
  findManyOf: unused,
  findManyEach: unused,
  inSnapshot: unused,
} as ModelReads

/** A runner answering each statement with `answer`, and the statements it was given. */
function runner(answer: (query: SqlQuery) => unknown[][]) {
  const sent: string[] = []
  const fake: SqlRunner = {
    typed: false,
    rows: async (query) => {
      sent.push(query.sql)
      return answer(query)
    },
    async snapshot(queries) {
      sent.push(`transaction: ${queries.length} statements`)
      return [[[9, 'Late']], [[31]]]
    },
  }
  return { fake, sent }
}

const options = { isolationLevel: 'RepeatableRead', maxWait: 1, timeout: 1 }
const order = [{ field: 'id', direction: 'asc' as const }]

describe('a full page on the compiled engine', () => {
  it('reads the page and its count in one statement, without a transaction', async () => {
    const { fake, sent } = runner(() => [
      [1, 'One', 12n],
      [2, 'Two', 12n],
    ])
    const reads = compiledReads(prisma, model, fake) as ModelReads
    const answer = await reads.findManyAndCount({ order, skip: 0, take: 2 }, undefined, options)
    expect(answer).toEqual([
      [
        { id: 1, title: 'One' },
        { id: 2, title: 'Two' },
      ],
      12,
    ])
    expect(sent).toEqual([
      'SELECT "id", "title", (SELECT COUNT(*) FROM "Book") AS "total" FROM "Book" ORDER BY "id" ASC LIMIT $1',
    ])
  })

  it('answers an empty page with a count that leaves no row at its offset', async () => {
    const { fake, sent } = runner((query) => (query.sql.includes('LIMIT') ? [] : [[30]]))
    const reads = compiledReads(prisma, model, fake) as ModelReads
    const condition = fieldEquals('title', 'x')
    const args = { condition, order, skip: 30, take: 10 }
    expect(await reads.findManyAndCount(args, condition, options)).toEqual([[], 30])
    expect(sent).toHaveLength(2)
  })

  it('reads an empty page again in a transaction when rows came at its offset meanwhile', async () => {
    const { fake, sent } = runner((query) => (query.sql.includes('LIMIT') ? [] : [[31]]))
    const reads = compiledReads(prisma, model, fake) as ModelReads
    const args = { order, skip: 30, take: 10 }
    expect(await reads.findManyAndCount(args, undefined, options)).toEqual([
      [{ id: 9, title: 'Late' }],
      31,
    ])
    expect(sent.at(-1)).toBe('transaction: 2 statements')
  })
})
