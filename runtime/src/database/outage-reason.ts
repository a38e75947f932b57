/**
 * The driver's reason for an outage, on one line, as the outage log names it
 * (docs/deployment.md#outage-log).
 */
import { causesOf } from './causes.js'

/**
 * Why the database could not serve, in the driver's words. The `mariadb` driver's message spans
 * lines (its pool appends its connections on a line of their own, `\n    (pool connections:
 * active=0 idle=0 limit=10)`) and the connection failure behind a pool timeout is its `cause`:
 * both are kept, on one line. Otherwise an error's message, whose last line is the reason
 * (Prisma's messages begin with the invocation and its code frame).
 */
export function outageReason(error: unknown): string {
  for (const current of causesOf(error)) {
    const mysql = mysqlReason(current)
    if (mysql !== undefined) return mysql
  }
  if (!(error instanceof Error)) return oneLine(String(error))
  const lines = error.message.split('\n').filter((line) => line.trim() !== '')
  return oneLine(lines.at(-1) ?? error.name)
}

/**
 * The reason of a MariaDB/MySQL error: the `mariadb` driver's own (`sqlMessage`, its cause's
 * message), or `@prisma/adapter-mariadb`'s description of one (`kind: 'mysql'`: the driver's
 * `message`, its cause's message as `cause`).
 */
function mysqlReason(current: object): string | undefined {
  const { kind, message, sqlMessage, cause } = current as {
    kind?: unknown
    message?: unknown
    sqlMessage?: unknown
    cause?: unknown
  }
  const own = kind === 'mysql' ? message : sqlMessage
  if (typeof own !== 'string') return undefined
  const behind = cause instanceof Error ? cause.message : cause
  return oneLine(typeof behind === 'string' && behind !== '' ? `${own}; cause: ${behind}` : own)
}

/** `text` with each line break and the blanks around it made one space. */
function oneLine(text: string): string {
  return text.trim().replace(/\s*\n\s*/g, ' ')
}
