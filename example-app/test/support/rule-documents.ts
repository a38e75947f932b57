/**
 * The documents the rule hunter's oracle writes (example-app/test/rule-hunter.e2e.test.ts): the
 * members, items and embeds of test/fixtures/rules as a caller must receive them under a rule set
 * (rule-reading.ts), collections with their view by docs/paging.md ("The view and its links"),
 * their `hydra:search` as the rule-free API writes it less what the rules hide, and problems.
 */

import type { RuleReading } from './rule-reading.js'
import { BOOKS, type BookRow, LOANS, type LoanRow } from './rule-rows.js'

export type Json = Record<string, unknown>

const TITLES: Record<number, string> = {
  400: 'An error occurred',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
}

/** A problem document, as the error handler writes it. */
function problem(status: number, detail: string): Json {
  const title = TITLES[status]
  return {
    '@context': '/contexts/Error',
    '@id': `/errors/${status}`,
    '@type': 'hydra:Error',
    type: `/errors/${status}`,
    title,
    detail,
    status,
    'hydra:title': title,
    'hydra:description': detail,
  }
}

/** A guard's refusal of a read. */
export const refused = (status: number) =>
  problem(
    status,
    status === 401
      ? 'Authentication is required to read this resource.'
      : 'The caller may not read this resource.'
  )

/** The 404 of an item (or a sub-collection's parent) no row has. */
export const missing = (model: string, id: string) => problem(404, `No ${model} with id "${id}".`)

const iso = (date: Date | null) => date?.toISOString() ?? null

/** A book as a loan embeds it: its IRI where the caller may not see it. */
function embeddedBook(reading: RuleReading, id: number): Json | string {
  const book = BOOKS[id - 1] as BookRow
  if (!reading.reaches('Book', book)) return `/books/${id}`
  const hidden = reading.hidden('Book')
  const embedded: Json = { '@id': `/books/${id}`, '@type': 'Book' }
  if (!hidden.has('title')) embedded.title = book.title
  if (!hidden.has('isbn')) embedded.isbn = book.isbn
  return embedded
}

/**
 * A book's first two loans as it embeds them: its sub-collection's IRI where that is not read, or
 * where the caller's scope of books' items does not hold the book (the sub-collection's 404).
 */
function firstPage(reading: RuleReading, book: BookRow): Json | string {
  const iri = `/books/${book.id}/loans`
  if (!reading.firstPageRead() || !reading.sees('Book', 'item', book)) return iri
  const hidden = reading.hidden('Loan')
  const loans = LOANS.filter(
    (loan) => loan.bookId === book.id && reading.sees('Loan', 'collection', loan)
  )
  const page: Json = {
    '@id': iri,
    '@type': 'hydra:Collection',
    'hydra:member': loans.slice(0, 2).map((loan) => {
      const member: Json = {
        '@id': `/loans/${loan.id}`,
        '@type': 'Loan',
      }
      if (!hidden.has('borrower')) member.borrower = loan.borrower
      if (!hidden.has('returnedAt')) member.returnedAt = iso(loan.returnedAt)
      return member
    }),
  }
  // The view names the sub-collection's page of those two (loans let clients choose the size).
  const shown = `${iri}?itemsPerPage=2&page=1`
  if (loans.length > 2)
    page['hydra:view'] = {
      '@id': shown,
      '@type': 'hydra:PartialCollectionView',
      'hydra:first': shown,
      'hydra:next': `${iri}?itemsPerPage=2&page=2`,
    }
  return page
}

/** A loan as a member (an item with `@context` first), its book embedded as declared. */
export function loanMember(reading: RuleReading, loan: LoanRow, item = false): Json {
  const hidden = reading.hidden('Loan')
  const member: Json = item ? { '@context': '/contexts/Loan' } : {}
  Object.assign(member, { '@id': `/loans/${loan.id}`, '@type': 'Loan', id: loan.id })
  if (!hidden.has('borrower')) member.borrower = loan.borrower
  if (!hidden.has('loanedAt')) member.loanedAt = iso(loan.loanedAt)
  if (!hidden.has('returnedAt')) member.returnedAt = iso(loan.returnedAt)
  if (!hidden.has('book')) member.book = embeddedBook(reading, loan.bookId)
  return member
}

/** A book as a member (an item with `@context` first), its first loans embedded as declared. */
export function bookMember(reading: RuleReading, book: BookRow, item = false): Json {
  const hidden = reading.hidden('Book')
  const member: Json = item ? { '@context': '/contexts/Book' } : {}
  Object.assign(member, { '@id': `/books/${book.id}`, '@type': 'Book', id: book.id })
  if (!hidden.has('title')) member.title = book.title
  if (!hidden.has('isbn')) member.isbn = book.isbn
  if (!hidden.has('loans')) member.loans = firstPage(reading, book)
  return member
}

/** A route's `hydra:search` without the variables of `blocked`. */
export function searchWithout(search: Json, path: string, blocked: ReadonlySet<string>): Json {
  const mappings = (search['hydra:mapping'] as Json[]).filter(
    (mapping) => !blocked.has(mapping.variable as string)
  )
  const variables = mappings.map((mapping) => mapping.variable as string)
  return {
    ...search,
    '@id': `${path}#search`,
    'hydra:template': `${path}{?${variables.join(',')}}`,
    'hydra:mapping': mappings,
  }
}

/** The 400 of an order through a field or relation the search does not offer. */
export function unknownOrder(name: string, search: Json): Json {
  const fields = (search['hydra:mapping'] as Json[]).flatMap((mapping) => {
    const order = /^order\[(.+)\]$/.exec(mapping.variable as string)
    return order ? [order[1]] : []
  })
  return problem(
    400,
    `The "${name}" parameter is not known: "order" is given as order[field]=asc|desc, field one of ${fields.join(', ')}.`
  )
}

export interface PageRequest {
  /** The collection's path, and the request's other parameters in normal form (no page). */
  path: string
  query: string
  /** The page asked for, the page size, and whether the request pages at all. */
  page: number
  perPage: number
  paged: boolean
  /** Asked without a query: the collection's entry page, the one that holds the template. */
  entry: boolean
}

/** A collection of `members` (every matching row) as the request pages it (docs/paging.md). */
export function collection(
  request: PageRequest,
  context: string,
  members: Json[],
  search: Json
): Json {
  const { path, query, page, perPage, paged } = request
  const head = { '@context': context, '@id': path, '@type': 'hydra:Collection' }
  // docs/filters.md#discovery-hydrasearch: the template on the entry page, a reference to it elsewhere.
  const searched = request.entry ? search : { '@id': `${path}#search` }
  const self = (number?: number) =>
    `${path}?${[query, number === undefined ? '' : `page=${number}`].filter(Boolean).join('&')}`
  if (!paged) {
    const view = query
      ? { 'hydra:view': { '@id': self(), '@type': 'hydra:PartialCollectionView' } }
      : {}
    return {
      ...head,
      'hydra:member': members,
      'hydra:totalItems': members.length,
      ...view,
      'hydra:search': searched,
    }
  }
  const last = Math.max(Math.ceil(members.length / perPage), 1)
  const body: Json = {
    ...head,
    'hydra:totalItems': members.length,
    'hydra:member': members.slice((page - 1) * perPage, page * perPage),
  }
  if (last !== 1) {
    const view: Json = { '@id': self(page), '@type': 'hydra:PartialCollectionView' }
    view['hydra:first'] = self(1)
    view['hydra:last'] = self(last)
    if (page !== 1) view['hydra:previous'] = self(page - 1)
    if (page < last) view['hydra:next'] = self(page + 1)
    body['hydra:view'] = view
  } else if (query) body['hydra:view'] = { '@id': self(), '@type': 'hydra:PartialCollectionView' }
  body['hydra:search'] = searched
  return body
}
