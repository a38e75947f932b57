/**
 * What the rule hunters (example-app/test/rule-hunter.e2e.test.ts, rule-hunter-cache.e2e.test.ts)
 * ask of test/fixtures/rules and how they check an answer against the oracle's
 * (rule-oracle.ts): the requests of every road between books and loans, an answer's document and
 * bytes, its `ETag`, and an item or sub-collection the rules keep from the caller answered as a
 * missing row, headers and all.
 */
import { expect } from 'vitest'
import { createHydraApp } from '#fixtures/rules/hydra/index.js'
import type { PrismaClient } from '#fixtures/rules/prisma/client.js'
import { entityTagOf } from './rule-coverage.js'
import type { Expected, Searches } from './rule-oracle.js'
import { BOOKS, LOANS } from './rule-rows.js'

/** Each request in normal form (docs/paging.md): sorted parameters, encoded, the page last. */
const at = (path: string, ...params: Array<[string, string]>) =>
  params.length === 0
    ? path
    : `${path}?${params.map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`).join('&')}`

export const REQUESTS = [
  at('/books'),
  at('/books', ['page', '2']),
  at('/books', ['page', '3']),
  at('/books', ['itemsPerPage', '2'], ['page', '2']),
  at('/books', ['pagination', 'false']),
  at('/books', ['title', 'Atlas']),
  at('/books', ['loans.borrower', 'Reader 1']),
  at('/books', ['order[title]', 'desc']),
  at('/books', ['order[title]', 'asc'], ['page', '2']),
  at('/books', ['id[]', '/books/2'], ['id[]', '5'], ['id[]', '4']),
  at('/books', ['id', '3']),
  ...[...BOOKS.map((book) => book.id), 99].map((id) => `/books/${id}`),
  ...[...BOOKS.map((book) => book.id), 99].map((id) => `/books/${id}/loans`),
  at('/books/4/loans', ['itemsPerPage', '2'], ['page', '2']),
  at('/books/1/loans', ['borrower', 'Reader 2']),
  at('/books/4/loans', ['order[loanedAt]', 'desc']),
  at('/books/1/loans', ['exists[returnedAt]', 'false']),
  at('/loans'),
  at('/loans', ['page', '2']),
  at('/loans', ['page', '4']),
  at('/loans', ['pagination', 'false']),
  at('/loans', ['itemsPerPage', '5'], ['page', '2']),
  at('/loans', ['borrower', 'Reader 2']),
  at('/loans', ['book', '/books/1']),
  at('/loans', ['book', '4']),
  at('/loans', ['book.title', 'Atlas']),
  at('/loans', ['book.title', 'Bonsai'], ['borrower', 'Reader 1']),
  at('/loans', ['exists[returnedAt]', 'false']),
  at('/loans', ['order[loanedAt]', 'desc']),
  at('/loans', ['order[book.title]', 'asc'], ['page', '2']),
  at('/loans', ['id[]', '1'], ['id[]', '/loans/7'], ['id[]', '12']),
  ...[...LOANS.map((loan) => loan.id), 99].map((id) => `/loans/${id}`),
]

/**
 * The search templates of the API without rules, over `prisma`: the oracle takes from them what
 * rules hide.
 */
export async function searchesOf(prisma: PrismaClient): Promise<Searches> {
  const plain = createHydraApp({ prisma })
  const searchOf = async (path: string) =>
    ((await (await plain.request(path)).json()) as Record<string, unknown>)[
      'hydra:search'
    ] as Searches['books']
  return {
    books: await searchOf('/books'),
    loans: await searchOf('/loans'),
    bookLoans: await searchOf('/books/1/loans'),
  }
}

export interface Answer {
  status: number
  headers: Headers
  text: string
}

/** The answer to `path` for the caller of `token` (none: an anonymous caller). */
export async function ask(origin: string, path: string, token?: string): Promise<Answer> {
  const headers: Record<string, string> =
    token === undefined ? {} : { Authorization: `Bearer ${token}` }
  const response = await fetch(`${origin}${path}`, { headers })
  return { status: response.status, headers: response.headers, text: await response.text() }
}

/**
 * The headers of an answer that may differ between two answers of the same document (behind
 * Varnish, `x-varnish` holds each request's transaction ids and `age` how long it was kept).
 */
const TRANSIENT = new Set([
  'date',
  'content-length',
  'server-timing',
  'etag',
  'connection',
  'keep-alive',
  'x-varnish',
  'age',
])
const headersOf = (answer: Answer) =>
  [...answer.headers]
    .filter(([name]) => !TRANSIENT.has(name))
    .map(([name, value]) => `${name}: ${value}`)

/** Checks an answer's document and bytes against the oracle's, and its `ETag` against its bytes. */
export function expectDocument(answer: Answer, wanted: Expected, where: string): void {
  // The document first (a readable difference), then its bytes (the order of its keys).
  expect({ status: answer.status, body: JSON.parse(answer.text) }, where).toStrictEqual(wanted)
  expect(answer.text, where).toBe(JSON.stringify(wanted.body))
  const tag = answer.headers.get('etag')
  if (tag !== null) expect(tag, where).toBe(entityTagOf(answer.text, answer.headers))
}

/**
 * Checks that a row the rules keep from the caller (the 404 of `path`, an item or a
 * sub-collection's parent) is a missing row: the same answer as id 99's, headers included.
 */
export async function expectMissingTwin(
  request: { origin: string; path: string; token?: string | undefined },
  answer: Answer,
  where: string
): Promise<void> {
  const { origin, path, token } = request
  const id = /^\/(books|loans)\/(\d+)(\/loans)?$/.exec(path)
  if (answer.status !== 404 || !id || id[2] === '99') return
  const twin = await ask(origin, path.replace(`/${id[2]}`, '/99'), token)
  expect(twin.status, where).toBe(404)
  expect(twin.text.replaceAll('\\"99\\"', `\\"${id[2]}\\"`), where).toBe(answer.text)
  expect(headersOf(twin), where).toStrictEqual(headersOf(answer))
}
