/**
 * @module
 * Whether streamed collections let other work run between their batches (collection-response.ts).
 */

let yieldsBetweenBatches = true

/**
 * Whether streamed collections let other work run between their batches (default true). Only
 * for measuring what the pause buys (`npm run bench:fairness`); never turn it off in a server.
 */
export function setStreamYield(enabled: boolean): void {
  yieldsBetweenBatches = enabled
}

/** Lets other work run (`setImmediate`) unless turned off. */
export async function yieldBetweenBatches(): Promise<void> {
  if (yieldsBetweenBatches) await new Promise((resolve) => setImmediate(resolve))
}
