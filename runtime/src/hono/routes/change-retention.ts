/**
 * @module
 * The change log's retention (`createHydraApp({ changes: { retainSeconds } })`, docs/syncing.md):
 * each feed's requests prune its model's entries older than the age set, at most once every
 * quarter of that age (and at least once a minute), each pruning awaited by the request that
 * starts it.
 */
import type { ChangeLog } from '../../data/changes/change-log.js'

/** How long the change log keeps its entries (docs/syncing.md#retention). */
export interface ChangeFeedSettings {
  /**
   * Entries older than this many seconds (by the database's clock) that every reader can read are
   * removed; a feed's token older than what is kept is answered 410. Left out: nothing is pruned.
   */
  retainSeconds?: number | undefined
}

/** The pruning of `model`'s entries of `log` under `settings`: a function each feed request awaits. */
export function pruning(
  log: ChangeLog,
  model: string,
  settings: ChangeFeedSettings | undefined
): () => Promise<void> {
  const seconds = settings?.retainSeconds
  if (seconds === undefined) return async () => {}
  if (!Number.isFinite(seconds) || seconds < 1)
    throw new TypeError(`changes.retainSeconds: ${seconds} is no number of seconds of at least 1.`)
  const every = Math.min(60, seconds / 4) * 1000
  let last = Number.NEGATIVE_INFINITY
  let running: Promise<void> | undefined
  return () => {
    if (running) return running
    if (Date.now() - last < every) return Promise.resolve()
    last = Date.now()
    running = log.prune(model, seconds).finally(() => {
      running = undefined
    })
    return running
  }
}
