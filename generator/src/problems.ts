/** One thing wrong (or worth a warning) in the schema annotations or the platform config. */
export interface Problem {
  /** An error stops the generation; a warning is printed. */
  severity: 'error' | 'warning'
  /** Where it is: `Model "Book"`, `Model "Book", field "secret"`, or `platform config (./platform.yaml)`. */
  location: string
  /** The annotation or config section: `@pagination`, `@operation(name: "recent")`, `platform.defaults`. */
  source?: string
  /** The option concerned, as the user wrote it. */
  option?: string
  /** What is wrong, and what to write instead. */
  message: string
}

/** Records one problem at a location the caller fixed; the severity defaults to error. */
export type Report = (
  problem: Omit<Problem, 'severity' | 'location'> & { severity?: Problem['severity'] }
) => void

/** A `Report` that adds its problems to `problems` at `location`. */
export function reporter(problems: Problem[], location: string): Report {
  return (problem) => problems.push({ severity: 'error', location, ...problem })
}

/** One problem as one line: `error: <location>, <source>, option "<option>": <message>`. */
export function formatProblem(problem: Problem): string {
  const parts = [problem.location]
  if (problem.source) parts.push(problem.source)
  if (problem.option) parts.push(`option "${problem.option}"`)
  return `${problem.severity === 'error' ? 'error' : 'warning'}: ${parts.join(', ')}: ${problem.message}`
}

/** Raised by the generator when any error was found; carries every problem, not just the first. */
export class GenerationError extends Error {
  /** @param problems - Every problem found, errors and warnings. */
  constructor(readonly problems: Problem[]) {
    const errors = problems.filter((problem) => problem.severity === 'error').length
    const warnings = problems.length - errors
    const counted = warnings > 0 ? ` and ${count(warnings, 'warning')}` : ''
    super(
      `prisma-hydra found ${count(errors, 'error')}${counted} in the schema:\n` +
        problems.map((problem) => `  - ${formatProblem(problem)}`).join('\n')
    )
    this.name = 'GenerationError'
  }
}

/** `1 error`, `2 warnings`. */
function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`
}

/** The closest candidate within a small edit distance, for "did you mean" hints. */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  const lower = word.toLowerCase()
  // A name cut short (`page_parameter` for `page_parameter_name`) is the likeliest slip.
  const extended = candidates.find(
    (candidate) => lower.length >= 4 && candidate.toLowerCase().startsWith(lower)
  )
  if (extended) return extended
  let best: string | undefined
  let bestDistance = Number.POSITIVE_INFINITY
  for (const candidate of candidates) {
    const full = candidate.toLowerCase()
    // A name cut short with a slip (`pagination_itemz` for `pagination_items_per_page`): the
    // candidate's start, one step further than an exact cut.
    const start =
      full.length > lower.length
        ? editDistance(lower, full.slice(0, lower.length)) + 1
        : Number.POSITIVE_INFINITY
    const distance = Math.min(editDistance(lower, full), start)
    if (distance < bestDistance) {
      best = candidate
      bestDistance = distance
    }
  }
  const limit = Math.max(2, Math.floor(word.length / 3))
  return bestDistance <= limit ? best : undefined
}

export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      current[j] = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + cost
      )
    }
    previous = current
  }
  return previous[b.length] ?? 0
}

export function didYouMean(word: string, candidates: readonly string[]): string {
  const suggestion = closest(word, candidates)
  return suggestion ? ` Did you mean "${suggestion}"?` : ''
}

/** A value as the user wrote it, for error messages. */
export function show(value: unknown): string {
  if (value === undefined) return 'nothing'
  return JSON.stringify(value) ?? String(value)
}
