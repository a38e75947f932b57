/**
 * @module
 * The `Server-Timing` of a result read from one HTTP answer of the API, in the result's `_meta`
 * under `TIMING_KEY`: each metric of the answer's header as `{ name, dur, desc }`, so that an
 * operator sees, for each tool call, where its sub-request spent its time (`db`, `count`,
 * `serialize`) and whether the compiled engine handed its read to the `prisma` engine
 * (`handoff` with the cause as `desc`; observe/server-timing.ts writes the header). No parser of
 * the header is kept up on the registry (its packages there write the header, or serve one
 * framework), so the grammar is read here: W3C Server-Timing's `metric *( "," metric )`, each
 * `name *( ";" param )`, a param's value a token or a quoted string.
 */

/** The `_meta` key of a result's timings. */
const TIMING_KEY = 'prisma-hydra/timing'

/** A metric of a `Server-Timing` header. */
export interface TimingEntry {
  name: string
  /** Its duration in milliseconds, when the header gives one. */
  dur?: number
  /** Its description, when the header gives one. */
  desc?: string
}

/** A quoted string's value from its opening quote at `at`, and the index past its closing one. */
function quoted(header: string, at: number): [string, number] {
  let text = ''
  let index = at + 1
  while (index < header.length && header[index] !== '"') {
    // A backslash quotes the character after it.
    if (header[index] === '\\') index++
    text += header[index] ?? ''
    index++
  }
  return [text, index + 1]
}

/**
 * The metrics of a `Server-Timing` header, in its order: a metric's name, and its first `dur`
 * and first `desc` (the specification ignores a repeated parameter, and any other); a metric
 * without a name is left out, and so is a `dur` that is no number.
 */
export function parseServerTiming(header: string): TimingEntry[] {
  const entries: TimingEntry[] = []
  let at = 0
  const token = () => {
    const start = at
    while (at < header.length && !',;="'.includes(header[at] as string)) at++
    return header.slice(start, at).trim()
  }
  const value = () => {
    while (header[at] === ' ' || header[at] === '\t') at++
    if (header[at] !== '"') return token()
    const [text, next] = quoted(header, at)
    at = next
    return text
  }
  /** Past what is left of a parameter or a metric, to the next `;` or `,` (`stops`). */
  const skipTo = (stops: string) => {
    while (at < header.length && !stops.includes(header[at] as string)) at++
  }
  while (at < header.length) {
    const name = token()
    const entry: TimingEntry = { name }
    const seen = new Set<string>()
    skipTo(';,')
    while (header[at] === ';') {
      at++
      const key = token().toLowerCase()
      let given = ''
      if (header[at] === '=') {
        at++
        given = value()
      }
      if (key === 'dur' && !seen.has(key)) {
        const dur = Number(given)
        if (given !== '' && Number.isFinite(dur)) entry.dur = dur
      } else if (key === 'desc' && !seen.has(key)) entry.desc = given
      seen.add(key)
      skipTo(';,')
    }
    at++
    if (name !== '') entries.push(entry)
  }
  return entries
}

/** `result` with the `Server-Timing` of `response` in its `_meta`, when the answer has one. */
export function withTiming<T extends Record<string, unknown>>(result: T, response: Response): T {
  const header = response.headers.get('Server-Timing')
  if (header === null) return result
  const meta = (result._meta ?? {}) as Record<string, unknown>
  return { ...result, _meta: { ...meta, [TIMING_KEY]: parseServerTiming(header) } }
}
