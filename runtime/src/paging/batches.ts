/**
 * Unpaged collections read in batches (docs/paging.md#d5): a response of a million rows never
 * holds more than one batch, and each batch after the first starts past the last row read (a
 * keyset), so reading the whole table costs what reading it once costs.
 */

import type { CursorKey } from '../contract/order.js'
import type { CollectionSource } from './types.js'

/** Rows per query when an unpaged collection is read in batches. */
export const DEFAULT_BATCH_SIZE = 500

/**
 * Reads every row of `source`, in its order, `batchSize` rows per query. With `key` (the order as a
 * keyset key, unique together) each batch starts strictly after the last row of the one before;
 * without one (an order on an enum, a Boolean or an optional field), batches go by offset.
 * Stopping the iteration (a client that disconnects) stops the reads. The position is taken before
 * a batch is yielded, so the consumer may empty each batch once it is done with it (streamed
 * responses do: see `releaseBatch`).
 */
export async function* readInBatches<Row extends object, Where>(
  source: CollectionSource<Row, Where>,
  key: readonly CursorKey[] | undefined,
  batchSize: number = DEFAULT_BATCH_SIZE
): AsyncGenerator<Row[], void, undefined> {
  if (!Number.isSafeInteger(batchSize) || batchSize < 1) {
    throw new RangeError(`The batch size must be a positive integer, ${batchSize} given.`)
  }
  let skip = 0
  let position: unknown[] | undefined
  for (;;) {
    const rows = await source.findMany(
      key && position
        ? {
            take: batchSize,
            past: { keys: key, values: position, backward: false, inclusive: false },
          }
        : { take: batchSize, ...(skip > 0 ? { skip } : {}) }
    )
    const more = rows.length >= batchSize
    if (more) {
      if (key) position = valuesOf(key, rows[rows.length - 1] as Row)
      skip += rows.length
    }
    if (rows.length > 0) yield rows
    if (!more) return
  }
}

/**
 * Empties a batch whose rows are no longer needed (its members are written). The Prisma client's
 * promise of a query (an object with a getter, `spec`) keeps its result array reachable, and V8
 * (Node 20) keeps what an object with its own getter reaches alive through young-generation
 * collections even once the object is garbage: every row read would be promoted, and a million rows
 * fill the old generation with garbage only a full collection frees (measured: 260 MB promoted,
 * +60 to +90 MB of peak RSS). Emptied, a batch's rows die young. Only for arrays this runtime owns:
 * each `CollectionSource.findMany` call returns a new one.
 */
export function releaseBatch(batch: unknown[]): void {
  batch.length = 0
}

function valuesOf(key: readonly CursorKey[], row: object): unknown[] {
  return key.map((entry) => (row as Record<string, unknown>)[entry.field])
}

/**
 * Groups a sequence into arrays of `size` items, so a streamed response writes few large chunks.
 * `read` bounds the reading of each batch (the request's budget). The sequence is closed on every
 * early exit: the consumer stops, or a batch fails or runs out of time.
 */
export async function* inBatches<T>(
  source: Iterable<T> | AsyncIterable<T>,
  size: number,
  read: (batch: () => Promise<T[]>) => Promise<T[]> = (batch) => batch()
): AsyncGenerator<T[], void, undefined> {
  const iterator =
    Symbol.asyncIterator in source
      ? (source as AsyncIterable<T>)[Symbol.asyncIterator]()
      : (source as Iterable<T>)[Symbol.iterator]()
  let finished = false
  const readBatch = async (): Promise<T[]> => {
    const batch: T[] = []
    while (batch.length < size) {
      const next = await iterator.next()
      if (next.done) {
        finished = true
        break
      }
      batch.push(next.value)
    }
    return batch
  }
  try {
    for (;;) {
      const batch = await read(readBatch)
      if (batch.length > 0) yield batch
      if (finished) return
    }
  } finally {
    if (!finished) await iterator.return?.()
  }
}
