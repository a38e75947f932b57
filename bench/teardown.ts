/**
 * What a benchmark must undo however it ends (servers, scratch databases, a release's worktree):
 * steps registered here run, last first, when SIGINT or SIGTERM ends the benchmark, which then
 * exits as the shell reports a signal (128 + its number). Its own `finally` blocks undo them on
 * any other end, and unregister them.
 */
import os from 'node:os'

const steps = new Set<() => unknown>()
let ending = false

/** Registers `step` to run on a signal; returns what unregisters it. */
export function atTeardown(step: () => unknown): () => void {
  steps.add(step)
  return () => steps.delete(step)
}

async function end(signal: NodeJS.Signals): Promise<void> {
  if (ending) return
  ending = true
  for (const step of [...steps].reverse()) {
    try {
      await step()
    } catch (error) {
      console.error(error)
    }
  }
  process.exit(128 + (os.constants.signals[signal] ?? 0))
}

process.once('SIGINT', end).once('SIGTERM', end)
