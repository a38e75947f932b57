import { describe, expect, it } from 'vitest'
import { buildHydra } from '../src/generate.js'
import { formatProblem, GenerationError } from '../src/problems.js'
import { loadDatamodel } from './dmmf.js'

const schema = (doc: string) =>
  `${doc
    .split('\n')
    .map((line) => `/// ${line}`)
    .join('\n')}\nmodel Event {\n  id Int @id\n  at DateTime @map("happened_at")\n  kind String\n}`

async function build(doc: string, platform?: string) {
  const datamodel = await loadDatamodel(schema(doc))
  try {
    const result = buildHydra({
      datamodel,
      provider: 'postgresql',
      clientModule: '../prisma/client.js',
      ...(platform ? { globalConfig: { text: platform, label: './platform.yaml' } } : {}),
    })
    return {
      file: result.files.get('event.ts') ?? '',
      problems: result.warnings.map(formatProblem),
    }
  } catch (error) {
    if (!(error instanceof GenerationError)) throw error
    return { file: '', problems: error.problems.map(formatProblem) }
  }
}

describe('the read engine', () => {
  it('writes each to-one relation read by its own foreign key as a join of the compiled form', async () => {
    const datamodel = await loadDatamodel(`/// @pagination
model Author {
  id    Int     @id
  name  String  @map("full_name")
  books Book[]
}

/// @pagination
model Book {
  id       Int    @id
  title    String
  authorId Int    @map("author_id")
  author   Author @relation(fields: [authorId], references: [id])
}`)
    const result = buildHydra({
      datamodel,
      provider: 'postgresql',
      clientModule: '../prisma/client.js',
    })
    expect(result.files.get('book.ts')).toContain(
      'joins: { "author": { table: { name: "Author", schema: null }, on: ["author_id", "id"], columns: { "id": ["id", "Int"], "name": ["full_name", "String"] } } }'
    )
    // Author's books are a to-many relation: no join.
    expect(result.files.get('author.ts')).not.toContain('joins:')
  })

  it("writes the native types of PostgreSQL's String columns that declare one", async () => {
    const models = `/// @pagination
model Host {
  id      Int    @id
  address String @db.Inet
  name    String @db.Citext
  label   String @db.VarChar(20)
  note    String
  count   Int    @db.SmallInt
}`
    const build = async (provider: string, schema = models) =>
      buildHydra({
        datamodel: await loadDatamodel(schema, provider),
        provider,
        clientModule: '../prisma/client.js',
      })
    const postgresql = await build('postgresql')
    const native = 'nativeTypes: { "address": "Inet", "name": "Citext", "label": "VarChar" }'
    expect(postgresql.files.get('host.ts')).toContain(native)
    expect(postgresql.files.get('compiled-models.ts')).toContain(
      '"nativeTypes": { "address": "Inet", "name": "Citext", "label": "VarChar" }'
    )
    // Other providers' native types are not read: their strings are tagged by the provider alone.
    const mysql = await build(
      'mysql',
      '/// @pagination\nmodel Host {\n  id Int @id\n  label String @db.VarChar(20)\n}'
    )
    expect(mysql.files.get('host.ts')).not.toContain('nativeTypes')
    expect(mysql.files.get('compiled-models.ts')).not.toContain('nativeTypes')
  })

  it('joins each link whose key only the related row holds, and gives its model a compiled form', async () => {
    const datamodel = await loadDatamodel(`/// @pagination
model Article {
  id    Int          @id
  body  ArticleBody?
  stamp Stamp?
}

/// @pagination
model ArticleBody {
  id        Int     @id
  articleId Int     @unique @map("article_id")
  article   Article @relation(fields: [articleId], references: [id])
}

/// @pagination
model Stamp {
  series    String
  number    Int
  articleId Int       @unique
  article   Article   @relation(fields: [articleId], references: [id])
  stickers  Sticker[]

  @@id([series, number])
}

/// @pagination
model Sticker {
  id           Int    @id
  stampSeries  String
  stampNumber  Int    @map("stamp_number")
  stamp        Stamp  @relation(fields: [stampSeries, stampNumber], references: [series, number])
}`)
    const result = buildHydra({
      datamodel,
      provider: 'postgresql',
      clientModule: '../prisma/client.js',
    })
    // The foreign key is the related model's: the join pairs the model's key with it.
    const article = result.files.get('article.ts') ?? ''
    expect(article).toContain(
      '"body": { table: { name: "ArticleBody", schema: null }, on: ["id", "article_id"], columns: { "id": ["id", "Int"], "articleId": ["article_id", "Int"] } }'
    )
    expect(article).toContain(
      '"stamp": { table: { name: "Stamp", schema: null }, on: ["id", "articleId"],'
    )
    expect(article).toContain("import { compiledModels } from './compiled-models.js'")
    // A composite key: every pair of columns.
    expect(result.files.get('sticker.ts')).toContain(
      'on: ["stampSeries", "series"], alsoOn: [["stamp_number", "number"]], columns: {'
    )
  })

  it('writes the model’s SELECT with mapped columns, and each column’s type', async () => {
    const { file, problems } = await build('@pagination')
    expect(problems).toEqual([])
    expect(file).toContain(
      'compiled: { select: "SELECT \\"id\\", \\"happened_at\\" AS \\"at\\", \\"kind\\" FROM \\"Event\\"", columns: { "id": ["id", "Int"], "at": ["happened_at", "DateTime"], "kind": ["kind", "String"] }, name: "Event", models: compiledModels }'
    )
    expect(file).not.toContain("engine: '")
  })

  it('writes every model’s table, columns and join columns into compiled-models', async () => {
    const datamodel = await loadDatamodel(
      `/// @pagination\nmodel Book {\n  id Int @id\n  authorId Int? @map("author_id")\n  author Author? @relation(fields: [authorId], references: [id])\n  tags Tag[]\n}\nmodel Author {\n  id Int @id\n  books Book[]\n}\nmodel Tag {\n  id Int @id\n  books Book[]\n}`
    )
    const result = buildHydra({
      datamodel,
      provider: 'postgresql',
      clientModule: '../prisma/client.js',
    })
    const text = result.files.get('compiled-models.ts') ?? ''
    const models = JSON.parse(text.slice(text.indexOf('= ') + 2, text.indexOf(' satisfies')))
    expect(models.Book.relations).toEqual({
      author: { model: 'Author', owned: true, on: [['author_id', 'id']] },
      tags: {
        model: 'Tag',
        many: true,
        on: [['id', 'A']],
        through: { table: { name: '_BookToTag', schema: null }, on: [['B', 'id']] },
      },
    })
    expect(models.Author.relations.books).toEqual({
      model: 'Book',
      many: true,
      on: [['id', 'author_id']],
    })
    expect(models.Tag.relations.books.on).toEqual([['id', 'B']])
    expect(result.files.get('book.ts')).toContain(
      "import { compiledModels } from './compiled-models.js'"
    )
  })

  it('writes the stored names of enums with @map values into compiled-models', async () => {
    const datamodel = await loadDatamodel(
      `enum Kind {\n  ORG_ONBOARDING @map("org_onboarding")\n  OTHER\n}\nenum Plain {\n  A\n}\n/// @pagination\nmodel Task {\n  id Int @id\n  kind Kind\n  plain Plain\n}`
    )
    const result = buildHydra({
      datamodel,
      provider: 'postgresql',
      clientModule: '../prisma/client.js',
    })
    expect(result.files.get('compiled-models.ts')).toContain(
      'export const compiledEnums = { "Kind": { "ORG_ONBOARDING": "org_onboarding", "OTHER": "OTHER" } } satisfies CompiledEnums'
    )
    const task = result.files.get('task.ts') ?? ''
    expect(task).toContain("import { compiledModels, compiledEnums } from './compiled-models.js'")
    expect(task).toContain('models: compiledModels, enums: compiledEnums }')
  })

  it('resolves operation > resource > platform defaults', async () => {
    const { file, problems } = await build(
      [
        '@pagination(engine: "compiled")',
        '@operation(name: "plain", path: "/events/plain", engine: "prisma")',
        '@operation(name: "fast", path: "/events/fast")',
      ].join('\n'),
      'platform:\n  defaults:\n    engine: prisma\n'
    )
    expect(problems).toEqual([])
    expect(file).toMatch(
      /select: eventSelect, compiled: \{.*\}, engine: 'compiled' \} satisfies ModelSource/
    )
    const operation = (name: string) => {
      const start = file.indexOf(`  ${name}: {`)
      return file.slice(start, file.indexOf('\n  },', start))
    }
    expect(operation('collection')).toContain("engine: 'compiled',")
    expect(operation('plain')).toContain("engine: 'prisma',")
    expect(operation('fast')).toContain("engine: 'compiled',")
  })

  it('refuses an engine it does not know, where it is written', async () => {
    const { problems } = await build('@pagination(engine: "raw")')
    expect(problems).toEqual([
      'error: Model "Event", @pagination, option "engine": must be "prisma" or "compiled", got "raw"',
    ])
  })

  it('hands the model source the client’s AnyNull where a filter tests a Json field’s null', async () => {
    const datamodel = await loadDatamodel(`/// @pagination
/// @filter(exists: [payload])
model Log {
  id      Int    @id
  payload Json?
  notes   Note[]
}

/// @pagination
/// @filter(exists: ["log.payload"])
model Note {
  id    Int  @id
  logId Int
  log   Log  @relation(fields: [logId], references: [id])
}

/// @pagination
model Tag {
  id   Int    @id
  data Json?
}`)
    const { files } = buildHydra({
      datamodel,
      provider: 'postgresql',
      clientModule: '../prisma/client.js',
    })
    // On its own field and through a relation: the sentinel, imported as a value.
    for (const name of ['log.ts', 'note.ts']) {
      const file = files.get(name) ?? ''
      expect(file, name).toMatch(/, jsonNull: Prisma\.AnyNull \} satisfies ModelSource/)
      expect(file, name).toContain(
        "import { Prisma, type PrismaClient } from '../prisma/client.js'"
      )
    }
    // No such filter: neither the sentinel nor the value's import.
    expect(files.get('tag.ts')).not.toContain('AnyNull')
  })
})
