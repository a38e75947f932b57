/**
 * @module
 * PostgreSQL's text of a timestamp made the text `@prisma/adapter-pg` gives for it. Prisma 8's
 * driver hands `timestamp` and `timestamptz` values as the server writes them (`2026-01-02
 * 03:04:05.678`, `2026-01-02 03:04:05.678+00`), where the adapter writes `2026-01-02T03:04:05.678+00:00`:
 * the compiled engine reads a DateTime from the adapter's form (row-values.ts), and would read the
 * server's text without a zone in the process's own time zone.
 *
 * A row comes without its columns' types, so the text is recognised by its form alone: a String
 * field whose value is exactly such a text would be read in the adapter's form too.
 */

/**
 * `YYYY-MM-DD HH:MM:SS`, up to six digits of a second, and a zone of hours (`+05`, `-03:30`,
 * `+05:53:28`) or none: PostgreSQL's `timestamp` and `timestamptz` under its default DateStyle
 * (ISO), years 1000 to 9999 AD.
 */
const SERVER_TIMESTAMP =
  /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})(\.\d{1,6})?(?:([+-])(\d{2})(?::(\d{2}))?(?::(\d{2}))?)?$/

/**
 * `value` in `@prisma/adapter-pg`'s form when it is a timestamp's text as PostgreSQL writes it,
 * else `value` itself. A timestamp without a zone is UTC, as Prisma stores a DateTime; one with a
 * zone is moved to UTC (the adapter relabels the zone `+00:00`, right when the session's time zone
 * is UTC, as Prisma's sessions are).
 */
export function adapterTimestamp(value: unknown): unknown {
  if (typeof value !== 'string' || value.length < 19 || value.charCodeAt(10) !== 32) return value
  const match = SERVER_TIMESTAMP.exec(value)
  if (!match) return value
  const [, date, time, fraction = '', sign, hours, minutes, seconds] = match
  const offset =
    sign === undefined
      ? 0
      : (sign === '-' ? -1 : 1) *
        (Number(hours) * 3600 + Number(minutes ?? 0) * 60 + Number(seconds ?? 0))
  if (offset === 0) return `${date}T${time}${fraction}+00:00`
  const utc = new Date(Date.parse(`${date}T${time}Z`) - offset * 1000).toISOString()
  return `${utc.slice(0, 19)}${fraction}+00:00`
}
