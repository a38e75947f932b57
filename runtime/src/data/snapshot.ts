/**
 * @module
 * One snapshot for a custom data provider's reads (docs/custom-collections.md#one-snapshot): its
 * page and its count read in one transaction, at the isolation level that makes the generated
 * page-and-count transaction one snapshot (database/dialects.ts), within the app's transaction
 * limits (`timeouts: { transactionMaxWait, transaction }`, database/timeouts.ts).
 */
import { dialectOf } from '../database/dialects.js'
import { type DatabaseTimeouts, transactionOptions } from '../database/timeouts.js'
import { refusesTransactions } from './prisma7/refused-transactions.js'

/** A Prisma client, as far as a snapshot uses it: it has `$transaction`. */
export interface SnapshotClient {
  /** Prisma's `$transaction`. */
  $transaction: (...args: never[]) => unknown
}

/**
 * The transaction client `Client`'s interactive `$transaction` hands its function: the generated
 * `Prisma.TransactionClient` for a generated client, the extended one for a client made by
 * `$extends`. (TypeScript infers from the last of the overloads, the interactive one.)
 */
export type TransactionClientOf<Client> = Client extends {
  /** The interactive `$transaction`, whose function receives the transaction client. */
  $transaction(read: (tx: infer Tx) => never, ...options: never[]): unknown
}
  ? Tx
  : never

/**
 * Runs `read` with a transaction of `client` in which every read sees the same snapshot of the
 * database, and resolves to what `read` resolves to. Its queries run one after another, on one
 * connection: await each before the next.
 *
 * ```ts
 * const [rows, totalItems] = await snapshot(prisma, async (tx) => [
 *   await tx.book.findMany({ skip: request.offset, take: request.itemsPerPage }),
 *   await tx.book.count(),
 * ])
 * ```
 */
export type Snapshot = <Client extends SnapshotClient, T>(
  client: Client,
  read: (tx: TransactionClientOf<Client>) => Promise<T>
) => Promise<T>

/** What a snapshot calls: Prisma's interactive transaction. */
interface InteractiveClient {
  $transaction<T>(
    read: (tx: unknown) => Promise<T>,
    options: { isolationLevel?: string; maxWait: number; timeout: number }
  ): Promise<T>
}

/**
 * The snapshot of the providers of a resource of `provider` (a datasource provider name; a
 * resource that names none gets its database's default isolation level).
 */
export function snapshotOf(
  provider: string | undefined,
  timeouts: DatabaseTimeouts | undefined
): Snapshot {
  const options = {
    ...(provider === undefined ? {} : { isolationLevel: dialectOf(provider).isolationLevel }),
    ...transactionOptions(timeouts),
  }
  return async (client, read) => {
    if (!isInteractive(client))
      throw new TypeError('snapshot: the client has no interactive $transaction')
    const reads = read as (tx: unknown) => Promise<never>
    try {
      return await client.$transaction(reads, options)
    } catch (error) {
      // D1: no transaction to read in; the client reads as the generated routes do there.
      if (!refusesTransactions(error)) throw error
      return reads(client)
    }
  }
}

/**
 * Whether the client's `$transaction` is Prisma's, whose interactive form a snapshot calls: every
 * Prisma client's is (SnapshotClient types it by its overloads, which TypeScript cannot call).
 */
function isInteractive(client: SnapshotClient): client is SnapshotClient & InteractiveClient {
  return typeof client.$transaction === 'function'
}
