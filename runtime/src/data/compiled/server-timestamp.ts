/**
 * @module
 * PostgreSQL's text of a timestamp or a time, as a driver without Prisma 7's adapter hands it
 * (Prisma 8's: `2026-01-02 03:04:05.678`, `2026-01-02 03:04:05.678+00`, `03:04:05`), made the text
 * `@prisma/adapter-pg` gives for it (`2026-01-02T03:04:05.678+00:00`), which the compiled engine
 * reads a DateTime from (row-values.ts): read as it is, a text without a zone would be read in the
 * process's own time zone. Only a DateTime field's value is read so.
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
export function adapterTimestamp(value: string): string {
  if (value.length < 19 || value.charCodeAt(10) !== 32) return value
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

/**
 * `HH:MM:SS`, up to six digits of a second, and a zone of hours or none: PostgreSQL's `time` and
 * `timetz`.
 */
const SERVER_TIME =
  /^(\d{2}):(\d{2}):(\d{2})(\.\d{1,6})?(?:([+-])(\d{2})(?::(\d{2}))?(?::(\d{2}))?)?$/

/**
 * A time of day's text as the DateTime Prisma 7 reads it, on 1970-01-01 in UTC (a zone moves it
 * to UTC), in the adapter's form; `value` itself when it is no such text.
 */
export function adapterTime(value: string): string {
  const match = SERVER_TIME.exec(value)
  if (!match) return value
  const [, hours, minutes, seconds, fraction = '', sign, zoneHours, zoneMinutes, zoneSeconds] =
    match
  const offset =
    sign === undefined
      ? 0
      : (sign === '-' ? -1 : 1) *
        (Number(zoneHours) * 3600 + Number(zoneMinutes ?? 0) * 60 + Number(zoneSeconds ?? 0))
  const time = Date.UTC(1970, 0, 1, Number(hours), Number(minutes), Number(seconds)) - offset * 1000
  return `${new Date(time).toISOString().slice(0, 19)}${fraction}+00:00`
}
