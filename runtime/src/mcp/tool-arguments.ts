/**
 * @module
 * A tool's arguments checked against those it declares: an argument it does not know is refused
 * by name, as the API refuses a value it cannot read, never dropped unseen (an agent that misspells
 * a filter would otherwise read the whole collection as if filtered).
 */
import { ToolArgumentError } from './tool-argument-error.js'

/** Refuses the first key of `args` that `known` does not hold, naming it and those it takes. */
export function refuseUnknown(
  tool: string,
  args: Record<string, unknown>,
  known: readonly string[]
): void {
  const unknown = Object.keys(args).find((key) => !known.includes(key))
  if (unknown === undefined) return
  const takes = known.length > 0 ? `it takes ${known.join(', ')}` : 'it takes none'
  throw new ToolArgumentError(`${tool} has no argument ${unknown}: ${takes}.`)
}
