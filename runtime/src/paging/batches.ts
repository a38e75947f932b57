/**
 * Unpaged collections read in batches (DESIGN D5): a response of a million rows never holds more
 * than one batch, and each batch after the first starts past the last row read (a keyset), so
 * reading the whole table costs what reading it once costs.
 */
import { type CursorKey, keysetWhere } from './cursor.js'
import type { CollectionSource } from './offset.js'

/** Rows per query when an unpaged collection is read in batches. */
export const DEFAULT_BATCH_SIZE = 500

/**
 * Reads every row of `source`, in its order, `batchSize` rows per query. With `key` (the order as a
 * keyset key, unique together) each batch starts strictly after the last row of the one before;
 * without one (an order on an enum, a Boolean or an optional field), batches go by offset.
 * Stopping the iteration (a client that disconnects) stops the reads.
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
  let last: Row | undefined
  for (;;) {
    const rows = await source.findMany(
      key && last
        ? { take: batchSize, where: keysetWhere(key, valuesOf(key, last), false, false) as Where }
        : { take: batchSize, ...(skip > 0 ? { skip } : {}) }
    )
    if (rows.length > 0) yield rows
    if (rows.length < batchSize) return
    last = rows[rows.length - 1]
    skip += rows.length
  }
}

function valuesOf(key: readonly CursorKey[], row: object): unknown[] {
  return key.map((entry) => (row as Record<string, unknown>)[entry.field])
}
