import type { PrismaClient } from '#generated/prisma/client.js'
import type { createAdapter } from './adapter.js'

/*
 * Apart from src/prisma.ts, which imports every driver: src/app.ts reads this map and is bundled
 * for Cloudflare Workers (src/worker.ts), where only D1's adapter is.
 */

type SharedAdapter = ReturnType<typeof createAdapter>

/** Each client's adapter, shared with the compiled engine (shareAdapter, docs/performance.md). */
const adapters = new WeakMap<PrismaClient, SharedAdapter>()

/** Remembers the driver adapter `prisma` connects through (src/prisma.ts). */
export function rememberAdapter(prisma: PrismaClient, adapter: SharedAdapter): void {
  adapters.set(prisma, adapter)
}

/** The driver adapter `prisma` connected through: the compiled engine reads on its connection. */
export function sharedAdapterOf(prisma: PrismaClient): SharedAdapter | undefined {
  return adapters.get(prisma)
}
