/**
 * What the rule hunter (example-app/test/rule-hunter.e2e.test.ts) checks beside its oracle: that
 * the rule sets a seed drew bear on each road the oracle tells apart (a hunt where no set hides a
 * link, or none gives loans' collection a scope of its own, would pass with that rule left out),
 * and the `ETag` an answer must carry for its own bytes (docs/hydra.md, "Caching").
 */
import { createHash } from 'node:crypto'
import { RuleReading } from './rule-reading.js'
import { BOOKS, LOANS } from './rule-rows.js'
import type { RuleSet } from './rule-sets.js'

/** The strong tag of a body: SHA-256 of its media type, a newline and its bytes, base64url. */
export function entityTagOf(text: string, headers: Headers): string {
  const type = headers.get('content-type') ?? ''
  const hash = createHash('sha256').update(type).update('\n').update(text).digest('base64url')
  return `"${hash.slice(0, 27)}"`
}

const bookOf = (bookId: number) => BOOKS[bookId - 1] as (typeof BOOKS)[number]

/** Each road, and whether a set's rules bear on it so that a rule left out would show. */
const ROADS: Record<string, (reading: RuleReading) => boolean> = {
  // A loan listed whose book is not to be embedded (the to-one check of books' item scope).
  'a loan seen whose book is not': (r) =>
    r.guard('Loan', 'collection') === 'allow' &&
    LOANS.some(
      (loan) => r.sees('Loan', 'collection', loan) && !r.reaches('Book', bookOf(loan.bookId))
    ),
  // A book's first page read under loans' collection scope, which differs from their item scope.
  'first pages by a collection scope unlike the item one': (r) =>
    r.firstPageRead() &&
    !r.linkHidden() &&
    LOANS.some((loan) => r.sees('Loan', 'collection', loan) !== r.sees('Loan', 'item', loan)),
  // A first page left unread by a guard of the parent's items or of loans' collection.
  'a first page a guard leaves unread': (r) =>
    !r.linkHidden() &&
    r.guard('Book', 'collection') === 'allow' &&
    (r.guard('Loan', 'collection') !== 'allow' || r.guard('Book', 'item') !== 'allow'),
  'a scope holding no row by its form': (r) =>
    (['Book', 'Loan'] as const).some((model) =>
      (['collection', 'item'] as const).some((operation) => r.form(model, operation) === 'none')
    ),
  'a scope every row by its form': (r) =>
    (['Book', 'Loan'] as const).some((model) =>
      Object.values(r.set[model].scope).some((name) =>
        ['empty', 'and-none', 'or-every'].includes(name ?? '')
      )
    ),
  'a link hidden on the loans side alone': (r) =>
    r.set.Loan.hidden.includes('book') && !r.set.Book.hidden.includes('loans'),
  'a link hidden on the books side alone': (r) =>
    r.set.Book.hidden.includes('loans') && !r.set.Loan.hidden.includes('book'),
  'a field hidden through the relation': (r) =>
    !r.linkHidden() && (r.hidden('Book').has('title') || r.hidden('Loan').has('borrower')),
  'an order through books refused by their scope': (r) =>
    !r.linkHidden() && !r.hidden('Book').has('title') && !r.whollyReaches('Book'),
  'an order through books allowed': (r) =>
    r.guard('Loan', 'collection') === 'allow' &&
    !r.linkHidden() &&
    !r.hidden('Book').has('title') &&
    r.whollyReaches('Book'),
  'a parent its item scope hides': (r) =>
    r.guard('Loan', 'collection') === 'allow' &&
    r.guard('Book', 'item') === 'allow' &&
    BOOKS.some((book) => !r.sees('Book', 'item', book)),
  'an item scope unlike the collection one': (r) =>
    BOOKS.some((book) => r.sees('Book', 'item', book) !== r.sees('Book', 'collection', book)),
  'a guard of one operation alone': (r) =>
    (['Book', 'Loan'] as const).some(
      (model) => r.guard(model, 'collection') !== r.guard(model, 'item')
    ),
  'a refusal asking to authenticate': (r) =>
    (['Book', 'Loan'] as const).some((model) =>
      (['collection', 'item'] as const).some(
        (operation) => r.guard(model, operation) === 'unauthenticated'
      )
    ),
}

/** The roads no set of `drawn` bears on. */
export function hunted(drawn: readonly RuleSet[]): string[] {
  const readings = drawn.map((set) => new RuleReading(set))
  return Object.entries(ROADS)
    .filter(([, bears]) => !readings.some(bears))
    .map(([road]) => road)
}
