/**
 * Time budgets of the database work of a request (docs/deployment.md#timeouts): a request waits at most its
 * budget for the database, then is answered (503 when the budget ran out, see outage.ts).
 */

/** Time budgets of the database work of one request, in milliseconds. */
export interface DatabaseTimeouts {
  /**
   * The longest a request waits for its database work (a page, or a page and its count; an item;
   * each batch of a streamed collection) before it is answered 503. Default 10,000.
   */
  query?: number | undefined
  /** Seconds a 503 asks the client to wait (`Retry-After`). Default 5. */
  retryAfter?: number | undefined
  /**
   * Prisma's `maxWait` for the transaction that reads a page and its exact count (full paging):
   * how long it waits for a connection and its start. Default 10,000 (Prisma's own, 2,000, failed
   * queued requests with P2028 while the database was merely busy).
   */
  transactionMaxWait?: number | undefined
  /** Prisma's `timeout` for that transaction: how long it may take. Default 20,000. */
  transaction?: number | undefined
  /**
   * How long a read replica whose read failed (unreachable, timed out) is passed by before a
   * request tries it again; its reads go to the other replicas, then the primary. Default 5,000.
   */
  replicaRetry?: number | undefined
}

const DEFAULT_QUERY_TIMEOUT = 10_000
export const DEFAULT_RETRY_AFTER = 5

/** A request's budget with the defaults filled in. */
export interface Budget {
  /** Milliseconds its database work may take. */
  query: number
  /** Seconds its 503 asks the client to wait. */
  retryAfter: number
}

export function budgetOf(timeouts: DatabaseTimeouts | undefined): Budget {
  return {
    query: timeouts?.query ?? DEFAULT_QUERY_TIMEOUT,
    retryAfter: timeouts?.retryAfter ?? DEFAULT_RETRY_AFTER,
  }
}

/** The database work of a request took longer than its budget. */
export class QueryTimeout extends Error {
  constructor(readonly budget: number) {
    super(`The database did not answer within ${budget} ms.`)
    this.name = 'QueryTimeout'
  }
}

/**
 * `work`, or a QueryTimeout once `budget` milliseconds have passed (or the error `late` makes,
 * for work that is not the database's). The work itself goes on (the driver's own timeouts end
 * it: see docs/deployment.md); the request is answered.
 */
export function withinBudget<T>(
  work: PromiseLike<T>,
  budget: number,
  late: () => Error = () => new QueryTimeout(budget)
): Promise<T> {
  if (!Number.isFinite(budget) || budget <= 0) return Promise.resolve(work)
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(late()), budget)
  })
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer))
}

/** Prisma's limits of the page-and-count transaction when `timeouts` does not give them. */
const DEFAULT_TRANSACTION_MAX_WAIT = 10_000
const DEFAULT_TRANSACTION_TIMEOUT = 20_000

/**
 * The options of the transaction that reads a page and its count, from the timeouts, with the
 * defaults above. A request is still answered within its `query` budget (503 past it).
 */
export function transactionOptions(timeouts: DatabaseTimeouts | undefined): {
  maxWait: number
  timeout: number
} {
  return {
    maxWait: timeouts?.transactionMaxWait ?? DEFAULT_TRANSACTION_MAX_WAIT,
    timeout: timeouts?.transaction ?? DEFAULT_TRANSACTION_TIMEOUT,
  }
}
