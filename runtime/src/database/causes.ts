/**
 * The errors an error stands for, outermost first: itself, then what it wraps. A driver adapter
 * error (`DriverAdapterError`) wraps its driver's description in `cause`; a Prisma error wraps the
 * driver adapter error in `meta.driverAdapterError`; any other error in `cause`. A cycle ends the
 * walk.
 */
export function* causesOf(error: unknown): Generator<object> {
  const seen = new Set<unknown>()
  let current: unknown = error
  while (typeof current === 'object' && current !== null && !seen.has(current)) {
    seen.add(current)
    yield current
    const { name, cause, meta } = current as {
      name?: unknown
      cause?: unknown
      meta?: { driverAdapterError?: unknown }
    }
    current = name === 'DriverAdapterError' ? cause : (meta?.driverAdapterError ?? cause)
  }
}
