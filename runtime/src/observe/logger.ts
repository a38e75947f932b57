/**
 * @module
 * The runtime's log (docs/operations.md#logger): every line it writes (an outage of a database
 * starting and ending, a read replica or the totals store passed by, a failure of the server, a
 * stream cut off after its response began) is a record handed to the app's logger: a level, a
 * message and fields a log pipeline can read without parsing the message. Left out, the console.
 */

/** How much a line matters: `error` (a failure), `warn` (served otherwise), `info` (back to normal). */
export type LogLevel = 'error' | 'warn' | 'info'

/** One line of the runtime's log. */
export interface HydraLogRecord {
  /** Whether the line is a failure (`error`), a fallback (`warn`) or a recovery (`info`). */
  level: LogLevel
  /** One line, without the `prisma-hydra:` prefix the console adds. */
  message: string
  /**
   * What the message says, as values: `event` (`outage.start`, `outage.end`, `server.error`...)
   * always, and as the event has them `database`, `reason`, `seconds`, `requests`, `error`.
   */
  fields: HydraLogFields
}

/** The fields of a record: `event` names what happened; the rest depends on it. */
export interface HydraLogFields {
  /** What happened, as a dotted name (`outage.start`, `outage.end`, `server.error`...). */
  event: string
  /** The error behind the line, with its stack, when there is one. */
  error?: unknown
  [field: string]: unknown
}

/**
 * Where the runtime's log goes (`createHydraApp({ logger })`): a function of each record, such as
 * `(record) => pino[record.level](record.fields, record.message)`. It must not throw.
 */
export type HydraLogger = (record: HydraLogRecord) => void

/**
 * The default logger: each line on the standard error as `prisma-hydra: <message>`, followed by
 * its error (with the stack) when it has one.
 */
export const consoleLogger: HydraLogger = ({ message, fields }) => {
  if (fields.error === undefined) console.error(`prisma-hydra: ${message}`)
  else console.error(`prisma-hydra: ${message}`, fields.error)
}

/** The logger given, or the console's. */
export const loggerOf = (logger: HydraLogger | undefined): HydraLogger => logger ?? consoleLogger
