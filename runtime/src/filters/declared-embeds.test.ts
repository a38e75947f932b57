import { describe, expect, it } from 'vitest'
import type { DeclaredEmbed } from '../contract/properties.js'
import { withDeclaredEmbeds } from '../hydra/member-shape.js'
import { declaredFor, subCollectionName } from './declared-embeds.js'

const embed = (fields: readonly string[]) => ({
  model: 'Book',
  delegate: 'book',
  key: ['id'],
  fields: fields.map((name) => ({ name, type: 'String' })),
})

/** A relation declared for every other operation, and once for the item with more fields. */
const book: DeclaredEmbed = { name: 'book', embed: embed(['title']) }
const bookOfItem: DeclaredEmbed = {
  name: 'book',
  embed: embed(['title', 'isbn']),
  operations: ['item'],
}
/** A relation embedded on one operation and a sub-collection alone. */
const reader: DeclaredEmbed = {
  name: 'reader',
  embed: { ...embed(['name']), model: 'Reader', delegate: 'reader' },
  operations: ['recent', 'Book.loans'],
}
const declared = [book, bookOfItem, reader]

describe('the declared embeds of an operation', () => {
  it('takes the declarations naming it, else each relation the one naming none', () => {
    expect(declaredFor(declared, 'collection')).toStrictEqual([book])
    expect(declaredFor(declared, 'item')).toStrictEqual([bookOfItem])
    expect(declaredFor(declared, 'recent')).toStrictEqual([book, reader])
    expect(declaredFor(declared, 'Book.loans')).toStrictEqual([book, reader])
    expect(declaredFor([reader], 'collection')).toStrictEqual([])
    expect(declaredFor(undefined, 'item')).toBeUndefined()
  })

  it('names a sub-collection by its parent and link, else by its operation', () => {
    expect(subCollectionName({ name: 'Book', link: 'loans' }, { name: 'collection' })).toBe(
      'Book.loans'
    )
    expect(subCollectionName({ name: 'Book' }, { name: 'collection' })).toBe('collection')
    expect(subCollectionName(undefined, {})).toBe('collection')
    expect(subCollectionName(undefined, { name: 'recent' })).toBe('recent')
  })

  it("embeds an operation's own fields, and nothing where none is declared", () => {
    const item = withDeclaredEmbeds(undefined, declaredFor(declared, 'item'), undefined)
    expect(item?.embeds.get('book')?.fields).toStrictEqual(['title', 'isbn'])
    const page = withDeclaredEmbeds(undefined, declaredFor(declared, 'collection'), undefined)
    expect(page?.embeds.get('book')?.fields).toStrictEqual(['title'])
    expect(page?.embeds.has('reader')).toBe(false)
    expect(withDeclaredEmbeds(undefined, declaredFor([reader], 'item'), undefined)).toBeUndefined()
  })
})
