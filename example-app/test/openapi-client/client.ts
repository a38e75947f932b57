/**
 * A client of the example API as its users write one: types generated from `/openapi.json` by
 * openapi-typescript (`schema.d.ts`, written beside a copy of this file by openapi.e2e.test.ts
 * through test/support/openapi-typescript-client.ts) and openapi-fetch. The test type-checks the
 * copy with tsc, then runs it against the server: a wrong name or type below fails the check, a
 * wrong answer fails the test.
 */
import createClient from 'openapi-fetch'
import type { components, paths } from './schema.js'

type Book = components['schemas']['Book']
type Problem = components['schemas']['Problem']

export interface ClientReads {
  /** A collection offering the property filter may leave any field out: every field is optional. */
  titles: Array<string | undefined>
  total: number | undefined
  next: string | undefined
  prices: Array<string | undefined>
  /** The name of the first book's author, embedded through `properties[author][]=name`. */
  embeddedAuthor: string | undefined
  genres: Book['genre'][]
  authorName: string
  reviewsOfBook: number
  problem: Problem
  missing: Problem
}

export async function readWithClient(baseUrl: string): Promise<ClientReads> {
  const client = createClient<paths>({ baseUrl })
  // A page in a client order, at a client page size: typed members.
  const page = await client.GET('/books', {
    params: { query: { 'order[title]': 'desc', itemsPerPage: 3, page: 2 } },
  })
  if (!page.data) throw new Error(`GET /books: ${page.response.status}`)
  const members: Book[] = page.data['hydra:member']
  const total: number | undefined = page.data['hydra:totalItems']
  const next: string | undefined = page.data['hydra:view']?.['hydra:next']
  // Filters in API Platform's bracket style: a range, a list of exact values.
  const filtered = await client.GET('/books', {
    params: { query: { 'price[gte]': '40', 'genre[]': ['POETRY', 'HISTORY'] } },
  })
  if (!filtered.data) throw new Error(`GET /books (filtered): ${filtered.response.status}`)
  const item = await client.GET('/authors/{id}', { params: { path: { id: 2 } } })
  if (!item.data) throw new Error(`GET /authors/2: ${item.response.status}`)
  const name: string = item.data.name
  const reviews = await client.GET('/books/{id}/reviews', { params: { path: { id: 1 } } })
  if (!reviews.data) throw new Error(`GET /books/1/reviews: ${reviews.response.status}`)
  // Errors are typed as problems.
  const refused = await client.GET('/books', { params: { query: { page: 0 } } })
  if (!refused.error) throw new Error('GET /books?page=0 was not refused')
  const problem: Problem = refused.error
  const absent = await client.GET('/books/{id}', { params: { path: { id: 999999 } } })
  if (!absent.error) throw new Error('GET /books/999999 was found')
  // A selection: the author, typed as its IRI or the embedded item (docs/member-shape.md).
  const shaped = await client.GET('/books', {
    params: { query: { 'properties[]': ['title'], 'properties[author][]': ['name'] } },
  })
  const author = shaped.data?.['hydra:member'][0]?.author
  const embeddedAuthor = typeof author === 'object' && author !== null ? author.name : undefined
  // @ts-expect-error: a parameter the operation does not declare is not accepted.
  await client.GET('/books', { params: { query: { 'order[isbn]': 'asc' } } })
  return {
    titles: members.map((book) => book.title),
    total,
    next,
    prices: filtered.data['hydra:member'].map((book) => book.price),
    embeddedAuthor,
    genres: filtered.data['hydra:member'].map((book) => book.genre),
    authorName: name,
    reviewsOfBook: reviews.data.member.length,
    problem,
    missing: absent.error,
  }
}
