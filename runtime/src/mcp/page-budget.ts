/**
 * @module
 * How many of a page's members a result holds within its budget of characters: as many, from
 * the first one not yet answered, as the result's JSON text can hold with its other fields and
 * the longest cursor it may carry.
 */

/** A result's JSON text. */
export const textOf = (value: unknown) => JSON.stringify(value)

/**
 * The number of `members`, from the first, that `frame` holds within `budget` characters, where
 * `frame(kept)` is the whole result holding `kept` (and its cursor): 0 when not even the first
 * fits.
 */
export function membersWithin(
  members: readonly unknown[],
  budget: number,
  frame: (kept: readonly unknown[]) => unknown
): number {
  let size = textOf(frame([])).length
  let count = 0
  for (const member of members) {
    // A member's text, and the comma before the next.
    const next = size + textOf(member).length + (count > 0 ? 1 : 0)
    if (next > budget) break
    size = next
    count++
  }
  // The frame's cursor may grow with the count (`#from=9` to `#from=10`): check the whole.
  while (count > 0 && textOf(frame(members.slice(0, count))).length > budget) count--
  return count
}
