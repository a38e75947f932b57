/**
 * @module
 * Database work on a driver that holds the process while it reads takes turns with the event loop
 * (docs/deployment.md#timeouts). SQLite's drivers on Node, Bun and Deno (better-sqlite3, libsql on
 * a local file) answer a statement before the call returns, so a request's reads run within the
 * turn of the loop that read the request. A turn reads every request ready on the connections
 * already open, each of which then reads at once, and accepts one new connection (libuv, under
 * Node 20 and later, accepts one connection a turn): a connection waiting to be accepted waits
 * for as many turns as there are connections ahead of it, each as long as the reads of every
 * request read in it. That wait comes before its request is read, outside every budget: under a
 * load of a hundred connections opened together, seconds.
 *
 * In line, one piece of work starts per turn of the loop, in the order the pieces came, and none
 * while requests keep joining the line (for up to MOST_HELD turns): the loop accepts the
 * connections waiting, reads their requests, whose work joins the line, and fires timers between
 * two pieces. A request's wait is then a wait in the line, which its budget bounds: work whose
 * request stopped waiting (a 503 at the end of its budget) leaves the line without being started.
 * The line is the process's, as the loop is: every database and app of the process takes its
 * turns in it.
 */
import { AsyncResource } from 'node:async_hooks'

/** A piece of work in the line: started once its turn comes, unless its request left. */
interface Waiting {
  start(): void
  left: boolean
  /**
   * The async context of its request, in which its turn starts it (its trace's spans, the app's
   * own AsyncLocalStorage), as it would have started at once.
   */
  context: AsyncResource
}

/**
 * Most turns in a row the next piece is held back while requests keep joining the line: the loop
 * accepts a connection a turn, so a hundred connections opened together are all read within a
 * couple of pieces, and a stream of new connections does not stop the line.
 */
export const MOST_HELD = 64

/**
 * The pieces waiting, first in line first. A piece leaves the array when it starts or is found
 * gone: kept until the line next rested, a started piece kept what its work holds (its request's
 * rows, its document) alive for as long as the line stayed busy.
 */
const line: Waiting[] = []
/** Whether the line takes turns: from a piece's start until a turn passes with none waiting. */
let active = false
/** Whether the last turn had no piece waiting: one more such turn, and the line rests. */
let quiet = false
/** Pieces that joined the line since the last turn. */
let joined = 0
/** Turns in a row the next piece was held back. */
let held = 0

/** The line's turn, in the check phase of each turn of the loop (setImmediate) while active. */
function turn(): void {
  const arrived = joined
  joined = 0
  while (line.length > 0 && (line[0] as Waiting).left) line.shift()
  if (line.length === 0) {
    if (quiet) {
      active = false
      return
    }
    quiet = true
    setImmediate(turn)
    return
  }
  quiet = false
  setImmediate(turn)
  // Requests are still being read (and connections accepted): let the loop read them first.
  if (arrived > 0 && held < MOST_HELD) {
    held++
    return
  }
  held = 0
  const waiting = line.shift() as Waiting
  waiting.context.runInAsyncScope(waiting.start, waiting)
}

/** A piece of work in the line. */
export interface Turn<T> {
  /** The work's outcome, once its turn came and it ran. */
  result: Promise<T>
  /** Takes the work out of the line if it has not started (its request is answered). */
  leave(): void
}

/**
 * `start` in the line: at once when the line rests (an idle process adds no delay), else in a
 * later turn, one piece a turn, in order.
 */
export function inLine<T>(start: () => PromiseLike<T>): Turn<T> {
  let settle: (work: PromiseLike<T>) => void = () => {}
  let fail: (error: unknown) => void = () => {}
  const result = new Promise<T>((resolve, reject) => {
    settle = resolve
    fail = reject
  })
  const run = () => {
    try {
      settle(start())
    } catch (error) {
      fail(error)
    }
  }
  if (!active) {
    active = true
    quiet = false
    held = 0
    setImmediate(turn)
    run()
    // Started: nothing is left to take out of the line.
    return { result, leave() {} }
  }
  // The piece keeps its request's context and its turn runs it there. Neither
  // `AsyncResource.bind`, which on Node 20 wraps two accessors in `util.deprecate` on every
  // call, nor a closure over the two set as the piece's `start`: with it, a server started under
  // load had V8 allocate its requests' pages in the old generation, where they kept their rows
  // alive until a full collection (docs/performance.md#the-line-of-database-work).
  const waiting: Waiting = {
    left: false,
    start: run,
    context: new AsyncResource('prisma-hydra.turn'),
  }
  line.push(waiting)
  joined++
  return {
    result,
    leave() {
      waiting.left = true
    },
  }
}

/**
 * Whether the database work of `provider` holds the process while it reads, and so takes turns:
 * SQLite, but on Cloudflare Workers. There D1 answers asynchronously, and a Worker runs each
 * request's I/O in a context of its own: work started from another request's turn would be
 * refused, and a timer set after a response was sent need not run.
 */
export function takesTurns(provider: string | undefined): boolean {
  return provider === 'sqlite' && !onWorkers()
}

/** Cloudflare Workers, by the `navigator.userAgent` they give every Worker. */
function onWorkers(): boolean {
  const { navigator } = globalThis as { navigator?: { userAgent?: unknown } }
  return navigator?.userAgent === 'Cloudflare-Workers'
}

/**
 * Whether the work of the Prisma client `client` takes turns (takesTurns), by the provider the
 * client records (`_activeProvider`, a member of the generated client's class: Prisma has no other
 * way to ask a client for its database). Undefined, or any other object: no turns.
 */
export function clientTakesTurns(client: object | undefined): boolean {
  const provider = (client as { _activeProvider?: unknown } | undefined)?._activeProvider
  return typeof provider === 'string' && takesTurns(provider)
}
