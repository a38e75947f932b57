/**
 * A rule set read as docs/security.md says the runtime reads it, in plain TypeScript over the
 * seeded rows: an operation's own guard or scope first, else the resource's (`scope: null`: every
 * row); a related row (a filter's or an embed's target, a sub-collection's parent) visible when
 * its item route would serve it; a link hidden on one side hidden on the other; a declared to-many
 * embed read by the target's main collection rules and the parent's item guard and scope.
 */
import type { BookRow, LoanRow } from './rule-rows.js'
import {
  BOOK_SCOPES,
  type GuardAnswer,
  LOAN_SCOPES,
  type Operation,
  type RuleSet,
  type ScopeForm,
} from './rule-sets.js'

export type Model = keyof RuleSet
type RowOf<M extends Model> = M extends 'Book' ? BookRow : LoanRow

const CATALOGUES = { Book: BOOK_SCOPES, Loan: LOAN_SCOPES }

/** Each side of the relation, by its link's name on the other side. */
const LINK = { Book: 'loans', Loan: 'book' } as const
const OTHER = { Book: 'Loan', Loan: 'Book' } as const

export class RuleReading {
  constructor(readonly set: RuleSet) {}

  guard(model: Model, operation: Operation): GuardAnswer {
    const { guard } = this.set[model]
    return guard[operation] ?? guard.resource ?? 'allow'
  }

  /** The name of the scope an operation applies, undefined for every row. */
  private scopeName(model: Model, operation: Operation): string | undefined {
    const { scope } = this.set[model]
    const own = scope[operation]
    return (own !== undefined ? own : scope.resource) ?? undefined
  }

  /** What the operation's scope means by its form ("every" without one). */
  form(model: Model, operation: Operation): ScopeForm {
    const name = this.scopeName(model, operation)
    return name ? (CATALOGUES[model][name]?.form ?? 'every') : 'every'
  }

  /** Whether the operation's scope holds `row`. */
  sees<M extends Model>(model: M, operation: Operation, row: RowOf<M>): boolean {
    const name = this.scopeName(model, operation)
    const scope = name ? CATALOGUES[model][name] : undefined
    return scope ? (scope.sees as (row: RowOf<M>) => boolean)(row) : true
  }

  /** Whether a row of `model` is visible through a relation: its item route would serve it. */
  reaches<M extends Model>(model: M, row: RowOf<M>): boolean {
    return this.guard(model, 'item') === 'allow' && this.sees(model, 'item', row)
  }

  /**
   * Whether the caller sees through relations to `model` as if no rule bore on it: its item guard
   * allows and its item scope is none, or every row by its form. An order through a relation
   * needs it.
   */
  whollyReaches(model: Model): boolean {
    return this.guard(model, 'item') === 'allow' && this.form(model, 'item') === 'every'
  }

  /** The fields and links of `model` hidden from the caller, with the link its other side hides. */
  hidden(model: Model): ReadonlySet<string> {
    const own = new Set<string>(this.set[model].hidden)
    if ((this.set[OTHER[model]].hidden as string[]).includes(LINK[OTHER[model]]))
      own.add(LINK[model])
    return own
  }

  /** Whether the relation's links are hidden (from both sides, as one hides the other). */
  linkHidden(): boolean {
    return this.hidden('Loan').has('book')
  }

  /**
   * How a book's declared first page of loans is read: not at all (its IRI) when the loans' main
   * collection guard or the books' item guard refuses, or the loans' collection scope holds no row
   * by its form; else the loans that scope holds.
   */
  firstPageRead(): boolean {
    return (
      this.guard('Loan', 'collection') === 'allow' &&
      this.guard('Book', 'item') === 'allow' &&
      this.form('Loan', 'collection') !== 'none'
    )
  }
}

/** The status of a guard's answer, or undefined when it allows. */
export function refusal(answer: GuardAnswer): number | undefined {
  return answer === 'forbidden' ? 403 : answer === 'unauthenticated' ? 401 : undefined
}
