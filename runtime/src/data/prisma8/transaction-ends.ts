/**
 * @module
 * How the purge on write learns when each transaction of a Prisma 8 client ends
 * (docs/caching.md#purge-on-write-on-prisma-8). Prisma 8's middleware sees a write in a transaction
 * before its `COMMIT` (and a write later rolled back), and has no hook after it; every transaction
 * (`db.transaction(fn)`, and the one an ORM update or delete opens for itself) is opened through
 * the client's runtime (`db.runtime()`, the object the client's ORM and `db.transaction` call):
 * `runtime.connection()`, then `connection.transaction()`, its operations, then `commit()` or
 * `rollback()`.
 *
 * `watch(db)` replaces that runtime's `connection` by one handing out the same connections, whose
 * `transaction()` answers the same transaction seen through a proxy that:
 *
 * - gives every operation of the transaction one `AbortSignal` of its own (combined with the
 *   caller's, when it passes one), which the runtime hands its middleware as the operation's
 *   `ctx.signal` ("the same reference passed to the runtime call", as its interface promises):
 *   a write the middleware sees in a transaction is thereby held for that transaction alone,
 *   whichever others run at the same time;
 * - once `commit()` resolved, hands the writes held to `committed`: the rows are visible to every
 *   other connection from then on;
 * - on `rollback()`, drops them; on a `commit()` that failed, drops them when the server answered
 *   with an error (PostgreSQL rolled the transaction back), and hands them on when it did not
 *   answer (the connection broke: the transaction may have committed, and a purge too many costs a
 *   cache miss where one lost leaves a stale answer).
 */
import { causesOf } from '../../database/causes.js'
import type { WriteTags } from '../written-rows.js'

/** A transaction of the runtime (orm-family-sql's `RuntimeTransaction`): what is replaced of it. */
interface Transaction {
  /** Ends the transaction with `COMMIT`. */
  commit(): Promise<void>
  /** Ends the transaction with `ROLLBACK`. */
  rollback(): Promise<void>
}

/** A connection of the runtime (orm-family-sql's `RuntimeConnection`). */
interface Connection {
  /** Begins a transaction on the connection. */
  transaction(): Promise<Transaction>
}

/** The client's runtime (orm-family-sql's `Runtime`, what `db.runtime()` answers). */
interface Runtime {
  /** A connection of the pool, on which the client's transactions begin. */
  connection(): Promise<Connection>
}

/** A Prisma 8 client (`postgres<Contract>(...)`): what `watch` reads of it. */
export interface WatchableClient {
  /** The client's runtime (one object for the client's life). */
  runtime(): Runtime
}

/** The writes held for one transaction, while it is open. */
interface Held {
  written: WriteTags
  open: boolean
}

/** What a transaction's operations take after their plan (orm-framework's RuntimeExecuteOptions). */
type OperationOptions = { readonly signal?: AbortSignal } | undefined

/**
 * Where the options are among an operation's arguments: after the plan for `query` and
 * `execute`; after the statement and its parameters for the prepared statements' bridges, the
 * transaction's symbol-keyed operations (orm-family-sql's `runPreparedQuery` and
 * `runPreparedExecute` call them); undefined for anything else.
 */
function optionsIndex(key: PropertyKey): number | undefined {
  if (key === 'query' || key === 'execute') return 1
  return typeof key === 'symbol' ? 2 : undefined
}

/** Whether the server answered `error` (a PostgreSQL SQLSTATE on it or what it wraps). */
function answered(error: unknown): boolean {
  for (const cause of causesOf(error)) {
    const { code } = cause as { code?: unknown }
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return true
  }
  return false
}

/** The ends of the transactions of the clients watched, and the writes held until them. */
export interface TransactionEnds {
  /** `db` itself, its transactions now watched (again: nothing more). */
  watch<C extends WatchableClient>(db: C): C
  /**
   * Holds `written` for the open transaction whose operation carried `signal` until it ends;
   * false when no such transaction is open (a client not watched), the write then left to the
   * caller.
   */
  hold(signal: AbortSignal | undefined, written: WriteTags): boolean
}

/** Watches transactions, handing what each committed to `committed`. */
export function transactionEnds(committed: (written: WriteTags) => void): TransactionEnds {
  const bySignal = new WeakMap<AbortSignal, Held>()
  const watched = new WeakSet<object>()

  const watchTransaction = <T extends Transaction>(transaction: T): T => {
    const held: Held = { written: { tags: new Set(), models: new Set() }, open: true }
    const own = new AbortController().signal
    bySignal.set(own, held)
    const end = (commits: boolean) => {
      if (!held.open) return
      held.open = false
      if (commits) committed(held.written)
    }
    const signalFor = (options: OperationOptions) => {
      if (!options?.signal) return own
      const both = AbortSignal.any([options.signal, own])
      bySignal.set(both, held)
      return both
    }
    const commit = async () => {
      try {
        await transaction.commit()
      } catch (error) {
        end(!answered(error))
        throw error
      }
      end(true)
    }
    const rollback = async () => {
      end(false)
      await transaction.rollback()
    }
    return new Proxy(transaction, {
      get(target, key, receiver) {
        if (key === 'commit') return commit
        if (key === 'rollback') return rollback
        const value: unknown = Reflect.get(target, key, receiver)
        const index = optionsIndex(key)
        if (typeof value !== 'function' || index === undefined) return value
        return (...args: unknown[]) => {
          const options = args[index] as OperationOptions
          args[index] = { ...options, signal: signalFor(options) }
          return Reflect.apply(value, target, args)
        }
      },
    })
  }

  const watchConnection = <T extends Connection>(connection: T): T =>
    new Proxy(connection, {
      get(target, key, receiver) {
        if (key !== 'transaction') return Reflect.get(target, key, receiver)
        return async () => watchTransaction(await target.transaction())
      },
    })

  return {
    watch(db) {
      const runtime = db.runtime()
      if (watched.has(runtime)) return db
      watched.add(runtime)
      const connection = runtime.connection.bind(runtime)
      runtime.connection = async () => watchConnection(await connection())
      return db
    },
    hold(signal, written) {
      const held = signal && bySignal.get(signal)
      if (!held?.open) return false
      for (const tag of written.tags) held.written.tags.add(tag)
      for (const model of written.models) held.written.models.add(model)
      return true
    },
  }
}
