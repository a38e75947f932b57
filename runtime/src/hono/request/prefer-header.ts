/**
 * @module
 * The `Prefer` request header as RFC 7240 (section 2) writes it: a comma-separated list of
 * preferences, each a token with an optional value (a token or a quoted string) and parameters
 * after `;`, over one header line or several. Written here rather than taken from the registry:
 * its one parser of the header (`parse-prefer-header`) is CommonJS, has had one release, accepts
 * any text as a name and does not read a quoted string's escapes.
 */

const TOKEN = "[!#$%&'*+\\-.^_`|~0-9A-Za-z]+"
const QUOTED = '"(?:[^"\\\\]|\\\\[\\s\\S])*"'
const WORD = `(?:${TOKEN}|${QUOTED})`
const PARAMETER = `${TOKEN}(?:[ \\t]*=[ \\t]*${WORD})?`
/** One preference: its name, its value, then its parameters (read for their form only). */
const PREFERENCE = new RegExp(
  `^[ \\t]*(${TOKEN})(?:[ \\t]*=[ \\t]*(${WORD}))?(?:[ \\t]*;(?:[ \\t]*${PARAMETER})?)*[ \\t]*$`
)

/** The elements of a list header: split at the commas outside quoted strings. */
function elements(line: string): string[] {
  const parts: string[] = []
  let start = 0
  let quoted = false
  for (let index = 0; index < line.length; index++) {
    const char = line[index]
    if (quoted && char === '\\') index++
    else if (char === '"') quoted = !quoted
    else if (char === ',' && !quoted) {
      parts.push(line.slice(start, index))
      start = index + 1
    }
  }
  parts.push(line.slice(start))
  return parts
}

/** A word's text: a quoted string without its quotes and escapes, a token as it is. */
function wordText(word: string): string {
  if (!word.startsWith('"')) return word
  return word.slice(1, -1).replace(/\\([\s\S])/g, '$1')
}

/**
 * The preferences of a request's `Prefer` headers, by name in lower case (names are
 * case-insensitive), each with its value ('' when it has none). A preference named twice counts
 * once, as first given; an element that is not a preference's form is left out, as RFC 7240 asks
 * of preferences a server cannot read, and so is an empty one (`a, , b`).
 */
export function readPreferences(lines: readonly string[]): Map<string, string> {
  const preferences = new Map<string, string>()
  for (const line of lines) {
    for (const element of elements(line)) {
      const match = PREFERENCE.exec(element)
      if (!match) continue
      const name = (match[1] as string).toLowerCase()
      if (!preferences.has(name)) preferences.set(name, wordText(match[2] ?? ''))
    }
  }
  return preferences
}
