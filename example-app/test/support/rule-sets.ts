/**
 * The rule sets the rule hunters draw (example-app/test/rule-hunter.e2e.test.ts, and
 * rule-hunter-cache.e2e.test.ts through a shared cache): for books and loans of
 * test/fixtures/rules, guards and scopes of the resource or of its `collection` or `item`
 * operation, and hidden fields and links. Each scope is one of a small catalogue, written as the
 * Prisma `where` the rules answer and, by hand, as a predicate on the seeded rows, with what
 * docs/security.md ("How a scope is read") says its form means: every row (`{}`, `{ AND: [] }`),
 * no row (`{ OR: [] }`, `{ NOT: {} }`, `{ AND: [{ OR: [] }] }`) or a condition, which may still
 * match every row or none (`{ id: { in: [] } }`).
 */
import fc from 'fast-check'
import type { Context } from 'hono'
import type { HydraAccess } from '#fixtures/rules/hydra/index.js'
import { claimsOf, type LibraryEnv } from '../../src/auth.js'
import { BOOKS, type BookRow, LOANS, type LoanRow } from './rule-rows.js'

/** What a scope's form means before any row is read. */
export type ScopeForm = 'every' | 'none' | 'condition'

interface Scope<Row> {
  /** A fresh `where` on each call: the rules answer a new object to each request. */
  where: () => Record<string, unknown>
  sees: (row: Row) => boolean
  form: ScopeForm
}

const NO_ROW_IDIOMS = {
  'or-none': () => ({ OR: [] }),
  'not-empty': () => ({ NOT: {} }),
  'and-or-none': () => ({ AND: [{ OR: [] }] }),
}

/** Scopes that hold for every row or none by their form, the same on either model. */
const BY_FORM = {
  empty: { where: () => ({}), sees: () => true, form: 'every' },
  'and-none': { where: () => ({ AND: [] }), sees: () => true, form: 'every' },
  ...Object.fromEntries(
    Object.entries(NO_ROW_IDIOMS).map(([name, where]) => [
      name,
      { where, sees: () => false, form: 'none' },
    ])
  ),
  // "No row" Prisma finds, which the form does not tell: read, and empty.
  'in-none': { where: () => ({ id: { in: [] } }), sees: () => false, form: 'condition' },
} satisfies Record<string, Scope<unknown>>

const titleOf = (id: number) => BOOKS[id - 1]?.title

export const BOOK_SCOPES: Record<string, Scope<BookRow>> = {
  ...BY_FORM,
  'or-every': { where: () => ({ OR: [{}, { id: 1 }] }), sees: () => true, form: 'every' },
  'some-ids': {
    where: () => ({ id: { in: [1, 2, 4] } }),
    sees: (book) => [1, 2, 4].includes(book.id),
    form: 'condition',
  },
  atlas: {
    where: () => ({ title: 'Atlas' }),
    sees: (book) => book.title === 'Atlas',
    form: 'condition',
  },
  'not-comet': {
    where: () => ({ NOT: { title: 'Comet' } }),
    sees: (book) => book.title !== 'Comet',
    form: 'condition',
  },
  // Every row, by a condition: the books are scoped all the same.
  'all-ids': { where: () => ({ id: { gte: 1 } }), sees: () => true, form: 'condition' },
  'lent-to-2': {
    where: () => ({ loans: { some: { borrower: 'Reader 2' } } }),
    sees: (book) => LOANS.some((loan) => loan.bookId === book.id && loan.borrower === 'Reader 2'),
    form: 'condition',
  },
  'bonsai-or-6': {
    where: () => ({ OR: [{ title: 'Bonsai' }, { id: 6 }] }),
    sees: (book) => book.title === 'Bonsai' || book.id === 6,
    form: 'condition',
  },
}

export const LOAN_SCOPES: Record<string, Scope<LoanRow>> = {
  ...BY_FORM,
  'reader-1': {
    where: () => ({ borrower: 'Reader 1' }),
    sees: (loan) => loan.borrower === 'Reader 1',
    form: 'condition',
  },
  'readers-2-3': {
    where: () => ({ borrower: { in: ['Reader 2', 'Reader 3'] } }),
    sees: (loan) => loan.borrower !== 'Reader 1',
    form: 'condition',
  },
  open: {
    where: () => ({ returnedAt: null }),
    sees: (loan) => loan.returnedAt === null,
    form: 'condition',
  },
  'first-seven': {
    where: () => ({ id: { lte: 7 } }),
    sees: (loan) => loan.id <= 7,
    form: 'condition',
  },
  'of-bonsai': {
    where: () => ({ book: { is: { title: 'Bonsai' } } }),
    sees: (loan) => titleOf(loan.bookId) === 'Bonsai',
    form: 'condition',
  },
  'not-1-nor-late': {
    where: () => ({ NOT: [{ borrower: 'Reader 1' }, { id: { gt: 10 } }] }),
    sees: (loan) => loan.borrower !== 'Reader 1' && loan.id <= 10,
    form: 'condition',
  },
}

export type GuardAnswer = 'allow' | 'forbidden' | 'unauthenticated'
export type Operation = 'collection' | 'item'

/** One model's rules in a set: `null` as an operation's scope is its own "every row". */
export interface ModelSet<Hideable extends string> {
  guard: { resource?: GuardAnswer; collection?: GuardAnswer; item?: GuardAnswer }
  scope: { resource?: string; collection?: string | null; item?: string | null }
  hidden: Hideable[]
}

export interface RuleSet {
  Book: ModelSet<'title' | 'isbn' | 'loans'>
  Loan: ModelSet<'borrower' | 'loanedAt' | 'returnedAt' | 'book'>
}

/** A value of `values`, or (more often) none. */
const sometimes = <T>(values: fc.Arbitrary<T>) =>
  fc.oneof({ arbitrary: fc.constant(undefined), weight: 3 }, { arbitrary: values, weight: 2 })

/** Drops the keys whose value is undefined (the rules then give none). */
const given = <T extends object>(value: T) =>
  Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>
  }

function modelSet<Hideable extends string>(scopes: string[], hideable: Hideable[]) {
  const answer = fc.constantFrom<GuardAnswer>('allow', 'forbidden', 'unauthenticated')
  const scope = fc.constantFrom(...scopes)
  return fc
    .record({
      guard: fc.record({
        resource: fc.oneof({ arbitrary: fc.constant(undefined), weight: 4 }, answer),
        collection: fc.oneof({ arbitrary: fc.constant(undefined), weight: 5 }, answer),
        item: fc.oneof({ arbitrary: fc.constant(undefined), weight: 5 }, answer),
      }),
      scope: fc.record({
        resource: sometimes(scope),
        collection: sometimes(fc.oneof(scope, fc.constant(null))),
        item: sometimes(fc.oneof(scope, fc.constant(null))),
      }),
      // Each field hidden one time in four: a set hiding the most leaves few roads to hunt on.
      hidden: fc
        .tuple(...hideable.map(() => fc.nat(3)))
        .map((draws) => hideable.filter((_, index) => draws[index] === 0)),
    })
    .map(
      ({ guard, scope: scopes, hidden }): ModelSet<Hideable> => ({
        guard: given(guard),
        scope: given(scopes),
        hidden,
      })
    )
}

/** The arbitrary of a rule set of both models. */
export const ruleSets: fc.Arbitrary<RuleSet> = fc.record({
  Book: modelSet(Object.keys(BOOK_SCOPES), ['title', 'isbn', 'loans']),
  Loan: modelSet(Object.keys(LOAN_SCOPES), ['borrower', 'loanedAt', 'returnedAt', 'book']),
})

/**
 * The access rules of an app whose callers are `sets`, each rule reading the caller's own set from
 * its token's `sub` (`setOf`; an anonymous caller's is `undefined`). They have a rule wherever one
 * of `sets` gives one: for a single set, its own shape, so that the runtime's fallback from an
 * operation's rule to the resource's is what is read; for several, an operation's rule of a
 * caller whose set gives none answers the resource's, as that fallback would. Every rule reads
 * the token's claims alone, and says so (`reads: 'credentials'`, docs/caching.md).
 */
export function accessOf(
  sets: readonly RuleSet[],
  setOf: (sub: string | undefined) => RuleSet | undefined
): HydraAccess<LibraryEnv> {
  const mine = (c: Context<LibraryEnv>) => {
    const found = setOf(claimsOf(c)?.sub)
    if (!found) throw new Error('A caller without a rule set reached its rules')
    return found
  }
  const rulesOf = <M extends keyof RuleSet>(model: M, catalogue: Record<string, Scope<never>>) => {
    const anyGives = (read: (own: RuleSet[M]) => unknown) =>
      sets.some((set) => read(set[model]) !== undefined)
    const scopeRule = (at: 'resource' | Operation) => (c: Context<LibraryEnv>) => {
      const { scope } = mine(c)[model]
      const own = at === 'resource' ? undefined : scope[at]
      const name = own !== undefined ? own : scope.resource
      return name ? catalogue[name]?.where() : undefined
    }
    const guardRule = (at: 'resource' | Operation) => (c: Context<LibraryEnv>) => {
      const { guard } = mine(c)[model]
      return (at === 'resource' ? undefined : guard[at]) ?? guard.resource ?? 'allow'
    }
    const operation = (at: Operation) =>
      given({
        guard: anyGives((own) => own.guard[at]) ? guardRule(at) : undefined,
        scope: sets.every((set) => set[model].scope[at] === null)
          ? null
          : anyGives((own) => own.scope[at])
            ? scopeRule(at)
            : undefined,
      })
    return given({
      reads: 'credentials' as const,
      guard: anyGives((own) => own.guard.resource) ? guardRule('resource') : undefined,
      scope: anyGives((own) => own.scope.resource) ? scopeRule('resource') : undefined,
      hidden: (c: Context<LibraryEnv>) => [...mine(c)[model].hidden],
      operations: { collection: operation('collection'), item: operation('item') },
    })
  }
  return {
    Book: rulesOf('Book', BOOK_SCOPES) as HydraAccess<LibraryEnv>['Book'],
    Loan: rulesOf('Loan', LOAN_SCOPES) as HydraAccess<LibraryEnv>['Loan'],
  }
}
