/**
 * Parser for the `@name(key: value, ...)` annotations found in a model's or field's `///` comments.
 *
 * Values are a small JSON-like language: numbers, strings ("..." or '...'), `true`, `false`, `null`,
 * bare words (`DESC`), lists `[a, b]` and objects `{ key: value }`. A trailing comma is allowed.
 * The parser returns a result instead of throwing, and every error carries the column it
 * happened at, so messages can point at the exact spot in the comment.
 */

/**
 * A value of an annotation's argument: a number, a string, `true`, `false`, `null`, a bare word (as
 * a string), a list or an object.
 */
export type AnnotationValue =
  | string
  | number
  | boolean
  | null
  | AnnotationValue[]
  | { [key: string]: AnnotationValue }

/** One annotation of a `///` comment: `@pagination(itemsPerPage: 10)`. */
export interface Annotation {
  /** The annotation's name without `@`, e.g. `pagination`. */
  name: string
  /** Arguments in the order written. A name given twice is reported as an error. */
  args: Array<{
    /** The argument's name. */
    key: string
    /** Its value. */
    value: AnnotationValue
  }>
  /** `@name` when written without parentheses (a flag such as `@hidden`). */
  bare: boolean
  /** The annotation's source text, for error messages. */
  text: string
}

/** An annotation that could not be read. */
export interface ParseProblem {
  /** The annotation's text. */
  annotation: string
  /** What is wrong, with the column it is at. */
  message: string
}

/** What `parseAnnotations` found: the annotations read, and the problems. */
export interface ParseResult {
  /** The annotations read, in order. */
  annotations: Annotation[]
  /** The annotations that could not be read. */
  problems: ParseProblem[]
}

const NAME_START = /[A-Za-z_]/
const OPENING = { ')': '(', ']': '[', '}': '{' } as const
const NAME_PART = /[A-Za-z0-9_.]/

/**
 * Finds every `@name` or `@name(...)` in a documentation string and parses its arguments.
 * Text that is not an annotation (ordinary comment prose) is ignored; an `@` must start a word.
 */
export function parseAnnotations(documentation: string | undefined): ParseResult {
  const annotations: Annotation[] = []
  const problems: ParseProblem[] = []
  if (!documentation) return { annotations, problems }
  const text = documentation
  let index = 0
  while (index < text.length) {
    const at = text.indexOf('@', index)
    if (at === -1) break
    const before = at === 0 ? '' : text.charAt(at - 1)
    if (before !== '' && /[A-Za-z0-9_]/.test(before)) {
      index = at + 1
      continue
    }
    let end = at + 1
    if (!NAME_START.test(text.charAt(end))) {
      index = end
      continue
    }
    while (end < text.length && NAME_PART.test(text.charAt(end))) end++
    const name = text.slice(at + 1, end)
    if (text.charAt(end) !== '(') {
      annotations.push({ name, args: [], bare: true, text: `@${name}` })
      index = end
      continue
    }
    const parser = new ArgumentParser(text, end + 1)
    const parsed = parser.parseArguments()
    const stop = parser.position
    const source = text.slice(at, Math.min(stop, text.length))
    if ('error' in parsed) {
      problems.push({ annotation: `@${name}`, message: parsed.error })
      index = Math.max(stop, end + 1)
      continue
    }
    annotations.push({ name, args: parsed.args, bare: false, text: source })
    index = stop
  }
  return { annotations, problems }
}

type Parsed<T> = { value: T } | { error: string }

class ArgumentParser {
  position: number
  private readonly lineStarts: number[]

  constructor(
    private readonly text: string,
    start: number
  ) {
    this.position = start
    this.lineStarts = [0]
    for (let i = 0; i < text.length; i++) if (text[i] === '\n') this.lineStarts.push(i + 1)
  }

  /** The arguments after `@name(`, up to and including the closing `)`. */
  parseArguments(): { args: Annotation['args'] } | { error: string } {
    const seen = new Set<string>()
    const entries = this.parseSequence(
      ')',
      () => this.parseEntry(seen),
      (entry) => `expected ',' or ')' after the value of '${entry.key}'`
    )
    return 'error' in entries ? entries : { args: entries.value }
  }

  /** Items separated by commas (a trailing one allowed) up to and including `close`. */
  private parseSequence<T>(
    close: ')' | ']' | '}',
    parseItem: () => Parsed<T>,
    separatorError: (item: T) => string
  ): Parsed<T[]> {
    const unclosed = `unclosed '${OPENING[close]}': expected '${close}'`
    const items: T[] = []
    this.skipSpace()
    while (this.peek() !== close) {
      if (this.atEnd()) return this.fail(unclosed)
      const item = parseItem()
      if ('error' in item) return item
      items.push(item.value)
      this.skipSpace()
      if (this.peek() === ',') {
        this.position++
        this.skipSpace()
      } else if (this.atEnd()) {
        return this.fail(unclosed)
      } else if (this.peek() !== close) {
        return this.fail(separatorError(item.value))
      }
    }
    this.position++
    return { value: items }
  }

  /** `key: value`, where a key already in `seen` is an error pointing at the repeated key. */
  private parseEntry(seen: Set<string>): Parsed<{ key: string; value: AnnotationValue }> {
    const keyStart = this.position
    const key = this.parseKey()
    if ('error' in key) return key
    this.skipSpace()
    if (this.peek() !== ':') return this.fail(`expected ':' after '${key.value}'`)
    this.position++
    const value = this.parseValue()
    if ('error' in value) return value
    if (seen.has(key.value)) {
      this.position = keyStart
      return this.fail(`'${key.value}' is given more than once`)
    }
    seen.add(key.value)
    return { value: { key: key.value, value: value.value } }
  }

  private parseValue(): Parsed<AnnotationValue> {
    this.skipSpace()
    const char = this.peek()
    if (char === '"' || char === "'") return this.parseString(char)
    if (char === '[') return this.parseList()
    if (char === '{') return this.parseObject()
    if (char === '-' || /[0-9]/.test(char)) return this.parseNumber()
    if (NAME_START.test(char)) {
      const word = this.readWord()
      if (word === 'true') return { value: true }
      if (word === 'false') return { value: false }
      if (word === 'null') return { value: null }
      return { value: word }
    }
    if (this.atEnd()) return this.fail('expected a value, found the end of the comment')
    return this.fail(`expected a value, found '${char}'`)
  }

  private parseKey(): Parsed<string> {
    const char = this.peek()
    if (char === '"' || char === "'") return this.parseString(char)
    if (!NAME_START.test(char)) {
      return this.fail(this.atEnd() ? "expected ')'" : `expected an option name, found '${char}'`)
    }
    return { value: this.readWord() }
  }

  private parseString(quote: string): Parsed<string> {
    const start = this.position
    this.position++
    let out = ''
    while (!this.atEnd()) {
      const char = this.text.charAt(this.position)
      if (char === quote) {
        this.position++
        return { value: out }
      }
      if (char === '\n') break
      if (char === '\\') {
        const next = this.text.charAt(this.position + 1)
        const escapes: Record<string, string> = { n: '\n', t: '\t', '\\': '\\', '"': '"', "'": "'" }
        const decoded = escapes[next]
        if (decoded === undefined) return this.fail(`unknown escape '\\${next}' in a string`)
        out += decoded
        this.position += 2
        continue
      }
      out += char
      this.position++
    }
    this.position = start
    return this.fail('unterminated string')
  }

  private parseNumber(): Parsed<number> {
    const match = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/.exec(
      this.text.slice(this.position)
    )
    const after = match ? this.text.charAt(this.position + match[0].length) : ''
    if (!match || NAME_PART.test(after)) {
      const word = /^[^\s,)\]}]*/.exec(this.text.slice(this.position))?.[0] ?? ''
      return this.fail(`'${word}' is not a number`)
    }
    this.position += match[0].length
    return { value: Number(match[0]) }
  }

  private parseList(): Parsed<AnnotationValue[]> {
    this.position++
    return this.parseSequence(
      ']',
      () => this.parseValue(),
      () => "expected ',' or ']' in a list"
    )
  }

  private parseObject(): Parsed<{ [key: string]: AnnotationValue }> {
    this.position++
    const seen = new Set<string>()
    const entries = this.parseSequence(
      '}',
      () => this.parseEntry(seen),
      () => "expected ',' or '}' in an object"
    )
    if ('error' in entries) return entries
    return { value: Object.fromEntries(entries.value.map(({ key, value }) => [key, value])) }
  }

  private readWord(): string {
    const start = this.position
    while (!this.atEnd() && NAME_PART.test(this.text.charAt(this.position))) this.position++
    return this.text.slice(start, this.position)
  }

  private skipSpace(): void {
    while (!this.atEnd()) {
      const char = this.text.charAt(this.position)
      // A wrapped annotation continues on the next `///` line; DMMF has already removed the slashes.
      if (char === ' ' || char === '\t' || char === '\n' || char === '\r') this.position++
      else break
    }
  }

  private peek(): string {
    return this.text.charAt(this.position)
  }

  private atEnd(): boolean {
    return this.position >= this.text.length
  }

  private fail(message: string): { error: string } {
    let line = 0
    while (line + 1 < this.lineStarts.length && (this.lineStarts[line + 1] ?? 0) <= this.position) {
      line++
    }
    const column = this.position - (this.lineStarts[line] ?? 0) + 1
    const where =
      this.lineStarts.length > 1 ? `line ${line + 1}, column ${column}` : `column ${column}`
    return { error: `${message} (at ${where})` }
  }
}
