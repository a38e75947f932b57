/**
 * The rows of the embeds fixture (test/fixtures/embeds) the declared-embed tests seed: ten books
 * and 43 loans of three readers, every third loan still open. Books 1 to 8 have five loans each,
 * of more than one reader, book 9 none, book 10 three (as many as its declared embed shows).
 * Written out, so that a test can say by hand which of them an identity sees.
 */

export interface BookRow {
  id: number
  title: string
  isbn: string
}

export interface LoanRow {
  id: number
  borrower: string
  loanedAt: Date
  returnedAt: Date | null
  bookId: number
}

export const BOOKS: readonly BookRow[] = Array.from({ length: 10 }, (_, index) => ({
  id: index + 1,
  title: `Book ${index + 1}`,
  isbn: `978-0-${String(100000 + index)}-0`,
}))

export const LOANS: readonly LoanRow[] = Array.from({ length: 43 }, (_, index) => ({
  id: index + 1,
  borrower: `Reader ${1 + (index % 3)}`,
  loanedAt: new Date(Date.UTC(2025, 0, 1 + index)),
  returnedAt: index % 3 === 0 ? null : new Date(Date.UTC(2025, 1, 1 + index)),
  bookId: index < 40 ? 1 + (index % 8) : 10,
}))

/** The fixture's client, as far as seeding it goes. */
interface LibraryClient {
  book: { createMany(args: { data: BookRow[] }): PromiseLike<unknown> }
  loan: { createMany(args: { data: LoanRow[] }): PromiseLike<unknown> }
}

/** Writes `books` and `loans` (every row by default) into the fixture's database. */
export async function seedLibrary(
  client: LibraryClient,
  books: readonly BookRow[] = BOOKS,
  loans: readonly LoanRow[] = LOANS
): Promise<void> {
  await client.book.createMany({ data: [...books] })
  await client.loan.createMany({ data: [...loans] })
}
