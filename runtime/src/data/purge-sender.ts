/**
 * @module
 * How hydraInvalidation (data/prisma7/purge-extension.ts) sends what a committed write changed
 * (docs/caching.md#purge-on-write): the shared totals' drop, then the purge, after the write's
 * answer left (never awaited by the write), each kept until it ends so that a script or a queue
 * consumer may wait for them (`settled()`), and a failed purge logged once per episode, as a
 * database outage is (database/outage.ts): one line when purges start failing, one when a purge
 * succeeds again, whatever the number of writes between.
 */

import { causesOf } from '../database/causes.js'
import { type OutageLog, outageLogFor } from '../database/outage.js'
import type { HydraLogger } from '../observe/logger.js'
import { type CountStore, dropSharedCounts } from './shared-totals.js'
import { coarseValueTags } from './value-tags.js'
import type { WriteTags } from './written-rows.js'

/** What the extension hands a committed write's tags to, and what a script waits for. */
interface PurgeSender {
  /**
   * Drops the totals reading `written.models` and purges `written.tags`, once the write's answer
   * left.
   */
  send(written: WriteTags): void
  /** Resolves once every drop and purge sent so far (and any sent meanwhile) has ended. */
  settled(): Promise<void>
}

/** A purge of the extension (its `PurgeTags`). */
type Purge = (tags: readonly string[]) => unknown

/** The episodes of each purge, shared by every extension purging through it. */
const episodes = new WeakMap<Purge, OutageLog>()

/** How the purges' episodes are worded and named (docs/operations.md#logger). */
const PURGE_EPISODES = {
  subject: 'the cache purge',
  meanwhile: 'writes leave the cached answers they change to expire',
  counted: 'purges failed, their answers left to expire',
  events: { start: 'purge.error', end: 'purge.end' },
}

/**
 * The innermost error behind `error` (`fetch failed`'s refused connection), whose message the log
 * line gives as the reason.
 */
function innermost(error: unknown): unknown {
  let last: unknown = error
  for (const current of causesOf(error)) last = current
  return last
}

/** The sender of one extension: its `purge`, its `totals`, its logger. */
export function purgeSender(
  purge: Purge | undefined,
  totals: CountStore | undefined,
  logger: HydraLogger
): PurgeSender {
  const running = new Set<Promise<void>>()
  const log = purge ? outageLogFor(episodes, purge, PURGE_EPISODES).through(logger) : undefined
  const run = async (list: string[], models: string[]) => {
    // The totals first: an answer a purged cache asks again for must not show a dropped count.
    if (totals) await dropSharedCounts(totals, models, logger)
    if (!purge || !log) return
    try {
      await purge(list)
    } catch (error) {
      log.failed(innermost(error))
      return
    }
    log.succeeded()
  }
  return {
    send({ tags, models }) {
      if (tags.size === 0) return
      const list = coarseValueTags([...tags])
      // Never awaited by the write: its answer leaves first, whatever the purge and drop do.
      // A failure is the log's (run catches the purge's); one of the logger itself ends here, so
      // that neither an unhandled rejection nor a rejected settled() comes of it.
      const work = new Promise((resolve) => setTimeout(resolve, 0))
        .then(() => run(list, [...models]))
        .catch(() => undefined)
      running.add(work)
      void work.finally(() => running.delete(work))
    },
    async settled() {
      while (running.size > 0) await Promise.all(running)
    },
  }
}
