/**
 * @module
 * A page, its count and the reads its embeds make after it (the first pages of to-many relations,
 * the scope checks of embedded rows: embedded-scope.ts) in one transaction of the client, so one
 * snapshot: a related row changed between the page and those reads cannot show in the page. A page
 * whose embeds read nothing after it keeps its batch transaction (Prisma's nested `select` reads
 * the related rows inside it). On an engine that reads first pages after the page (`pagesAfter`),
 * a page whose embeds check no scope reads them after its own statement.
 */
import type { Condition } from '../../plan/condition.js'
import type { RowBeside } from '../keyed-read.js'
import { refusesTransactions } from './refused-transactions.js'

/** The page-and-count transaction's options (prisma7/engine.ts's TransactionOptions). */
interface TransactionOptions {
  isolationLevel: string
  maxWait: number
  timeout: number
}

/** What runs a read of several statements in one snapshot: an engine's reads (ModelReads). */
export interface SnapshotReads<Args> {
  /** A page and the count of `counted`, in one transaction (with `beside`, that row too). */
  findManyAndCount(
    args: Args,
    counted: Condition | undefined,
    options: TransactionOptions,
    beside?: RowBeside | undefined
  ): Promise<[object[], number]>
  /** `read` with reads over one transaction of the same client. */
  inSnapshot<T>(read: (reads: this) => Promise<T>, options: TransactionOptions): Promise<T>
  /**
   * Whether a page whose embeds only read first pages reads them after the page and its count
   * rather than in their transaction (the compiled engine: its page and count are one statement
   * with no transaction, and each first pages' read is one).
   */
  readonly pagesAfter?: boolean | undefined
  /** Whether its page marks the fields its rows show on some rows only as it reads them. */
  readonly marksShown?: boolean | undefined
}

/** The reads the embeds of a page make after it (embedded-scope.ts's Embedding). */
export interface AfterPage<Reads> {
  /** Whether the embeds read anything after the page. */
  readonly reads: boolean
  /**
   * Whether they check the caller's scope of related rows the page read (embedded-scope.ts):
   * those checks are read in the page's snapshot, so that no related row is shown with what it
   * held before a change that hid it.
   */
  readonly checks: boolean
  /**
   * Whether they check the fields the page's own rows show on some rows only: in the page's
   * snapshot, unless the engine marks them as it reads the page (`marksShown`).
   */
  readonly checksOwn: boolean
  restrict<Row extends object>(
    rows: Row[],
    on: <T>(read: (reads: Reads) => PromiseLike<T>) => Promise<T>
  ): Promise<Row[]>
}

/**
 * The page of `args`, with what its embeds read after it, and the count of `counted` (and the row
 * `beside`, a sub-collection's parent): one transaction, one snapshot.
 */
export async function pageWithEmbeds<Args, Reads extends SnapshotReads<Args>>(
  reads: Reads,
  page: { args: Args; counted: Condition | undefined; beside?: RowBeside | undefined },
  options: TransactionOptions,
  embedding: AfterPage<Reads>
): Promise<[object[], number]> {
  const { args, counted, beside } = page
  if (!embedding.reads) return reads.findManyAndCount(args, counted, options, beside)
  const checks = embedding.checks || (embedding.checksOwn && !reads.marksShown)
  if (reads.pagesAfter && !checks) {
    // First pages are read within their scope at their own moment: a related row changed after
    // the page may show in them, as on a page read without its count.
    const [rows, total] = await reads.findManyAndCount(args, counted, options, beside)
    const on = async <T>(read: (reads: Reads) => PromiseLike<T>): Promise<T> => read(reads)
    return [await embedding.restrict(rows, on), total]
  }
  return reads.inSnapshot(async (inside) => {
    const [rows, total] = await inside.findManyAndCount(args, counted, options, beside)
    const on = async <T>(read: (reads: Reads) => PromiseLike<T>): Promise<T> => read(inside)
    return [await embedding.restrict(rows, on), total]
  }, options)
}

/** A Prisma client, as far as a snapshot uses it. */
interface InteractiveClient {
  $transaction<T>(read: (tx: object) => Promise<T>, options: TransactionOptions): Promise<T>
}

/**
 * The `inSnapshot` of an engine over `client`: `readsOver` makes its reads over the client of an
 * interactive transaction, whose batches (`$transaction([...])`) run in it one after another.
 * `opening`, when given, is the transaction's first statement (a replica's `SET TRANSACTION READ
 * ONLY`). Where the database refuses transactions (D1), `outside` reads as it reads without one.
 */
export function snapshotOver<Reads>(
  client: object,
  readsOver: (tx: object) => Reads,
  outside: Reads,
  opening: string | undefined
): <T>(read: (reads: Reads) => Promise<T>, options: TransactionOptions) => Promise<T> {
  const interactive = client as InteractiveClient
  return async (read, options) => {
    try {
      return await interactive.$transaction(async (tx) => {
        if (opening) await (tx as RawClient).$executeRawUnsafe(opening)
        return read(readsOver(inOrder(tx)))
      }, options)
    } catch (error) {
      if (!refusesTransactions(error)) throw error
      return read(outside)
    }
  }
}

interface RawClient {
  $executeRawUnsafe(sql: string): PromiseLike<number>
}

/**
 * The client of an open transaction, whose batch `$transaction` runs its queries in that
 * transaction, one after another on its connection.
 */
function inOrder(tx: object): object {
  const batch = async (queries: readonly PromiseLike<unknown>[]) => {
    const answers: unknown[] = []
    for (const query of queries) answers.push(await query)
    return answers
  }
  return new Proxy(tx, {
    get(target, property) {
      if (property === '$transaction') return batch
      const value = Reflect.get(target, property, target)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}
