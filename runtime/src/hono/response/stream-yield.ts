/**
 * @module
 * The pause a streamed collection takes between its batches (collection-response.ts).
 */

/** Lets other work run (`setImmediate`) when `enabled` (the default). */
export async function yieldBetweenBatches(enabled = true): Promise<void> {
  if (enabled) await new Promise((resolve) => setImmediate(resolve))
}
