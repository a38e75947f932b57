/**
 * The order key of each operation: what unpaged responses read their batches by (D5). A keyset
 * only when every field of the order is required and comparable; offsets otherwise.
 */
import { describe, expect, it } from 'vitest'
import { buildHydra } from '../src/generate.js'
import { loadDatamodel } from './dmmf.js'

const schema = `
enum Shelf {
  A
  B
}
/// @pagination
/// @resource(order: { title: "asc" })
/// @operation(name: "byShelf", path: "/books/by-shelf", order: { shelf: "asc" })
/// @operation(name: "byNote", path: "/books/by-note", order: { note: "desc" })
/// @operation(name: "newest", path: "/books/newest", order: { publishedAt: "desc" })
/// @operation(name: "feed", path: "/books/feed", viaCursor: [{ field: "publishedAt", direction: "DESC" }])
model Book {
  id          Int      @id @default(autoincrement())
  title       String
  shelf       Shelf
  note        String?
  publishedAt DateTime
  /// @hidden
  secret      String
  @@index([publishedAt, id])
}
`

async function build() {
  return buildHydra({
    datamodel: await loadDatamodel(schema),
    provider: 'sqlite',
    clientModule: '../prisma/client.js',
  })
}

describe('order keys', () => {
  it('a keyset for comparable required fields, offsets for enums and optional fields', async () => {
    const { model } = await build()
    const keys = Object.fromEntries(
      (model.resources[0]?.operations ?? []).map((operation) => [
        operation.name,
        operation.orderKey?.map((key) => `${key.field} ${key.direction} ${key.type}`) ?? null,
      ])
    )
    expect(keys).toEqual({
      collection: ['title asc String', 'id asc Int'],
      byShelf: null,
      byNote: null,
      newest: ['publishedAt desc DateTime', 'id asc Int'],
      // Cursor operations read their batches by their cursor key.
      feed: null,
    })
  })

  it('leaves the key of shown and key fields to the runtime, and reads its fields', async () => {
    const { files, model } = await build()
    const module = files.get('book.ts') ?? ''
    // defineOperations derives each key from the order and the resource's fields and key.
    expect(module).not.toContain('orderKey:')
    // The hidden field is neither read nor shown: it is in no key.
    expect(model.resources[0]?.selected).toEqual(['id', 'title', 'shelf', 'note', 'publishedAt'])
  })

  it('describes the fields an order names that the resource does not show', async () => {
    const { files } = await buildHydra({
      datamodel: await loadDatamodel(`
/// @pagination
model Author {
  id    Int    @id
  books Book[]
}
/// @pagination
/// @operation(name: "byAuthor", path: "/books/by-author", order: { authorId: "desc" })
/// @operation(name: "byEditor", path: "/books/by-editor", order: { editorId: "asc" })
/// @operation(name: "feed", path: "/books/feed", viaCursor: [{ field: "code", direction: "ASC" }])
model Book {
  id       Int    @id
  authorId Int
  author   Author @relation(fields: [authorId], references: [id])
  /// @hidden
  editorId Int?
  /// @hidden
  code     String @unique
}
`),
      provider: 'sqlite',
      clientModule: '../prisma/client.js',
    })
    const module = files.get('book.ts') ?? ''
    // The foreign key is shown as the author link, not as a field, and the hidden fields not at
    // all: the resource gives their types (the cursor's own key types its field), and
    // defineOperations derives every key from them.
    expect(module).toContain(
      "unshown: [{ name: 'authorId', type: 'Int' }, { name: 'editorId', type: 'Int', required: false }],"
    )
    expect(module).not.toContain('orderKey')
  })

  it('providers are offered for offset operations only', async () => {
    const module = (await build()).files.get('book.ts') ?? ''
    const providers = module.slice(module.indexOf('export type BookProviders'))
    const body = providers.slice(0, providers.indexOf('\n'))
    expect(body).toContain(
      'OperationProviders<BookRow, Prisma.BookWhereInput, Prisma.BookOrderByWithRelationInput, "collection" | "byShelf" | "byNote" | "newest">'
    )
    expect(body).not.toContain('feed')
  })
})
