/**
 * A check of a benchmark's answers that a server could not answer: that line is left out of the
 * run and the report says why, rather than the run stopping.
 */

/**
 * Thrown by a check when a server answers `503`: it could not read the page within its time budget
 * (the app's `timeouts.query`, 10 s by default) or its database was unreachable; the line is then
 * not measured, and the report says why.
 */
export class Unanswered extends Error {
  constructor(
    /** The server that answered `503` (a kind of bench/peers-server.ts). */
    readonly server: string,
    message: string
  ) {
    super(message)
  }
}

/** The error of a check's answer that is not 200: Unanswered for a `503`. */
export function refusedCheck(name: string, path: string, status: number, body: string): Error {
  const message = `${name} ${path}: ${status} ${body.slice(0, 400)}`
  return status === 503 ? new Unanswered(name, message) : new Error(message)
}
