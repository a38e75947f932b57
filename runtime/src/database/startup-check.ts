/**
 * A start-up check of the database (docs/deployment.md#start-up-check): one trivial query before
 * the server listens, so that a wrong URL, a server that is down or a refused login stops the
 * start with one line naming the database and the reason, instead of a failure per request.
 */
import { QueryTimeout, withinBudget } from './timeouts.js'

/** The default bound of the check, in milliseconds. */
const DEFAULT_CHECK_TIMEOUT = 10_000

/** What the check needs of a Prisma client: `$queryRawUnsafe`, which every SQL client has. */
export interface CheckedClient {
  /** Runs a query given as text. */
  $queryRawUnsafe(query: string): PromiseLike<unknown>
}

/** Options of `checkDatabase`. */
export interface DatabaseCheckOptions {
  /** The database's URL, named in the message (a password in it is masked). */
  url?: string | undefined
  /** How long to wait for the answer, in milliseconds (default 10,000). */
  timeout?: number | undefined
}

/** Thrown by `checkDatabase`: its message names the database and the reason. */
export class DatabaseUnreachable extends Error {
  constructor(message: string, options: { cause: unknown }) {
    super(message, options)
    this.name = 'DatabaseUnreachable'
  }

  /**
   * `error`, a failure of the database work of a start (the check, or what comes after it: a
   * schema push, a seed), as one line naming the database (`url`, masked) and the reason.
   */
  static of(error: unknown, options: DatabaseCheckOptions = {}): DatabaseUnreachable {
    if (error instanceof DatabaseUnreachable) return error
    const timeout = options.timeout ?? DEFAULT_CHECK_TIMEOUT
    const named = options.url ? ` ${maskedUrl(options.url)}` : ''
    return new DatabaseUnreachable(
      `The database${named} cannot be used: ${reasonOf(error, timeout)}`,
      { cause: error }
    )
  }
}

/** `url` with its password masked (`postgres://app:***@db:5432/shop`); other text as it is. */
function maskedUrl(url: string): string {
  try {
    const parsed = new URL(url)
    if (!parsed.password) return url
    parsed.password = '***'
    return parsed.toString()
  } catch {
    return url
  }
}

/** Prisma's wrapping of a driver's failure in a raw query (P2010). */
const RAW_QUERY_FAILED = /Code: `([^`]*)`\. Message: `([^`]*)`/

/** The header Prisma's client puts before a failure: ``Invalid `prisma.$queryRawUnsafe()` invocation:``. */
const PRISMA_INVOCATION = /^Invalid `[^`]*` invocation:?$/

/**
 * A line of a backtrace within a message: Prisma's schema engine writes its frames
 * (`0: schema_commands::…`, `at schema-engine/…`) into the message of its errors.
 */
const BACKTRACE = /^(\d+: |at )/

/**
 * The reason of a failure in one line: the driver's message and code when Prisma wraps them
 * (`Raw query failed. Code: ... Message: ...`), else the whole message without Prisma's header
 * and any backtrace, its lines joined: a driver that cannot load says why over several lines
 * (Bun: "'better-sqlite3' is not yet supported in Bun." then a link and a suggestion), and each
 * is part of the reason.
 */
function reasonOf(error: unknown, timeout: number): string {
  if (error instanceof QueryTimeout) return `no answer within ${timeout} ms`
  const message = error instanceof Error ? error.message : String(error)
  const wrapped = RAW_QUERY_FAILED.exec(message)
  if (wrapped) return wrapped[1] === 'N/A' ? `${wrapped[2]}` : `${wrapped[2]} (${wrapped[1]})`
  const lines = message
    .split('\n')
    .map((part) => part.trim())
    .filter((part) => part && !PRISMA_INVOCATION.test(part) && !BACKTRACE.test(part))
  return lines.length > 0 ? lines.join(' ') : message
}

/**
 * Runs `SELECT 1` through `prisma` within `timeout`; rejects with a DatabaseUnreachable naming
 * the database (`url`, masked) and the reason when it fails or does not answer in time.
 *
 * @example
 * Before the server listens:
 * ```ts
 * import { checkDatabase, DatabaseUnreachable } from '@prisma-hydra/runtime'
 *
 * try {
 *   await checkDatabase(prisma, { url: process.env.DATABASE_URL, timeout: 10_000 })
 * } catch (error) {
 *   if (!(error instanceof DatabaseUnreachable)) throw error
 *   console.error(error.message) // The database postgres://app:***@db:5432/shop cannot be used: …
 *   process.exit(1)
 * }
 * ```
 */
export async function checkDatabase(
  prisma: CheckedClient,
  options: DatabaseCheckOptions = {}
): Promise<void> {
  const timeout = options.timeout ?? DEFAULT_CHECK_TIMEOUT
  try {
    await withinBudget(prisma.$queryRawUnsafe('SELECT 1'), timeout)
  } catch (error) {
    throw DatabaseUnreachable.of(error, { ...options, timeout })
  }
}
