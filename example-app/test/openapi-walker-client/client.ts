/**
 * Walks of the example API with openapi-fetch as its users write them: types generated from
 * `/openapi.json` by openapi-typescript (`schema.d.ts`, written beside a copy of this file by
 * openapi-walker.e2e.test.ts through test/support/openapi-typescript-client.ts) and the walker of
 * `@prisma-hydra/runtime/client` following the links of each page. The test type-checks the copy
 * with tsc, then runs it against the server: a member typed otherwise than openapi-typescript
 * types it fails the check, a wrong walk fails the test.
 */
import { openApiWalker, openApiWalkers } from '@prisma-hydra/runtime/client'
import createClient from 'openapi-fetch'
import type { components, paths } from './schema.js'

type Activity = components['schemas']['Activity']
type Book = components['schemas']['Book']
type Review = components['schemas']['Review']

/** Whether `X` and `Y` are the same type (not merely assignable either way). */
type Equal<X, Y> =
  (<T>() => T extends X ? 1 : 2) extends <T>() => T extends Y ? 1 : 2 ? true : false

/**
 * A book with the title and its author's name, as `properties[]` selects them: the author is its
 * IRI where the caller's rules keep it from the caller.
 */
type TitleAndAuthor = {
  '@id': string
  '@type': 'Book'
  title: string
  author: string | { '@id': string; '@type': 'Author'; name: string }
}

export interface WalkedWithOpenApi {
  /** The activity feed's IRIs, by `next` links (cursor paging). */
  activities: string[]
  /** The same feed from its last page by `previous` links, back to the first. */
  activitiesBack: string[]
  /** The reviews' IRIs (partial paging, keys without the prefix). */
  reviews: string[]
  /** The books of author 3 (a sub-collection, full paging), two to a page. */
  authorBooks: string[]
  /** The keys of the first book of `/books` asked with no parameter: every property. */
  wholeBook: string[]
  /** Every book as `properties[]=title&properties[author][]=name` shapes it. */
  selected: TitleAndAuthor[]
  /** What the selected books give of the fields not selected (the ISBN, the author's country). */
  unselected: unknown[]
}

export async function walkWithOpenApi(baseUrl: string): Promise<WalkedWithOpenApi> {
  const client = createClient<paths>({ baseUrl })
  const feed = openApiWalker((init) =>
    client.GET('/activities', { ...init, params: { query: { itemsPerPage: 50 } } })
  )
  const activities: string[] = []
  let last: string | undefined
  for await (const page of feed.pages()) {
    const members: Activity[] = page.members
    for (const activity of members) activities.push(activity['@id'])
    last = page.url
  }
  const activitiesBack: string[] = []
  for await (const activity of feed.members({ from: last, direction: 'previous' }))
    activitiesBack.push(activity['@id'])
  const reviews: string[] = []
  for await (const review of openApiWalker((init) => client.GET('/reviews', init)).members()) {
    const typed: Review = review
    reviews.push(typed['@id'])
  }
  const authorBooks: string[] = []
  const books = openApiWalkers(client.GET)('/authors/{id}/books', {
    params: { path: { id: 3 }, query: { itemsPerPage: 2 } },
  })
  for await (const book of books.members()) {
    // Nothing selected: the member as the document types it.
    const whole: Equal<typeof book, Book> = true
    if (whole) authorBooks.push(book['@id'])
  }
  // No parameter: openapi-fetch infers the route's own query type, which selects nothing.
  const [first] = (await openApiWalkers(client.GET)('/books').page(null)).members
  const unnarrowed: Equal<typeof first, Book | undefined> = true
  const wholeBook = unnarrowed ? Object.keys(first ?? {}) : []
  const shaped = openApiWalkers(client.GET)('/books', {
    params: {
      query: { 'properties[]': ['title'], 'properties[author][]': ['name'], itemsPerPage: 50 },
    },
  })
  const selected: TitleAndAuthor[] = []
  const unselected: unknown[] = []
  for await (const book of shaped.members()) {
    // The fields selected, required, the author's with the type its schema gives: exactly.
    const exact: Equal<typeof book, TitleAndAuthor> = true
    if (exact) selected.push(book)
    // @ts-expect-error: the ISBN was not selected
    unselected.push(book.isbn)
    const { author } = book
    if (typeof author !== 'string') {
      // @ts-expect-error: the author's country was not asked
      unselected.push(author.country)
    }
  }
  return { activities, activitiesBack, reviews, authorBooks, wholeBook, selected, unselected }
}
