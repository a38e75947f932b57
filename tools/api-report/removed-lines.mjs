// What a report change removes. Adding a line to a report (a new export, a new optional member)
// does not break code written against the old one; removing or changing a line (a name that
// goes, a type that changes) may. Each line is keyed by the declaration it belongs to (the last
// line that starts at the first column), so that a member line (`    name: string;`) that goes from
// one interface is not hidden by the same line appearing in another. API Extractor sorts the
// declarations of a report, so adding one moves no other line out of its declaration. Its
// comments on the first column (`// @public`, `// @deprecated`) are left out: they tag a
// declaration and break nothing.
//
// A line-wise comparison rather than a diff library: what counts is which keyed lines the old
// report has more of than the new one, whatever their order.

/** Each non-blank line of a report keyed by its declaration, with how often it occurs. */
function keyedLines(text) {
  const counts = new Map()
  let declaration = ''
  for (const line of text.split('\n')) {
    if (line.trim() === '' || line.startsWith('//')) continue
    if (!/^[\s}]/.test(line)) declaration = line
    const key = line === declaration ? line : `${declaration}\n${line}`
    counts.set(key, (counts.get(key) ?? 0) + 1)
  }
  return counts
}

/**
 * The lines of `before` that `after` lacks (removed or changed), each as
 * `declaration ⟩ line`, in `before`'s order; empty when `after` only adds.
 */
export function removedLines(before, after) {
  const kept = keyedLines(after)
  const removed = []
  for (const [key, count] of keyedLines(before)) {
    const missing = count - (kept.get(key) ?? 0)
    if (missing <= 0) continue
    const [declaration, line] = key.includes('\n') ? key.split('\n') : [key, undefined]
    removed.push(line === undefined ? declaration : `${declaration} ⟩ ${line.trim()}`)
  }
  return removed
}
