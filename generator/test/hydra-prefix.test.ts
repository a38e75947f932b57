/**
 * The `hydra:` prefix setting at its three levels (operation > resource > global > true), as the
 * model resolves it and as the generated modules carry it to the runtime.
 */
import { describe, expect, it } from 'vitest'
import { buildHydra } from '../src/generate.js'
import { loadDatamodel } from './dmmf.js'

const schema = `
/// @pagination
/// @resource(hydraPrefix: true, iri: "https://schema.org/Book")
/// @operation(name: "plain", path: "/books/plain", hydraPrefix: false)
/// @operation(name: "inherited", path: "/books/inherited")
model Book {
  id    Int    @id
  /// @property(iri: "https://schema.org/name")
  title String
  note  String?
}
/// @pagination
model Shelf {
  id Int @id
}
`

async function build(platform?: string) {
  return buildHydra({
    datamodel: await loadDatamodel(schema),
    provider: 'sqlite',
    clientModule: '../prisma/client.js',
    ...(platform ? { globalConfig: { text: platform, label: 'platform.yaml' } } : {}),
  })
}

const prefixes = (result: Awaited<ReturnType<typeof build>>) =>
  Object.fromEntries(
    result.model.resources.flatMap((resource) =>
      resource.operations.map((operation) => [
        `${resource.name}.${operation.name}`,
        operation.hydraPrefix,
      ])
    )
  )

describe('hydraPrefix: operation > resource > global > true', () => {
  it('defaults to the prefix', async () => {
    expect(prefixes(await build())).toEqual({
      'Book.collection': true,
      'Book.plain': false,
      'Book.inherited': true,
      'Shelf.collection': true,
    })
  })

  it('the global setting applies where neither the resource nor the operation says', async () => {
    const result = await build('platform:\n  serializer:\n    hydra_prefix: false')
    expect(prefixes(result)).toEqual({
      'Book.collection': true,
      'Book.plain': false,
      'Book.inherited': true,
      'Shelf.collection': false,
    })
    expect(result.model.hydraPrefix).toBe(false)
    const index = result.files.get('index.ts') ?? ''
    // The API's own parts (CORS, error documents and handlers) follow the global setting.
    expect(index).toContain('const app = apiBase(served, false)')
    expect(index).toContain(".route('/', errorRoutes(false))")
    expect(index).toContain('return completeApi(app, api, false, served)')
  })

  it('the generated modules carry each setting, the IRIs and optional fields', async () => {
    const book = (await build()).files.get('book.ts') ?? ''
    expect(book).toContain("iri: 'https://schema.org/Book',")
    expect(book).toContain("{ name: 'title', type: 'String', iri: 'https://schema.org/name' },")
    expect(book).toContain("{ name: 'note', type: 'String', required: false },")
    const operations = book.slice(book.indexOf('export const bookOperations'))
    // The resource's prefix is the module's default; only the operation that differs states its own.
    expect(operations.match(/hydraPrefix: (true|false),/g)).toEqual(['hydraPrefix: false,'])
    // defineOperations keeps each literal, which types the responses' keys.
    expect(operations).toContain('export const bookOperations = defineOperations(bookResource, {')
    expect(operations).toContain('}, { hydraPrefix: true })')
  })

  it('the title and description of the documentation come from the platform file', async () => {
    const index =
      (await build('platform:\n  title: Shop\n  description: Things to buy')).files.get(
        'index.ts'
      ) ?? ''
    expect(index).toContain("title: documentation?.title ?? 'Shop',")
    expect(index).toContain("description: documentation?.description ?? 'Things to buy',")
  })
})
