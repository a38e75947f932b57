import { describe, expect, it } from 'vitest'
import { buildHydra } from '../src/generate.js'
import { formatProblem, GenerationError } from '../src/problems.js'
import { loadDatamodel } from './dmmf.js'

const BOOK_FIELDS = `
  id          Int      @id @default(autoincrement())
  title       String
  publishedAt DateTime
  data        Json?
  tags        String
`

async function problemsOf(models: string, platform?: string): Promise<string[]> {
  const datamodel = await loadDatamodel(models)
  try {
    const result = buildHydra({
      datamodel,
      provider: 'sqlite',
      clientModule: '../prisma/client.js',
      ...(platform ? { globalConfig: { text: platform, label: './platform.yaml' } } : {}),
    })
    return result.warnings.map(formatProblem)
  } catch (error) {
    if (!(error instanceof GenerationError)) throw error
    return error.problems.map(formatProblem)
  }
}

const book = (doc: string, fields = BOOK_FIELDS) =>
  `${doc
    .split('\n')
    .map((line) => `/// ${line}`)
    .join('\n')}\nmodel Book {${fields}}`

describe('annotation validation', () => {
  it.each([
    [
      'a typo in an option name suggests the right one',
      book('@pagination(itemsPerPag: 5)'),
      [
        'error: Model "Book", @pagination, option "itemsPerPag": unknown option. Did you mean "itemsPerPage"? Allowed: enabled, clientEnabled, itemsPerPage, clientItemsPerPage, maximumItemsPerPage, partial, clientPartial, viaCursor, totals, totalsCacheSeconds, clientTotals, engine, fetchJoinCollection, useOutputWalkers',
      ],
    ],
    [
      'a typo in a spec name suggests the spec name',
      book('@pagination(paginationItemsPerPag: 5)'),
      [
        'error: Model "Book", @pagination, option "paginationItemsPerPag": unknown option. Did you mean "paginationItemsPerPage"? Allowed: enabled, clientEnabled, itemsPerPage, clientItemsPerPage, maximumItemsPerPage, partial, clientPartial, viaCursor, totals, totalsCacheSeconds, clientTotals, engine, fetchJoinCollection, useOutputWalkers',
      ],
    ],
    [
      'annotations on a model without @pagination',
      book('@filter(search: { title: "partial" })\n@order(fields: ["title"])'),
      [
        'error: Model "Book", @filter(search: { title: "partial" }): the model is not exposed: add /// @pagination(...) (or a bare /// @pagination) to serve it',
      ],
    ],
    [
      'a typo in the annotation name',
      book('@paginaton(itemsPerPage: 5)'),
      ['error: Model "Book", @paginaton: unknown annotation. Did you mean "@pagination"?'],
    ],
    [
      'a wrong type',
      book('@pagination(itemsPerPage: "ten", partial: 1, enabled: yes)'),
      [
        'error: Model "Book", @pagination, option "itemsPerPage": must be a whole number of at least 1, got "ten"',
        'error: Model "Book", @pagination, option "partial": must be true or false, got 1',
        'error: Model "Book", @pagination, option "enabled": must be true or false, got "yes"',
      ],
    ],
    [
      'a negative or fractional page size',
      book('@pagination(itemsPerPage: -5, maximumItemsPerPage: 2.5)'),
      [
        'error: Model "Book", @pagination, option "itemsPerPage": must be a whole number of at least 1, got -5',
        'error: Model "Book", @pagination, option "maximumItemsPerPage": must be a whole number of at least 1, or null for no maximum, got 2.5',
      ],
    ],
    [
      'the same option under both names',
      book('@pagination(itemsPerPage: 5, paginationItemsPerPage: 6)'),
      [
        'error: Model "Book", @pagination, option "paginationItemsPerPage": sets the same option as "itemsPerPage"; keep one of them',
      ],
    ],
    [
      'a maximum below the page size',
      book('@pagination(itemsPerPage: 40, maximumItemsPerPage: 20)'),
      [
        'error: Model "Book", @pagination, option "maximumItemsPerPage": the maximum page size 20 (from @pagination) is below the page size 40 (from @pagination); raise maximumItemsPerPage to at least 40, or set it to null for no maximum',
      ],
    ],
    [
      'the built-in maximum below a page size clients may change',
      book('@pagination(itemsPerPage: 40, clientItemsPerPage: true)'),
      [
        'error: Model "Book", @pagination, option "maximumItemsPerPage": the maximum page size 30 (from the built-in default) is below the page size 40 (from @pagination); raise maximumItemsPerPage to at least 40, or set it to null for no maximum',
      ],
    ],
    [
      'a syntax error points at the column',
      book('@pagination(itemsPerPage 5)'),
      [
        "error: Model \"Book\", @pagination: cannot be read: expected ':' after 'itemsPerPage' (at column 26)",
      ],
    ],
    [
      'an operation without a name or path',
      book('@pagination\n@operation(path: "/books/recent")\n@operation(name: "recent")'),
      [
        'error: Model "Book", @operation(path: "/books/recent"), option "name": is required and must be an identifier (letters and digits, starting with a letter), got nothing',
        'error: Model "Book", @operation(name: "recent"), option "path": is required: the operation needs its own path, e.g. path: "/books/recent"',
      ],
    ],
    [
      'an operation ordered by a missing or unorderable field',
      book(
        '@pagination\n@operation(name: "recent", path: "/books/recent", order: { publishdAt: "desc", data: "asc", title: "up" })'
      ),
      [
        'error: Model "Book", @operation(name: "recent"), option "order": field "publishdAt" does not exist or is not a scalar field. Did you mean "publishedAt"? Fields: id, title, publishedAt, data, tags',
        'error: Model "Book", @operation(name: "recent"), option "order": field "data" (Json) cannot be ordered by; use a String, number, Boolean, DateTime or enum field',
        'error: Model "Book", @operation(name: "recent"), option "order": direction of "title" must be "asc" or "desc", got "up"',
      ],
    ],
    [
      'an operation with a bad path and an unknown option',
      book('@pagination\n@operation(name: "recent", path: "books/recent", itemsPerPge: 3)'),
      [
        'error: Model "Book", @operation, option "path": must be a path such as "/books" or "/books/recent" (segments of letters, digits and - _ . ~, no trailing slash), got "books/recent"',
        'error: Model "Book", @operation(name: "recent"), option "itemsPerPge": unknown option. Did you mean "itemsPerPage"? Allowed: name, path, order, hydraPrefix, cacheHeaders, enabled, clientEnabled, itemsPerPage, clientItemsPerPage, maximumItemsPerPage, partial, clientPartial, viaCursor, totals, totalsCacheSeconds, clientTotals, engine, fetchJoinCollection, useOutputWalkers',
      ],
    ],
    [
      'operations sharing a name or a path',
      book('@pagination\n@operation(name: "a", path: "/books")\n@operation(name: "a", path: "/x")'),
      [
        'error: Model "Book", @operation(name: "a"), option "name": "a" is already used by another operation of this model',
        'error: Model "Book", @operation(name: "a"), option "path": "/books" is already served by Book.collection; give each collection its own path',
      ],
    ],
    [
      '@operation or @resource without @pagination',
      book('@resource(path: "/library")'),
      [
        'error: Model "Book", @resource(path: "/library"): the model is not exposed: add /// @pagination(...) (or a bare /// @pagination) to serve it',
      ],
    ],
    [
      'an unknown @resource option',
      book('@pagination\n@resource(pth: "/library")'),
      [
        'error: Model "Book", @resource, option "pth": unknown option. Did you mean "path"? Allowed: path, order, iri, hydraPrefix, cacheHeaders',
      ],
    ],
    [
      'a cursor on a missing, optional, unorderable or repeated field',
      book(
        '@pagination(viaCursor: [{ field: "nope", direction: "DESC" }, { field: "data", direction: "ASC" }, { field: "note", direction: "ASC" }, { field: "title", direction: "ASC" }, { field: "title", direction: "DESC" }])',
        `${BOOK_FIELDS}  note        String?
`
      ),
      [
        'error: Model "Book", @pagination, option "viaCursor": field "nope" does not exist or is not a scalar field. Did you mean "note"? Fields: id, title, publishedAt, data, tags, note',
        'error: Model "Book", @pagination, option "viaCursor": field "data" (Json) cannot be ordered by; use a String, number, Boolean, DateTime or enum field',
        'error: Model "Book", @pagination, option "viaCursor": field "note" is optional; cursor fields must be required, as a null has no place in the key order',
        'error: Model "Book", @pagination, option "viaCursor": field "title" is listed more than once',
        'warning: Model "Book", @pagination, option "viaCursor": no index starts with the cursor key (title, id): add @@index([title, id]) to the model so each page seeks to its position instead of scanning to it',
      ],
    ],
    [
      'a cursor on a Boolean or an enum field',
      `enum Kind {\n  A\n  B\n}\n${book(
        '@pagination(viaCursor: [{ field: "flag", direction: "ASC" }, { field: "kind", direction: "ASC" }])',
        `${BOOK_FIELDS}  flag        Boolean\n  kind        Kind\n`
      )}`,
      [
        'error: Model "Book", @pagination, option "viaCursor": field "flag" (Boolean) cannot be a cursor field: Prisma cannot compare it with lt/gt; use a String, Int, BigInt, Float, Decimal or DateTime field',
        'error: Model "Book", @pagination, option "viaCursor": field "kind" (Kind) cannot be a cursor field: Prisma cannot compare it with lt/gt; use a String, Int, BigInt, Float, Decimal or DateTime field',
      ],
    ],
    [
      'a cursor with an order, and a cursor without a supporting index',
      book(
        '@pagination\n@operation(name: "feed", path: "/feed", order: { title: "asc" }, viaCursor: [{ field: "publishedAt", direction: "DESC" }])'
      ),
      [
        'error: Model "Book", @operation(name: "feed"), option "order": cannot be combined with viaCursor: a cursor-paged collection is ordered by its cursor fields',
        'warning: Model "Book", @operation(name: "feed"), option "viaCursor": no index starts with the cursor key (publishedAt, id): add @@index([publishedAt, id]) to the model so each page seeks to its position instead of scanning to it',
      ],
    ],
    [
      'a cursor on a unique field, or with its index, is fine',
      book(
        '@pagination(viaCursor: [{ field: "id", direction: "DESC" }])\n@operation(name: "feed", path: "/feed", viaCursor: [{ field: "publishedAt", direction: "desc" }])',
        `${BOOK_FIELDS}  @@index([publishedAt, id])
`
      ),
      [],
    ],
    [
      'a malformed cursor',
      book('@pagination(viaCursor: [{ field: "id", direction: "UP" }])'),
      [
        'error: Model "Book", @pagination, option "viaCursor": must be a list of { field: "<field>", direction: "ASC" | "DESC" }, got [{"field":"id","direction":"UP"}]',
      ],
    ],
    [
      'a composite primary key',
      '/// @pagination\nmodel Pair {\n  a Int\n  b Int\n  @@id([a, b])\n}',
      [],
    ],
    [
      'a relation filter to a composite key',
      '/// @pagination\nmodel Pair {\n  a Int\n  b Int\n  notes Note[]\n  @@id([a, b])\n}\n/// @pagination\n/// @filter(search: { pair: "exact" })\nmodel Note {\n  id Int @id\n  pairA Int\n  pairB Int\n  pair Pair @relation(fields: [pairA, pairB], references: [a, b])\n}',
      [],
    ],
    [
      'several composite-keyed items by IRI or key (id[])',
      '/// @pagination\n/// @filter(search: { id: "exact" })\nmodel Pair {\n  a Int\n  b Int\n  @@id([a, b])\n}',
      [],
    ],
    [
      'a composite key searched otherwise than exactly',
      '/// @pagination\n/// @filter(search: { id: "partial" })\nmodel Pair {\n  a Int\n  b Int\n  @@id([a, b])\n}',
      [
        'error: Model "Pair", @filter, option "search": field "id" names the composite key of the items (a, b): it takes "exact" only, by IRI or key, got "partial"',
      ],
    ],
    [
      'id on a model whose one-field key has another name',
      '/// @pagination\n/// @filter(search: { id: "exact" })\nmodel Tag {\n  code String @id\n}',
      [
        'error: Model "Tag", @filter, option "search": field "id" does not exist or is not a scalar field. Fields: code',
      ],
    ],
    [
      'a filter through a relation to a composite key, by its fields',
      '/// @pagination\nmodel Pair {\n  a Int\n  b Int\n  notes Note[]\n  @@id([a, b])\n}\n/// @pagination\n/// @filter(search: { "pair.a": "exact", "pair.b": "exact" })\nmodel Note {\n  id Int @id\n  pairA Int\n  pairB Int\n  pair Pair @relation(fields: [pairA, pairB], references: [a, b])\n}',
      [],
    ],
    [
      'exists on optional Json and Bytes fields',
      '/// @pagination\n/// @filter(exists: [payload, secret])\nmodel Log {\n  id Int @id\n  payload Json?\n  secret Bytes?\n}',
      [],
    ],
    [
      'another filter on a Json field',
      '/// @pagination\n/// @filter(search: { payload: "exact" })\nmodel Log {\n  id Int @id\n  payload Json?\n}',
      [
        'error: Model "Log", @filter, option "search": field "payload" (Json) cannot be filtered but by exists',
      ],
    ],
    [
      'a model keyed by a composite @@unique only',
      '/// @pagination\nmodel Token {\n  value String? @unique\n  a Int\n  b Int\n  @@unique([a, b])\n}',
      [],
    ],
    [
      'a view whose only composite @@unique holds an optional field',
      'generator client {\n  provider = "prisma-client-js"\n  previewFeatures = ["views"]\n}\n/// @pagination\nview Token {\n  value String? @unique\n  a Int\n  b Int?\n  @@unique([a, b])\n}',
      [
        'error: Model "Token", @pagination: has no @id and no unique key of required fields: its unique keys (value @unique, @@unique([a, b])) hold optional fields, and a unique index lets nulls repeat, so no IRI could name one row: add an @id or @@id, or make the fields of a unique key required',
      ],
    ],
    [
      'a model keyed by a required @unique (no @id)',
      '/// @pagination\nmodel Token {\n  note String?\n  value String @unique\n}',
      [],
    ],
    [
      '@hidden with options, and a model annotation on a field',
      '/// @pagination\nmodel Book {\n  id Int @id\n  /// @hidden(reason: "x")\n  secret String\n  /// @pagination\n  other String\n}',
      [
        'error: Model "Book", field "secret", @hidden: takes no options; write /// @hidden',
        'error: Model "Book", field "other", @pagination: is not allowed here; allowed: @hidden, @property',
      ],
    ],
    [
      'a warning for options with no effect',
      book('@pagination(fetchJoinCollection: true)'),
      [
        'warning: Model "Book", @pagination, option "fetchJoinCollection": has no effect with Prisma: the count query counts rows of the model itself, so joined collections never inflate it',
      ],
    ],
    [
      'a warning for no maximum with client page size',
      book('@pagination(clientItemsPerPage: true, maximumItemsPerPage: null)'),
      [
        'warning: Model "Book", @pagination, option "maximumItemsPerPage": is null while clients may set the page size: a client can ask for every row at once',
      ],
    ],
    [
      'type and property IRIs must be absolute IRIs',
      book(
        '@pagination\n@resource(iri: "Book")',
        `
  id    Int    @id
  /// @property(iri: "https://schema.org/name")
  title String
  /// @property(iri: 42)
  isbn  String
  /// @property(ir: "https://schema.org/isbn")
  code  String
`
      ),
      [
        'error: Model "Book", field "isbn", @property, option "iri": must be an absolute IRI such as "https://schema.org/Book" (or a urn:), got 42',
        'error: Model "Book", field "code", @property, option "ir": unknown option. Did you mean "iri"? Allowed: iri, name, embed, first, operations',
        'error: Model "Book", @resource, option "iri": must be an absolute IRI such as "https://schema.org/Book" (or a urn:), got "Book"',
      ],
    ],
    [
      'hydraPrefix must be a boolean, on the resource and on operations',
      book(
        '@pagination\n@resource(hydraPrefix: "no")\n@operation(name: "recent", path: "/books/recent", hydraPrefix: 0)'
      ),
      [
        'error: Model "Book", @resource, option "hydraPrefix": must be true or false, got "no"',
        'error: Model "Book", @operation(name: "recent"), option "hydraPrefix": must be true or false, got 0',
      ],
    ],
    [
      'without the prefix, field names cannot be Hydra terms',
      book(
        '@pagination\n@operation(name: "steps", path: "/books/steps", hydraPrefix: false)',
        `
  id    Int    @id
  next  Int
  /// @hidden
  view  String
  member String
`
      ),
      [
        'error: Model "Book", @operation(name: "steps"), option "hydraPrefix": is false, but field "next" has the name of a Hydra term (member, totalItems, view, Collection, PartialCollectionView, first, last, previous, next, search); keep the prefix, hide the field (@hidden) or rename it (@map keeps the column)',
        'error: Model "Book", @operation(name: "steps"), option "hydraPrefix": is false, but field "member" has the name of a Hydra term (member, totalItems, view, Collection, PartialCollectionView, first, last, previous, next, search); keep the prefix, hide the field (@hidden) or rename it (@map keeps the column)',
      ],
    ],
    [
      'a compact IRI is refused: a context would read it as prefix and suffix',
      book('@pagination\n@resource(iri: "schema:Book")'),
      [
        'error: Model "Book", @resource, option "iri": must be an absolute IRI such as "https://schema.org/Book" (or a urn:), got "schema:Book"',
      ],
    ],
    [
      'a field named hydra, a model named Entrypoint, a path of the API itself',
      `/// @pagination\n/// @resource(path: "/docs.jsonld")\nmodel Entrypoint {\n  id Int @id\n  hydra String\n}`,
      [
        'error: Model "Entrypoint", @pagination: field "hydra" cannot be shown: "hydra" is the prefix of Hydra\'s vocabulary in the context; hide the field (@hidden) or rename it (@map keeps the column)',
        'error: Model "Entrypoint", @pagination: the model\'s name "Entrypoint" is the name of the API\'s entrypoint (/contexts/Entrypoint); rename the model (@@map keeps the table)',
        'error: Model "Entrypoint", @resource, option "path": "/docs.jsonld" belongs to the API itself (/docs.jsonld, /docs, /openapi.json, /contexts/..., /errors/...); choose another path',
      ],
    ],
    [
      'the paths of the OpenAPI document and its page',
      `/// @pagination\nmodel Doc {\n  id Int @id\n}\n/// @pagination\n/// @resource(path: "/openapi.json")\nmodel Spec {\n  id Int @id\n}`,
      [
        'error: Model "Doc", @resource, option "path": "/docs" belongs to the API itself (/docs.jsonld, /docs, /openapi.json, /contexts/..., /errors/...); choose another path',
        'error: Model "Spec", @resource, option "path": "/openapi.json" belongs to the API itself (/docs.jsonld, /docs, /openapi.json, /contexts/..., /errors/...); choose another path',
      ],
    ],
    [
      'two collections the entrypoint would list under one key',
      `${book('@pagination\n@operation(name: "recent", path: "/books/recent")')}\n/// @pagination\nmodel BookRecent {\n  id Int @id\n}`,
      [
        'error: Model "BookRecent", @pagination, option "name": the entrypoint would list it as "bookRecent", which is already Book.recent; rename the operation',
      ],
    ],
    [
      'with the prefix, such field names are fine',
      book('@pagination', '\n  id Int @id\n  next Int\n  member String\n'),
      [],
    ],
    [
      "other generators' annotations are left alone",
      book('@zod.custom.use(z.string().min(3))\n@pagination'),
      [],
    ],
  ])('%s', async (_, models, expected) => {
    expect(await problemsOf(models)).toEqual(expected)
  })

  it('counts errors and warnings apart in the header', async () => {
    const datamodel = await loadDatamodel(
      book('@pagination(itemsPerPag: 5)\n@order(fields: [title, tags])')
    )
    const build = () =>
      buildHydra({ datamodel, provider: 'sqlite', clientModule: '../prisma/client.js' })
    expect(build).toThrow(GenerationError)
    expect(build).toThrow(
      /^prisma-hydra found 1 error and 2 warnings in the schema:\n {2}- error: /
    )
    const only = await loadDatamodel(
      `${book('@pagination(itemsPerPag: 5, partial: 1)')}\n/// @pagination(enabled: 2)\nmodel Review {\n  id Int @id\n}`
    )
    expect(() =>
      buildHydra({ datamodel: only, provider: 'sqlite', clientModule: '../prisma/client.js' })
    ).toThrow(/^prisma-hydra found 3 errors in the schema:\n/)
  })

  it('reports problems of every model at once', async () => {
    const problems = await problemsOf(
      `${book('@pagination(itemsPerPag: 5)')}\n/// @pagination(partial: "yes")\nmodel Review {\n  id Int @id\n}`
    )
    expect(problems).toHaveLength(2)
    expect(problems[0]).toContain('Model "Book"')
    expect(problems[1]).toContain('Model "Review"')
  })
})

describe("the property filter's parameter is no other parameter's", () => {
  const PAPER = `
  id         Int      @id
  properties String
  pages      Int
  takenAt    DateTime
  available  Boolean
`
  const fix =
    'one parameter would mean two things; give the property filter a parameter of its own with properties: { parameterName: "..." }'
  const clash = (source: string, what: string) =>
    `error: Model "Book", ${source}, option "properties": the property filter's parameter ${what}: ${fix}`
  it.each([
    [
      'an exact search on a field of that name',
      '@pagination\n@filter(search: { properties: "exact" }, properties: true)',
      clash(
        '@filter',
        '"properties" is also the parameter of the search filter on field "properties" (properties=…, properties[]=…)'
      ),
    ],
    [
      "the item key's search (id[])",
      '@pagination\n@filter(search: { id: "exact" }, properties: { parameterName: "id" })',
      clash(
        '@filter',
        '"id" is also the parameter of the search filter on field "id" (id=…, id[]=…)'
      ),
    ],
    [
      'a range filter',
      '@pagination\n@filter(range: [pages], properties: { parameterName: "pages" })',
      clash(
        '@filter',
        '"pages" is also the parameter of the range filter on field "pages" (pages[gte]=…, pages[between]=…)'
      ),
    ],
    [
      'a date filter',
      '@pagination\n@filter(date: [takenAt], properties: { parameterName: "takenAt" })',
      clash(
        '@filter',
        '"takenAt" is also the parameter of the date filter on field "takenAt" (takenAt[before]=…, takenAt[after]=…)'
      ),
    ],
    [
      'a boolean filter',
      '@pagination\n@filter(boolean: [available], properties: { parameterName: "available" })',
      clash(
        '@filter',
        '"available" is also the parameter of the boolean filter on field "available" (available=…)'
      ),
    ],
    [
      'a numeric filter of an operation of its own',
      '@pagination\n@operation(name: "thick", path: "/books/thick")\n@filter(operation: "thick", numeric: [pages], properties: { parameterName: "pages" })',
      clash(
        '@filter (operation "thick")',
        '"pages" is also the parameter of the numeric filter on field "pages" (pages=…, pages[]=…)'
      ),
    ],
    [
      'the order parameter',
      '@pagination\n@order(fields: [pages])\n@filter(properties: { parameterName: "order" })',
      clash('@filter', '"order" is also the order parameter (order[field]=asc)'),
    ],
    [
      'the exists parameter',
      '@pagination\n@filter(properties: { parameterName: "exists" })',
      clash('@filter', '"exists" is also the exists parameter (exists[field]=true)'),
    ],
    [
      'the page number',
      '@pagination\n@filter(properties: { parameterName: "page" })',
      clash('@filter', '"page" is also the parameter of the page number (page=…)'),
    ],
    [
      'the page size',
      '@pagination\n@filter(properties: { parameterName: "itemsPerPage" })',
      clash('@filter', '"itemsPerPage" is also the parameter of the page size (itemsPerPage=…)'),
    ],
    [
      'the paging switch',
      '@pagination\n@filter(properties: { parameterName: "pagination" })',
      clash('@filter', '"pagination" is also the parameter of the paging switch (pagination=…)'),
    ],
    [
      'the partial paging switch',
      '@pagination\n@filter(properties: { parameterName: "partial" })',
      clash('@filter', '"partial" is also the parameter of the partial paging switch (partial=…)'),
    ],
    [
      "a cursor position on the cursor's field",
      '@pagination(viaCursor: [{ field: "takenAt", direction: "DESC" }])\n@filter(properties: { parameterName: "takenAt" })',
      clash(
        '@filter',
        '"takenAt" is also a cursor position of the cursor-paged operation "collection" (takenAt[lt]=…, takenAt[gt]=…)'
      ),
    ],
    [
      'a cursor position on the key, the tie-breaker of every cursor',
      '@pagination(viaCursor: [{ field: "takenAt", direction: "DESC" }])\n@filter(properties: { parameterName: "id" })',
      clash(
        '@filter',
        '"id" is also a cursor position of the cursor-paged operation "collection" (id[lt]=…, id[gt]=…)'
      ),
    ],
  ])('refuses %s', async (_, annotations, expected) => {
    const problems = await problemsOf(book(annotations, PAPER))
    expect(problems.filter((problem) => problem.startsWith('error'))).toEqual([expected])
  })

  it("reports a model's declaration once, whatever the operations that take it", async () => {
    const problems = await problemsOf(
      book(
        '@pagination\n@operation(name: "recent", path: "/books/recent")\n@filter(search: { properties: "exact" }, properties: true)',
        PAPER
      )
    )
    expect(problems).toEqual([
      clash(
        '@filter',
        '"properties" is also the parameter of the search filter on field "properties" (properties=…, properties[]=…)'
      ),
    ])
  })

  it('takes the renamed paging parameters and the names they leave free', async () => {
    const platform = 'platform:\n  collection:\n    pagination:\n      page_parameter_name: p\n'
    expect(
      await problemsOf(
        book('@pagination\n@filter(properties: { parameterName: "p" })', PAPER),
        platform
      )
    ).toEqual([clash('@filter', '"p" is also the parameter of the page number (p=…)')])
    expect(
      await problemsOf(
        book('@pagination\n@filter(properties: { parameterName: "page" })', PAPER),
        platform
      )
    ).toEqual([])
  })
})

describe('on a cursor-paged operation, a filter reading a position names the fix', () => {
  const RECENT =
    '@operation(name: "recent", path: "/books/recent", viaCursor: [{ field: "publishedAt", direction: "DESC" }])'
  const reads = (field: string, kind: string, why: string, operation = 'recent') =>
    `field "${field}" can be part of the cursor key of "${operation}" (${why}), whose positions are "${field}[lt]=…"/"${field}[gt]=…": a ${kind} filter there would make one parameter mean two things`
  it.each([
    [
      "the model's search on a field of the operation's cursor",
      `@pagination\n@operation(name: "byTitle", path: "/books/by-title", viaCursor: [{ field: "title", direction: "ASC" }])\n@filter(search: { title: "partial" })`,
      `error: Model "Book", @filter, option "search": ${reads('title', 'search', 'a field of its cursor', 'byTitle')}; drop it from @filter, or give "byTitle" filters of its own without it: @filter(operation: "byTitle", ...)`,
    ],
    [
      "the operation's own search on a date of its cursor",
      `@pagination\n${RECENT}\n@filter(operation: "recent", search: { publishedAt: "exact" })`,
      `error: Model "Book", @filter (operation "recent"), option "search": ${reads('publishedAt', 'search', 'a field of its cursor')}; drop it from @filter(operation: "recent", ...), or filter it by date (date: [publishedAt]), whose operators are no positions`,
    ],
    [
      "the model's search on the key",
      `@pagination\n${RECENT}\n@filter(search: { id: "exact" })`,
      `error: Model "Book", @filter, option "search": ${reads('id', 'search', "the model's key, which ends every keyset")}; drop it from @filter, or give "recent" filters of its own without it: @filter(operation: "recent", ...)`,
    ],
    [
      "the model's search on a field of the model's @order",
      `@pagination\n${RECENT}\n@filter(search: { tags: "exact" })\n@order(fields: [tags])`,
      `error: Model "Book", @filter, option "search": ${reads('tags', 'search', "a field of its model's @order, which a client order makes its keyset")}; drop it from @filter, or give "recent" filters of its own without it: @filter(operation: "recent", ...), or give "recent" an order of its own without it: @order(operation: "recent", fields: [...])`,
    ],
    [
      "the model's search on a field of the operation's own @order",
      `@pagination\n${RECENT}\n@filter(search: { tags: "exact" })\n@order(operation: "recent", fields: [tags])`,
      `error: Model "Book", @filter, option "search": ${reads('tags', 'search', 'a field of its own @order, which a client order makes its keyset')}; drop it from @filter, or give "recent" filters of its own without it: @filter(operation: "recent", ...), or drop it from @order(operation: "recent", ...)`,
    ],
  ])('%s', async (_, annotations, expected) => {
    const problems = await problemsOf(book(annotations))
    expect(problems.filter((problem) => problem.startsWith('error'))).toEqual([expected])
  })
})

describe('platform config validation', () => {
  const model = book('@pagination')
  it.each([
    [
      'not YAML',
      'platform: [',
      [
        expect.stringMatching(
          /^error: platform config \(\.\/platform\.yaml\), file: is not valid YAML or JSON: /
        ),
      ],
    ],
    [
      'no platform root',
      'defaults: {}',
      [
        'error: platform config (./platform.yaml), file: the root key must be "platform", holding "defaults", "collection", "serializer", "title" or "description"',
      ],
    ],
    [
      'unknown keys with suggestions',
      'platform:\n  default:\n    x: 1\n  collection:\n    pagination:\n      page_parameter: p',
      [
        'error: platform config (./platform.yaml), platform, option "default": unknown key. Did you mean "defaults"? Allowed: title, description, defaults, collection, serializer',
        'error: platform config (./platform.yaml), platform.collection.pagination, option "page_parameter": unknown key. Did you mean "page_parameter_name"? Allowed: page_parameter_name, enabled_parameter_name, items_per_page_parameter_name, partial_parameter_name',
      ],
    ],
    [
      'a name cut short with a slip',
      'platform:\n  defaults:\n    pagination_itemz: 5',
      [
        'error: platform config (./platform.yaml), platform.defaults, option "pagination_itemz": unknown key. Did you mean "pagination_items_per_page"? Allowed: pagination_enabled, pagination_client_enabled, pagination_items_per_page, pagination_client_items_per_page, pagination_maximum_items_per_page, pagination_partial, pagination_client_partial, pagination_totals, pagination_totals_cache_seconds, pagination_client_totals, engine, cache_headers',
      ],
    ],
    [
      'bad values',
      'platform:\n  defaults:\n    pagination_items_per_page: 0\n    pagination_partial: "no"\n    pagination_itemsperpage: 3',
      [
        'error: platform config (./platform.yaml), platform.defaults, option "pagination_itemsperpage": unknown key. Did you mean "pagination_items_per_page"? Allowed: pagination_enabled, pagination_client_enabled, pagination_items_per_page, pagination_client_items_per_page, pagination_maximum_items_per_page, pagination_partial, pagination_client_partial, pagination_totals, pagination_totals_cache_seconds, pagination_client_totals, engine, cache_headers',
        'error: platform config (./platform.yaml), platform.defaults, option "pagination_items_per_page": must be a whole number of at least 1, got 0',
        'error: platform config (./platform.yaml), platform.defaults, option "pagination_partial": must be true or false, got "no"',
      ],
    ],
    [
      'bad and clashing parameter names',
      'platform:\n  collection:\n    pagination:\n      page_parameter_name: "p[]"\n      partial_parameter_name: pagination',
      [
        'error: platform config (./platform.yaml), platform.collection.pagination, option "page_parameter_name": must be a non-empty name made of letters, digits and - _ . ~ (no brackets, spaces, & or =), got "p[]"',
        'error: platform config (./platform.yaml), platform.collection.pagination, option "partial_parameter_name": "pagination" is already the name of enabled_parameter_name; each parameter needs its own name',
      ],
    ],
    [
      'serializer, title and description',
      'platform:\n  title: ""\n  description: 3\n  serializer:\n    hydra_prefix: "false"\n    hydra_prefixes: true',
      [
        'error: platform config (./platform.yaml), platform, option "title": must be a non-empty string, got ""',
        'error: platform config (./platform.yaml), platform, option "description": must be a non-empty string, got 3',
        'error: platform config (./platform.yaml), platform.serializer, option "hydra_prefixes": unknown key. Did you mean "hydra_prefix"? Allowed: hydra_prefix',
        'error: platform config (./platform.yaml), platform.serializer, option "hydra_prefix": must be true or false, got "false"',
      ],
    ],
    [
      'a global maximum below the global page size',
      '{"platform": {"defaults": {"pagination_items_per_page": 50, "pagination_maximum_items_per_page": 20}}}',
      [
        'error: Model "Book", @pagination, option "maximumItemsPerPage": the maximum page size 20 (from platform.defaults) is below the page size 50 (from platform.defaults); raise maximumItemsPerPage to at least 50, or set it to null for no maximum',
      ],
    ],
    [
      'platform that is not a mapping',
      'platform: 3',
      [
        'error: platform config (./platform.yaml), file: the root key must be "platform", holding "defaults", "collection", "serializer", "title" or "description"',
      ],
    ],
    [
      'sections that are not mappings',
      'platform:\n  defaults: 3\n  collection: [pagination]\n  serializer: true',
      [
        'error: platform config (./platform.yaml), platform.defaults: must be a mapping of option names to values',
        'error: platform config (./platform.yaml), platform.collection: must be a mapping holding "pagination", "order_parameter_name" or "exists_parameter_name"',
        'error: platform config (./platform.yaml), platform.serializer: must be a mapping holding "hydra_prefix"',
      ],
    ],
    [
      'a pagination section that is not a mapping',
      'platform:\n  collection:\n    pagination: page',
      [
        'error: platform config (./platform.yaml), platform.collection.pagination: must be a mapping of parameter names',
      ],
    ],
    [
      'a name clashing with a default the file does not change',
      'platform:\n  collection:\n    pagination:\n      page_parameter_name: pagination',
      [
        'error: platform config (./platform.yaml), platform.collection.pagination, option "enabled_parameter_name": "pagination" is already the name of page_parameter_name; each parameter needs its own name',
      ],
    ],
    [
      'a blank title and a maximum that is not a number',
      'platform:\n  title: "  "\n  defaults:\n    pagination_maximum_items_per_page: many',
      [
        'error: platform config (./platform.yaml), platform, option "title": must be a non-empty string, got "  "',
        'error: platform config (./platform.yaml), platform.defaults, option "pagination_maximum_items_per_page": must be a whole number of at least 1, or null for no maximum, got "many"',
      ],
    ],
    [
      'the valid part of a file with problems still applies',
      'platform:\n  defaults:\n    pagination_items_per_page: 50\n    pagination_maximum_items_per_page: 20\n    pagination_parial: true',
      [
        'error: platform config (./platform.yaml), platform.defaults, option "pagination_parial": unknown key. Did you mean "pagination_partial"? Allowed: pagination_enabled, pagination_client_enabled, pagination_items_per_page, pagination_client_items_per_page, pagination_maximum_items_per_page, pagination_partial, pagination_client_partial, pagination_totals, pagination_totals_cache_seconds, pagination_client_totals, engine, cache_headers',
        'error: Model "Book", @pagination, option "maximumItemsPerPage": the maximum page size 20 (from platform.defaults) is below the page size 50 (from platform.defaults); raise maximumItemsPerPage to at least 50, or set it to null for no maximum',
      ],
    ],
  ])('%s', async (_, platform, expected) => {
    expect(await problemsOf(model, platform)).toEqual(expected)
  })

  it('a file of comments only is a missing platform root', async () => {
    expect(await problemsOf(model, '# settings to come\n')).toEqual([
      'error: platform config (./platform.yaml), file: the root key must be "platform", holding "defaults", "collection", "serializer", "title" or "description"',
    ])
  })

  it('reads every setting of a valid file', async () => {
    const datamodel = await loadDatamodel(model)
    const text = [
      'platform:',
      '  title: Library',
      '  description: Books',
      '  serializer: { hydra_prefix: false }',
      '  defaults: { pagination_items_per_page: 7, pagination_maximum_items_per_page: null }',
      '  collection: { pagination: { page_parameter_name: p, partial_parameter_name: part } }',
    ].join('\n')
    const { model: built, warnings } = buildHydra({
      datamodel,
      provider: 'sqlite',
      clientModule: '../prisma/client.js',
      globalConfig: { text, label: './platform.yaml' },
    })
    expect(built.title).toBe('Library')
    expect(built.description).toBe('Books')
    expect(built.hydraPrefix).toBe(false)
    expect(built.parameters).toEqual({
      page: 'p',
      enabled: 'pagination',
      itemsPerPage: 'itemsPerPage',
      partial: 'part',
    })
    const paging = built.resources[0]?.operations[0]?.paging
    expect(paging?.itemsPerPage).toBe(7)
    expect(paging?.maximumItemsPerPage).toBeNull()
    expect(warnings).toEqual([])
  })
})
