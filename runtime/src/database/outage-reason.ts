/**
 * The driver's reason for an outage, on one line, as the outage log names it
 * (docs/deployment.md#outage-log).
 */
import { causesOf } from './causes.js'
import { driverReason } from './dialects.js'

/**
 * Why the database could not serve, in the driver's words. The `mariadb` driver's message spans
 * lines (its pool appends its connections on a line of their own, `\n    (pool connections:
 * active=0 idle=0 limit=10)`) and the connection failure behind a pool timeout is its `cause`:
 * both are kept, on one line. Then the driver's own message a driver adapter keeps
 * (`originalMessage`) where the adapter's kind and Prisma's words say less: better-sqlite3's
 * `database is locked` is the adapter's `SocketTimeout`, which Prisma words "Operation has timed
 * out". Otherwise an error's message, whose last line is the reason (Prisma's messages begin with
 * the invocation and its code frame).
 */
export function outageReason(error: unknown): string {
  for (const current of causesOf(error)) {
    const reason = driverReasonWithCause(current)
    if (reason !== undefined) return reason
  }
  for (const current of causesOf(error)) {
    const { originalMessage } = current as { originalMessage?: unknown }
    if (typeof originalMessage === 'string' && originalMessage.trim() !== '')
      return oneLine(originalMessage)
  }
  if (!(error instanceof Error)) return oneLine(String(error))
  const lines = error.message.split('\n').filter((line) => line.trim() !== '')
  return oneLine(lines.at(-1) ?? error.name)
}

/**
 * The reason a driver gives (dialects.ts, `driverReason`: the `mariadb` driver's `sqlMessage`, or
 * its adapter's `message`), with the message of the error behind it (a pool timeout's connection
 * failure), or undefined for an error of no such driver.
 */
function driverReasonWithCause(current: object): string | undefined {
  const own = driverReason(current)
  if (own === undefined) return undefined
  const { cause } = current as { cause?: unknown }
  const behind = cause instanceof Error ? cause.message : cause
  return oneLine(typeof behind === 'string' && behind !== '' ? `${own}; cause: ${behind}` : own)
}

/** `text` with each line break and the blanks around it made one space. */
function oneLine(text: string): string {
  return text.trim().replace(/\s*\n\s*/g, ' ')
}
