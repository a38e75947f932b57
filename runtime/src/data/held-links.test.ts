import { describe, expect, it } from 'vitest'
import type { CompiledModel, CompiledModels } from '../contract/model-source.js'
import { heldLinkTags } from './held-links.js'

const models: CompiledModels = {
  Article: {
    table: { name: 'Article', schema: null },
    columns: { id: ['article_id', 'Int'], deskId: ['deskId', 'Int', true] },
    relations: {
      desk: { model: 'Desk', owned: true, on: [['deskId', 'id']] },
      body: { model: 'ArticleBody', on: [['article_id', 'article']] },
      note: { model: 'Note', on: [['article_id', 'articleRef']] },
      pair: {
        model: 'Pair',
        on: [
          ['article_id', 'a'],
          ['deskId', 'b'],
        ],
      },
    },
  },
  ArticleBody: {
    table: { name: 'ArticleBody', schema: null },
    columns: { id: ['id', 'Int'], articleId: ['article', 'Int'] },
    relations: {},
  },
  Note: {
    table: { name: 'Note', schema: null },
    columns: { articleRef: ['articleRef', 'Float'] },
    relations: {},
  },
  Pair: { table: { name: 'Pair', schema: null }, columns: {}, relations: {} },
}
const compiled: CompiledModel = {
  select: 'SELECT "article_id", "deskId" FROM "Article"',
  columns: models.Article?.columns ?? {},
  name: 'Article',
  models,
}
const source = { provider: 'postgresql', compiled }
const target = (name: string) => ({ name, collectionPath: `/${name.toLowerCase()}s` })
const links = [
  { name: 'desk', kind: 'one', target: target('Desk'), from: 'deskId' },
  { name: 'text', field: 'body', kind: 'one', target: target('ArticleBody'), from: ['body', 'id'] },
  { name: 'note', kind: 'one', target: target('Note'), from: ['note', 'id'] },
  { name: 'pair', kind: 'one', target: target('Pair'), from: ['pair'] },
  { name: 'notes', kind: 'many', target: target('Note') },
] as const

describe('the tags of rows holding the keys of an answer', () => {
  it("tags an item by the value of the related row's foreign key, through the columns", () => {
    expect(heldLinkTags(source, links, { id: 2, deskId: 5 })).toEqual([
      'ArticleBody',
      'ArticleBody:articleId=2',
      'Note',
      'Note:any',
      'Pair',
      'Pair:any',
    ])
  })

  it('tags a page, whose rows are not one, by the related models and their any-row tags', () => {
    expect(heldLinkTags(source, links)).toEqual([
      'ArticleBody',
      'ArticleBody:any',
      'Note',
      'Note:any',
      'Pair',
      'Pair:any',
    ])
  })

  it('tags by the broader tags where no compiled description says which side holds the key', () => {
    expect(heldLinkTags({ provider: 'sqlite' }, links, { id: 2 })).toEqual([
      'ArticleBody',
      'ArticleBody:any',
      'Note',
      'Note:any',
      'Pair',
      'Pair:any',
    ])
    expect(heldLinkTags(source, undefined, { id: 2 })).toEqual([])
  })
})
