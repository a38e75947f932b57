import { describe, expect, it } from 'vitest'
import type { KeySpec } from '../contract/keys.js'
import { type RowIris, writeTags } from './written-rows.js'

/** Books of authors, loans of books, and order lines keyed by their order and product. */
const targets = new Map([
  [
    'Book',
    new Map([
      ['author', 'Author'],
      ['loans', 'Loan'],
    ]),
  ],
  ['Author', new Map([['books', 'Book']])],
  ['Loan', new Map([['book', 'Book']])],
  ['Line', new Map()],
])

const resource = (name: string, path: string, id: KeySpec): RowIris => ({
  name,
  id,
  iriOf: (row, base) =>
    `${base}${path}/${(id.fields ?? [id]).map((field) => String((row as Record<string, unknown>)[field.name])).join(';')}`,
})
const resources = new Map([
  [
    'Book',
    {
      ...resource('Book', '/books', { name: 'id', kind: 'Int' }),
      // Its pages are tagged by these fields' values, never by a price (a Float).
      valueFields: new Set(['id', 'title', 'genre', 'authorId']),
    },
  ],
  [
    'Line',
    resource('Line', '/lines', {
      name: 'orderId_productId',
      kind: 'Composite',
      fields: [
        { name: 'orderId', kind: 'Int' },
        { name: 'productId', kind: 'Int' },
      ],
    }),
  ],
])

const tags = (model: string, operation: string, args: unknown, result: unknown = null) =>
  [...writeTags(targets, resources, { model, operation, args, result }).tags].sort()

describe('what a write purges', () => {
  it('names the rows it changed by their IRIs, before and after, and its model', () => {
    expect(tags('Book', 'update', { where: { id: 3 }, data: { title: 'T' } }, { id: 3 })).toEqual([
      '/books/3',
      'Book',
    ])
    const moved = { where: { id: 3 }, data: { id: 4 } }
    expect(tags('Book', 'update', moved, { id: 4 })).toEqual(['/books/3', '/books/4', 'Book'])
    expect(tags('Book', 'delete', { where: { isbn: 'x' } }, { id: 5 })).toContain('/books/5')
    const line = { where: { orderId_productId: { orderId: 1, productId: 2 } }, data: { qty: 3 } }
    expect(tags('Line', 'update', line, { qty: 3 })).toEqual(['/lines/1;2', 'Line'])
    expect(
      tags('Book', 'updateManyAndReturn', { data: { title: 'T' } }, [{ id: 1 }, { id: 2 }])
    ).toEqual(['/books/1', '/books/2', 'Book'])
  })

  it('names a created row by no IRI: no answer shows it yet', () => {
    expect(tags('Book', 'create', { data: { title: 'T' } }, { id: 9 })).toEqual(['Book'])
  })

  it('purges every answer showing a row of the model when it cannot name the rows', () => {
    expect(tags('Book', 'updateMany', { where: { title: 'T' }, data: { price: 1 } })).toEqual([
      'Book',
      'Book:rows',
    ])
    // A key set from a where that names it by another unique: the row before is not known.
    const rekeyed = { where: { isbn: 'x' }, data: { id: 4 } }
    expect(tags('Book', 'update', rekeyed, { id: 4 })).toEqual(['Book', 'Book:rows'])
    expect(tags('Book', 'update', { where: { isbn: 'x' }, data: {} }, { title: 'T' })).toEqual([
      'Book',
      'Book:rows',
    ])
    // A model no resource serves.
    expect(tags('Author', 'update', { where: { id: 1 }, data: {} }, { id: 1 })).toEqual([
      'Author',
      'Author:rows',
    ])
  })

  it('purges the models of nested writes and cascades by all their rows', () => {
    const nested = { where: { id: 1 }, data: { loans: { create: [{}] } } }
    expect(tags('Book', 'update', nested, { id: 1 })).toEqual([
      '/books/1',
      'Book',
      'Loan',
      'Loan:rows',
    ])
    expect(tags('Book', 'delete', { where: { id: 1 } }, { id: 1 })).toEqual([
      '/books/1',
      'Author',
      'Author:rows',
      'Book',
      'Loan',
      'Loan:rows',
    ])
  })
})

describe('what a write of a model no resource serves purges', () => {
  it('purges no row for a create', () => {
    const write = { model: 'Author', operation: 'create', args: { data: {} }, result: { id: 1 } }
    expect([...writeTags(targets, new Map(), write).tags]).toEqual(['Author'])
  })
})

describe('what an update naming its fields purges', () => {
  const book = {
    scalars: new Set(['id', 'title', 'pages', 'publishedAt', 'authorId']),
    foreignKeys: new Set(['authorId']),
    updatedAt: new Set(['publishedAt']),
  }
  const update = (data: unknown, operation = 'update') =>
    [
      ...writeTags(
        targets,
        resources,
        { model: 'Book', operation, args: { where: { id: 3 }, data }, result: { id: 3 } },
        book
      ).tags,
    ].sort()

  it('purges its rows and the pages reading its fields, not the model', () => {
    expect(update({ pages: 1 })).toEqual(['/books/3', 'Book.*', 'Book.pages', 'Book.publishedAt'])
    expect(update({ title: { set: 'T' }, pages: { increment: 1 } })).toContain('Book.title')
    expect(update({ pages: 1, title: undefined })).not.toContain('Book.title')
  })

  it('purges the model when the update may move its row or insert one', () => {
    expect(update({ authorId: 2 })).toContain('Book')
    expect(update({ author: { connect: { id: 2 } } })).toEqual(
      expect.arrayContaining(['Book', 'Author', 'Author:rows'])
    )
    expect(update({ unknown: 1 })).toContain('Book')
    const upsert = writeTags(
      targets,
      resources,
      {
        model: 'Book',
        operation: 'upsert',
        args: { where: { id: 3 }, update: { pages: 1 }, create: { pages: 1 } },
        result: { id: 3 },
      },
      book
    )
    expect([...upsert.tags]).toContain('Book')
    expect(update({ pages: 1 }, 'updateMany')).toEqual(['Book', 'Book:rows'])
  })
})

describe('what an update setting a key purges', () => {
  const author = {
    scalars: new Set(['id', 'name']),
    foreignKeys: new Set<string>(),
    updatedAt: new Set<string>(),
  }
  const authors = new Map([['Author', resource('Author', '/authors', { name: 'id', kind: 'Int' })]])

  it('purges the model: pages keyed by the row hold none of its IRIs', () => {
    const write = {
      model: 'Author',
      operation: 'update',
      args: { where: { id: 1 }, data: { id: 99, name: 'N' } },
      result: { id: 99 },
    }
    expect([...writeTags(targets, authors, write, author).tags].sort()).toEqual([
      '/authors/1',
      '/authors/99',
      'Author',
    ])
  })
})

describe('what an insert or a delete of a row of known values purges', () => {
  const book = {
    scalars: new Set(['id', 'title', 'genre', 'price', 'authorId']),
    foreignKeys: new Set(['authorId']),
    updatedAt: new Set<string>(),
  }
  const row = { id: 9, title: 'Dune', genre: 'FICTION', price: 12, authorId: 3 }
  const write = (operation: string, args: unknown, result: unknown) =>
    [...writeTags(targets, resources, { model: 'Book', operation, args, result }, book).tags].sort()

  it('purges the value tags of its values and Book:any, not the model', () => {
    expect(write('create', { data: row }, row)).toEqual([
      'Book:any',
      'Book:authorId=3',
      'Book:genre=fiction',
      'Book:id=9',
      'Book:title=dune',
    ])
    // A delete names its row too, and purges the models its cascades reach.
    const deleted = write('delete', { where: { id: 9 } }, row)
    expect(deleted).toEqual(expect.arrayContaining(['/books/9', 'Book:any', 'Book:authorId=3']))
    expect(deleted).toEqual(expect.arrayContaining(['Author', 'Loan', 'Loan:rows']))
    expect(deleted).not.toContain('Book')
  })

  it('purges no model a delete cannot change: the targets of its own foreign keys', () => {
    const linked = new Map([
      [
        'Book',
        {
          ...(resources.get('Book') as RowIris),
          links: [
            { name: 'author', kind: 'one', from: 'authorId' },
            { name: 'loans', kind: 'many' },
          ],
        },
      ],
    ])
    const call = { model: 'Book', operation: 'delete', args: { where: { id: 9 } }, result: row }
    const deleted = [...writeTags(targets, linked, call, book).tags]
    expect(deleted).toEqual(expect.arrayContaining(['/books/9', 'Loan', 'Loan:rows']))
    expect(deleted).not.toContain('Author')
    expect(deleted).not.toContain('Author:rows')
  })

  it('purges the model when the row it answered lacks a field, or it writes more', () => {
    const { genre: _, ...selected } = row
    expect(write('create', { data: row, select: { id: true } }, selected)).toContain('Book')
    expect(write('create', { data: { ...row, loans: { create: [{}] } } }, row)).toContain('Book')
    expect(write('createMany', { data: [row] }, { count: 1 })).toContain('Book')
    expect(write('upsert', { where: { id: 9 }, create: row, update: {} }, row)).toContain('Book')
    expect(write('deleteMany', { where: { authorId: 3 } }, { count: 1 })).toContain('Book')
    // A model whose fields are not described.
    const undescribed = writeTags(targets, resources, {
      model: 'Book',
      operation: 'create',
      args: { data: row },
      result: row,
    })
    expect([...undescribed.tags]).toEqual(['Book'])
  })
})
