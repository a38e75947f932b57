/**
 * Unpaged collections read in batches (D5) and rendered while they are read: every row exactly
 * once, in order, with keyset batches; and a streamed document identical to the one rendered whole.
 */
import { describe, expect, it } from 'vitest'
import { memorySource, type Row } from '../../test/memory-source.js'
import type { CursorKey } from '../contract/order.js'
import { defaultParameterNames } from '../contract/paging.js'
import { renderCollection, renderCollectionChunks } from '../hydra/collection.js'
import { parseQuery } from '../iri/query-string.js'
import { readInBatches, releaseBatch } from './batches.js'
import { fromItems } from './page.js'

const key = (field: string, type: string, direction: 'asc' | 'desc' = 'asc'): CursorKey => ({
  field,
  type,
  direction,
})

/** 23 rows whose score repeats heavily, ordered score DESC then id ASC (mixed directions). */
const SCORES = [3, 3, 7, 3, 3, 1, 3, 3, 7, 3, 1, 3, 3, 7, 7, 3, 1, 1, 3, 7, 2, 3, 3]
const rows: Row[] = SCORES.map((score, index) => ({ id: index + 1, score }))
const scoreId = [key('score', 'Int', 'desc'), key('id', 'Int')]
const expected = [...rows]
  .sort((a, b) => (b.score as number) - (a.score as number) || (a.id as number) - (b.id as number))
  .map((row) => row.id)

async function collect<T>(batches: AsyncIterable<T[]>): Promise<T[][]> {
  const all: T[][] = []
  for await (const batch of batches) all.push(batch)
  return all
}

describe('readInBatches', () => {
  it.each([1, 2, 4, 5, 22, 23, 24, 500])(
    'keyset batches of %i: every row once, in order',
    async (size) => {
      const source = memorySource(rows, scoreId)
      const batches = await collect(readInBatches(source, scoreId, size))
      expect(batches.flat().map((row) => row.id)).toEqual(expected)
      expect(batches.every((batch) => batch.length <= size)).toBe(true)
      // One query per batch, plus one that finds the end when the last batch is full.
      expect(source.windows).toHaveLength(Math.floor(rows.length / size) + 1)
      expect(source.windows.every((window) => window.skip === undefined)).toBe(true)
      expect(source.windows[1]?.where).toEqual(
        size <= rows.length
          ? {
              score: { lte: batches[0]?.at(-1)?.score },
              OR: [
                { score: { lt: batches[0]?.at(-1)?.score } },
                { id: { gt: batches[0]?.at(-1)?.id } },
              ],
            }
          : undefined
      )
    }
  )

  it('without a key, batches go by offset', async () => {
    const source = memorySource(rows, scoreId)
    const batches = await collect(readInBatches(source, undefined, 10))
    expect(batches.flat().map((row) => row.id)).toEqual(expected)
    expect(source.windows).toEqual([{ take: 10 }, { take: 10, skip: 10 }, { take: 10, skip: 20 }])
  })

  it('an empty collection is one query and no batch', async () => {
    const source = memorySource([], scoreId)
    expect(await collect(readInBatches(source, scoreId, 10))).toEqual([])
    expect(source.windows).toEqual([{ take: 10 }])
  })

  it('a row deleted under the position changes nothing', async () => {
    const mutable = rows.map((row) => ({ ...row }))
    const source = memorySource(mutable, scoreId)
    const seen: unknown[] = []
    for await (const batch of readInBatches(source, scoreId, 5)) {
      seen.push(...batch.map((row) => row.id))
      const last = batch.at(-1)
      const index = mutable.findIndex((row) => row.id === last?.id)
      if (index !== -1) mutable.splice(index, 1)
    }
    expect(seen).toEqual(expected)
  })

  it.each([
    ['a keyset', scoreId],
    ['offsets', undefined],
  ])('with %s, a consumer may empty each batch once read', async (_, key) => {
    const source = memorySource(rows, scoreId)
    const seen: unknown[] = []
    for await (const batch of readInBatches(source, key, 4)) {
      seen.push(...batch.map((row) => row.id))
      releaseBatch(batch)
      expect(batch).toEqual([])
    }
    expect(seen).toEqual(expected)
    expect(source.windows).toHaveLength(Math.floor(rows.length / 4) + 1)
  })

  it('stopping the iteration stops the reads', async () => {
    const source = memorySource(rows, scoreId)
    for await (const batch of readInBatches(source, scoreId, 2)) {
      expect(batch).toHaveLength(2)
      break
    }
    expect(source.windows).toHaveLength(1)
  })

  it('refuses a batch size that is not a positive integer', async () => {
    const source = memorySource(rows, scoreId)
    await expect(collect(readInBatches(source, scoreId, 0))).rejects.toThrow(RangeError)
  })
})

describe('renderCollectionChunks: the streamed document is the document rendered whole', () => {
  const members = rows.map((row) => ({ '@id': `/scores/${row.id}`, ...row }))
  async function* batchesOf(size: number) {
    for (let start = 0; start < members.length; start += size)
      yield members.slice(start, start + size)
  }

  it.each([
    ['pagination=false', 1, true],
    ['pagination=false', 7, true],
    ['pagination=false&name=x', 5, true],
    ['name=a%20b&pagination=0', 100, true],
    ['', 23, true],
    ['pagination=false', 7, false],
    ['pagination=false&name=x', 5, false],
  ])('?%s in batches of %i, hydra: prefix %s', async (raw, size, hydraPrefix) => {
    const options = {
      path: '/scores',
      query: parseQuery(raw),
      parameters: defaultParameterNames,
      context: '/contexts/Score',
      hydraPrefix,
    }
    let text = ''
    let chunks = 0
    for await (const chunk of renderCollectionChunks(batchesOf(size), options)) {
      text += chunk
      chunks++
    }
    expect(JSON.parse(text)).toStrictEqual(renderCollection(fromItems(members), options))
    expect(chunks).toBe(Math.ceil(members.length / size) + 1)
  })

  it('without the prefix, no key carries it', async () => {
    const options = {
      path: '/scores',
      query: parseQuery('pagination=false&name=x'),
      parameters: defaultParameterNames,
      context: '/contexts/Score',
      hydraPrefix: false,
    }
    let text = ''
    for await (const chunk of renderCollectionChunks(batchesOf(5), options)) text += chunk
    const body = JSON.parse(text)
    expect(Object.keys(body)).toEqual(['@context', '@id', '@type', 'member', 'totalItems', 'view'])
    expect(body['@type']).toBe('Collection')
    expect(body.view).toEqual({
      '@id': '/scores?name=x&pagination=false',
      '@type': 'PartialCollectionView',
    })
  })

  it('an empty collection', async () => {
    const options = {
      path: '/scores',
      query: parseQuery('pagination=false'),
      parameters: defaultParameterNames,
      context: '/contexts/Score',
    }
    let text = ''
    for await (const chunk of renderCollectionChunks((async function* () {})(), options)) {
      text += chunk
    }
    expect(JSON.parse(text)).toStrictEqual(renderCollection(fromItems([]), options))
  })
})
