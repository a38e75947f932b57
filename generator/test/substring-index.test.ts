/**
 * The warning for a substring search through a relation on a long text column
 * (docs/filters.md#indexes): `partial`, `end`, `word_start` and their `i` forms on a column
 * declared `@db.Text` (or longer, or PostgreSQL's `@db.VarChar` without a length) through a
 * relation, unless PostgreSQL has a trigram index on it.
 */
import { describe, expect, it } from 'vitest'
import { buildHydra } from '../src/generate.js'
import { formatProblem } from '../src/problems.js'
import { loadDatamodel } from './dmmf.js'

/** Books and their authors, whose `bio` is declared as `bioType` and indexed by `authorIndex`. */
function schema(filter: string, bioType: string, authorIndex = '') {
  return `
/// @pagination
model Author {
  id    Int    @id
  name  String
  bio   String ${bioType}
  books Book[]
  ${authorIndex}
}
/// @pagination
/// @filter(${filter})
model Book {
  id       Int    @id
  title    String
  summary  String ${bioType}
  authorId Int
  author   Author @relation(fields: [authorId], references: [id])
  @@index([authorId])
}
`
}

/** The warnings of the search option of a build of `models` for `provider`. */
async function warnings(models: string, provider: string): Promise<string[]> {
  const built = await buildHydra({
    datamodel: await loadDatamodel(models, provider),
    provider,
    clientModule: '../prisma/client.js',
  })
  return built.warnings.map(formatProblem).filter((line) => line.includes('option "search"'))
}

const POSTGRES_WARNING =
  'warning: Model "Book", @filter, option "search": field "author.bio" (partial) reads Author.bio, a long text column (@db.Text), through a relation: no B-tree index serves a search for text inside it, so each request reads the bio of every related row it considers, and its count of every row; add a trigram index to Author (@@index([bio(ops: raw("gin_trgm_ops"))], type: Gin), with the pg_trgm extension), or search it with "start" (an index with text_pattern_ops) or "exact" (docs/filters.md#indexes)'

describe('a substring search through a relation on a long text column', () => {
  it('is warned of on PostgreSQL, with the trigram index to add', async () => {
    expect(
      await warnings(schema('search: { "author.bio": "partial" }', '@db.Text'), 'postgresql')
    ).toEqual([POSTGRES_WARNING])
  })

  it('is warned of for each strategy whose pattern starts with a wildcard', async () => {
    for (const strategy of ['end', 'word_start', 'ipartial', 'iend', 'iword_start']) {
      const [line, ...more] = await warnings(
        schema(`search: { "author.bio": "${strategy}" }`, '@db.Text'),
        'postgresql'
      )
      expect(more).toEqual([])
      expect(line).toContain(`field "author.bio" (${strategy}) reads Author.bio`)
    }
  })

  it('is not warned of for a strategy an index serves', async () => {
    for (const strategy of ['exact', 'start', 'iexact', 'istart'])
      expect(
        await warnings(schema(`search: { "author.bio": "${strategy}" }`, '@db.Text'), 'postgresql')
      ).toEqual([])
  })

  it('is not warned of with a trigram index on the column', async () => {
    const trigram = '@@index([bio(ops: raw("gin_trgm_ops"))], type: Gin)'
    expect(
      await warnings(
        schema('search: { "author.bio": "partial" }', '@db.Text', trigram),
        'postgresql'
      )
    ).toEqual([])
    // An index of another column, or a B-tree one of that column, serves nothing of it.
    const others = '@@index([name(ops: raw("gin_trgm_ops"))], type: Gin)\n  @@index([bio])'
    expect(
      await warnings(
        schema('search: { "author.bio": "partial" }', '@db.Text', others),
        'postgresql'
      )
    ).toEqual([POSTGRES_WARNING])
  })

  it('names a varchar without a length on PostgreSQL, and not one with a length', async () => {
    const [unbounded] = await warnings(
      schema('search: { "author.bio": "partial" }', '@db.VarChar'),
      'postgresql'
    )
    expect(unbounded).toContain('a long text column (@db.VarChar)')
    expect(
      await warnings(schema('search: { "author.bio": "partial" }', '@db.VarChar(80)'), 'postgresql')
    ).toEqual([])
  })

  it('is warned of on MySQL, where no index serves it', async () => {
    for (const type of ['@db.Text', '@db.MediumText', '@db.LongText']) {
      const lines = await warnings(schema('search: { "author.bio": "partial" }', type), 'mysql')
      expect(lines).toEqual([
        `warning: Model "Book", @filter, option "search": field "author.bio" (partial) reads Author.bio, a long text column (${type}), through a relation: no B-tree index serves a search for text inside it, so each request reads the bio of every related row it considers, and its count of every row; no index serves it on MySQL or MariaDB: search it with "start" or "exact", which an index on its first characters serves (@@index([bio(length: 100)])) (docs/filters.md#indexes)`,
      ])
    }
    // MySQL's default String is a varchar(191).
    expect(await warnings(schema('search: { "author.bio": "partial" }', ''), 'mysql')).toEqual([])
  })

  it('is not warned of on the model itself, nor on a column of no declared type', async () => {
    expect(
      await warnings(schema('search: { summary: "partial" }', '@db.Text'), 'postgresql')
    ).toEqual([])
    expect(
      await warnings(schema('search: { "author.name": "partial" }', '@db.Text'), 'postgresql')
    ).toEqual([])
    expect(await warnings(schema('search: { "author.bio": "partial" }', ''), 'sqlite')).toEqual([])
  })

  it('names the operation a filter of one operation is declared for, once', async () => {
    const lines = await warnings(
      schema('operation: "collection", search: { "author.bio": "partial" }', '@db.Text'),
      'postgresql'
    )
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain('@filter(operation: "collection"), option "search"')
  })
})
