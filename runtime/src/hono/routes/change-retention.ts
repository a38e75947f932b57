/**
 * @module
 * The change log's retention (`createHydraApp({ changes: { retainSeconds } })`, docs/syncing.md):
 * the feeds' requests prune the entries older than the age set, of every model whose feed the
 * app serves over the same client (so that a feed no client reads is pruned too), at most once
 * every quarter of that age (and at least once a minute), each pruning awaited by the request
 * that starts it.
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

/** The pruning of the feeds over one client at one age: their models, when it last ran. */
interface Schedule {
  models: Set<string>
  last: number
  running: Promise<void> | undefined
}

/** By client (the app's Prisma client) and age, the feeds' shared pruning. */
const schedules = new WeakMap<object, Map<number, Schedule>>()

/**
 * The pruning of `model`'s feed over `client` (read through `log`) under `settings`: a function
 * each of its requests awaits, which prunes the entries of every feed's model over that client.
 */
export function pruning(
  log: ChangeLog,
  client: object,
  model: string,
  settings: ChangeFeedSettings | undefined
): () => Promise<void> {
  const seconds = settings?.retainSeconds
  if (seconds === undefined) return async () => {}
  if (!Number.isFinite(seconds) || seconds < 1)
    throw new TypeError(`changes.retainSeconds: ${seconds} is no number of seconds of at least 1.`)
  const every = Math.min(60, seconds / 4) * 1000
  const byAge = schedules.get(client) ?? new Map<number, Schedule>()
  schedules.set(client, byAge)
  const schedule = byAge.get(seconds) ?? {
    models: new Set<string>(),
    last: Number.NEGATIVE_INFINITY,
    running: undefined,
  }
  byAge.set(seconds, schedule)
  schedule.models.add(model)
  return () => {
    if (schedule.running) return schedule.running
    if (Date.now() - schedule.last < every) return Promise.resolve()
    schedule.last = Date.now()
    schedule.running = (async () => {
      for (const name of schedule.models) await log.prune(name, seconds)
    })().finally(() => {
      schedule.running = undefined
    })
    return schedule.running
  }
}
