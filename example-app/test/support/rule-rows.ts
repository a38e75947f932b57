/**
 * The rows of the rules fixture (test/fixtures/rules) the rule hunter seeds: six books of three
 * titles (so that an order by title has ties) and fourteen loans of three readers, every third
 * still open, on five dates (ties again). Books 1 and 4 have more loans than their declared embed
 * shows (two), book 6 none. Written out, so that the hunter's oracle reads them in plain
 * TypeScript.
 */

import type { BookRow, LoanRow } from './library-rows.js'

export type { BookRow, LoanRow }

export const BOOKS: readonly BookRow[] = Array.from({ length: 6 }, (_, index) => ({
  id: index + 1,
  title: ['Atlas', 'Bonsai', 'Comet'][index % 3] as string,
  isbn: `isbn-${index + 1}`,
}))

/** The book of each loan, by the loan's position. */
const BOOK_OF_LOAN = [1, 1, 1, 2, 2, 3, 4, 4, 4, 5, 1, 2, 4, 3]

export const LOANS: readonly LoanRow[] = BOOK_OF_LOAN.map((bookId, index) => ({
  id: index + 1,
  borrower: `Reader ${1 + (index % 3)}`,
  loanedAt: new Date(Date.UTC(2025, 0, 1 + (index % 5))),
  returnedAt: index % 3 === 0 ? null : new Date(Date.UTC(2025, 1, 1 + index)),
  bookId,
}))

/** The fixture's client, as far as seeding it goes. */
interface RulesClient {
  book: { createMany(args: { data: BookRow[] }): PromiseLike<unknown> }
  loan: { createMany(args: { data: LoanRow[] }): PromiseLike<unknown> }
}

/** Writes every row into the fixture's database. */
export async function seedRules(client: RulesClient): Promise<void> {
  await client.book.createMany({ data: [...BOOKS] })
  await client.loan.createMany({ data: [...LOANS] })
}
