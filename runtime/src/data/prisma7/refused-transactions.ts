/**
 * Cloudflare D1 has no transactions. Prisma's D1 adapter runs a batch `$transaction` (the
 * generated page and count) as separate queries, with a warning, and refuses an interactive one
 * (a data provider's `snapshot`) with this error: the snapshot then reads as the generated routes
 * do there, one query after another (docs/runtime-workers.md#transactions).
 */
const D1_REFUSAL = /^Cloudflare D1 does not support interactive transactions/

/** Whether `error` is the refusal of a client whose database has no interactive transactions. */
export function refusesTransactions(error: unknown): boolean {
  return error instanceof Error && D1_REFUSAL.test(error.message)
}
