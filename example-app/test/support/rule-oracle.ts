/**
 * The rule hunter's oracle (example-app/test/rule-hunter.e2e.test.ts): the answer a caller must
 * receive from a request to test/fixtures/rules, computed from the seeded rows and the caller's
 * rule set as docs/security.md documents them (rule-reading.ts), never from the API itself but
 * for the rule-free `hydra:search` of each route. Requests are written in normal form
 * (docs/paging.md), one order at most.
 */
import {
  bookMember,
  collection,
  type Json,
  loanMember,
  missing,
  type PageRequest,
  refused,
  searchWithout,
  unknownOrder,
} from './rule-documents.js'
import { type RuleReading, refusal } from './rule-reading.js'
import { BOOKS, type BookRow, LOANS, type LoanRow } from './rule-rows.js'

export interface Expected {
  status: number
  body: Json
}

/** The rule-free `hydra:search` of books, loans and book 1's loans. */
export interface Searches {
  books: Json
  loans: Json
  bookLoans: Json
}

/** The variables of books' search the caller is not offered. */
function blockedOfBooks(reading: RuleReading): Set<string> {
  const blocked = new Set<string>()
  if (reading.hidden('Book').has('title'))
    for (const name of ['title', 'title[]', 'order[title]']) blocked.add(name)
  if (reading.linkHidden() || reading.hidden('Loan').has('borrower'))
    for (const name of ['loans.borrower', 'loans.borrower[]']) blocked.add(name)
  return blocked
}

/** The variables of loans' search the caller is not offered. */
function blockedOfLoans(reading: RuleReading): Set<string> {
  const hidden = reading.hidden('Loan')
  const blocked = new Set<string>()
  const block = (...names: string[]) => {
    for (const name of names) blocked.add(name)
  }
  if (hidden.has('borrower')) block('borrower', 'borrower[]')
  if (hidden.has('loanedAt')) block('order[loanedAt]')
  if (hidden.has('returnedAt')) block('exists[returnedAt]')
  if (hidden.has('book')) block('book', 'book[]', 'book.title', 'book.title[]', 'order[book.title]')
  if (reading.hidden('Book').has('title')) block('book.title', 'book.title[]', 'order[book.title]')
  if (!reading.whollyReaches('Book')) block('order[book.title]')
  return blocked
}

const idOf = (value: string) => Number(value.split('/').pop())

/** The request's paging, and its other parameters as they were sent (in normal form). */
function pageRequest(path: string, query: string, perPage: number): PageRequest {
  const params = new URLSearchParams(query)
  const rest = query.split('&').filter((part) => part && !part.startsWith('page='))
  return {
    path,
    query: rest.join('&'),
    page: Number(params.get('page') ?? 1),
    perPage: Number(params.get('itemsPerPage') ?? perPage),
    paged: params.get('pagination') !== 'false',
    entry: query === '',
  }
}

/**
 * Keeps the rows the request's filters hold, by the filters the search offers the caller (others
 * are ignored), and orders them; the 400 of an order not offered.
 */
function filtered<Row extends { id: number }>(
  rows: Row[],
  params: URLSearchParams,
  search: Json,
  matches: Record<string, (row: Row, value: string) => boolean>,
  orders: Record<string, (row: Row) => string>
): Row[] | Json {
  const offered = new Set((search['hydra:mapping'] as Json[]).map((m) => m.variable as string))
  const ids = [...params.getAll('id[]'), ...params.getAll('id')].map(idOf)
  let kept = ids.length > 0 ? rows.filter((row) => ids.includes(row.id)) : rows
  for (const [name, match] of Object.entries(matches)) {
    const value = params.get(name)
    if (value !== null && offered.has(name)) kept = kept.filter((row) => match(row, value))
  }
  for (const [key, direction] of params) {
    const order = /^order\[(.+)\]$/.exec(key)
    if (!order) continue
    if (!offered.has(key)) return unknownOrder(key, search)
    const field = orders[order[1] as string] as (row: Row) => string
    const sign = direction === 'desc' ? -1 : 1
    kept = [...kept].sort((a, b) => sign * field(a).localeCompare(field(b)) || a.id - b.id)
  }
  return kept
}

function books(reading: RuleReading, query: string, searches: Searches): Expected {
  const status = refusal(reading.guard('Book', 'collection'))
  if (status) return { status, body: refused(status) }
  const search = searchWithout(searches.books, '/books', blockedOfBooks(reading))
  const rows = filtered(
    BOOKS.filter((book) => reading.sees('Book', 'collection', book)),
    new URLSearchParams(query),
    search,
    {
      title: (book, value) => book.title === value,
      'loans.borrower': (book, value) =>
        LOANS.some(
          (loan) =>
            loan.bookId === book.id && loan.borrower === value && reading.reaches('Loan', loan)
        ),
    },
    { title: (book) => book.title }
  )
  if (!Array.isArray(rows)) return { status: 400, body: rows }
  const members = rows.map((book) => bookMember(reading, book))
  return {
    status: 200,
    body: collection(pageRequest('/books', query, 3), '/contexts/Book', members, search),
  }
}

/** Loans, of every book or (`book`) of one book's sub-collection. */
function loans(reading: RuleReading, query: string, searches: Searches, book?: number): Expected {
  const own = refusal(reading.guard('Loan', 'collection'))
  if (own) return { status: own, body: refused(own) }
  const path = book === undefined ? '/loans' : `/books/${book}/loans`
  if (book !== undefined) {
    const parent = refusal(reading.guard('Book', 'item'))
    if (parent) return { status: parent, body: refused(parent) }
    const row = BOOKS[book - 1]
    if (!row || !reading.sees('Book', 'item', row) || reading.linkHidden())
      return { status: 404, body: missing('Book', String(book)) }
  }
  const base = book === undefined ? searches.loans : searches.bookLoans
  const search = searchWithout(base, path, blockedOfLoans(reading))
  const bookOf = (loan: LoanRow) => BOOKS[loan.bookId - 1] as BookRow
  const rows = filtered(
    LOANS.filter(
      (loan) =>
        (book === undefined || loan.bookId === book) && reading.sees('Loan', 'collection', loan)
    ),
    new URLSearchParams(query),
    search,
    {
      borrower: (loan, value) => loan.borrower === value,
      book: (loan, value) => loan.bookId === idOf(value) && reading.reaches('Book', bookOf(loan)),
      'book.title': (loan, value) =>
        bookOf(loan).title === value && reading.reaches('Book', bookOf(loan)),
      'exists[returnedAt]': (loan, value) => (loan.returnedAt !== null) === (value === 'true'),
    },
    { loanedAt: (loan) => loan.loanedAt.toISOString(), 'book.title': (loan) => bookOf(loan).title }
  )
  if (!Array.isArray(rows)) return { status: 400, body: rows }
  const members = rows.map((loan) => loanMember(reading, loan))
  return {
    status: 200,
    body: collection(pageRequest(path, query, 4), '/contexts/Loan', members, search),
  }
}

function item(reading: RuleReading, model: 'Book' | 'Loan', id: number): Expected {
  const status = refusal(reading.guard(model, 'item'))
  if (status) return { status, body: refused(status) }
  if (model === 'Book') {
    const row = BOOKS[id - 1]
    return row && reading.sees('Book', 'item', row)
      ? { status: 200, body: bookMember(reading, row, true) }
      : { status: 404, body: missing('Book', String(id)) }
  }
  const row = LOANS[id - 1]
  return row && reading.sees('Loan', 'item', row)
    ? { status: 200, body: loanMember(reading, row, true) }
    : { status: 404, body: missing('Loan', String(id)) }
}

/** The answer `path` must have for the caller whose rules `reading` reads. */
export function expectedAnswer(reading: RuleReading, path: string, searches: Searches): Expected {
  const [route = '', query = ''] = path.split('?')
  const parts = route.split('/').filter(Boolean)
  if (parts[0] === 'books' && parts.length === 1) return books(reading, query, searches)
  if (parts[0] === 'loans' && parts.length === 1) return loans(reading, query, searches)
  if (parts.length === 3) return loans(reading, query, searches, Number(parts[1]))
  return item(reading, parts[0] === 'books' ? 'Book' : 'Loan', Number(parts[1]))
}
