import { shareAdapter } from '@prisma-hydra/runtime'
import { PrismaClient } from '#generated/prisma/client.js'
import { appProviderOf, createAdapter, type DriverTimeouts } from './adapter.js'
import { rememberAdapter } from './shared-adapters.js'

export { sharedAdapterOf } from './shared-adapters.js'

/** The example app's database when DATABASE_URL is not set: a SQLite file beside the app. */
export const DEFAULT_DATABASE_URL = 'file:./dev.db'

/**
 * A Prisma client for `url` through the driver adapter its scheme names (src/adapter.ts).
 * `#generated/prisma/client.js` is the client generated for SQLite, or for PostgreSQL or MySQL when
 * Node runs with the `postgresql` or `mysql` condition (package.json "imports"; `npm start` sets it from
 * DATABASE_URL, see scripts/start.mjs): a generated client serves one provider only.
 */
export function createPrismaClient(
  url: string = DEFAULT_DATABASE_URL,
  timeouts: DriverTimeouts = {}
): PrismaClient {
  const adapter = shareAdapter(createAdapter(url, timeouts))
  try {
    const prisma = new PrismaClient({ adapter })
    rememberAdapter(prisma, adapter)
    return prisma
  } catch (error) {
    if (error instanceof Error && /is not compatible with the provider/.test(error.message)) {
      const provider = appProviderOf(url)
      throw new Error(
        `${error.message} Start the app with \`npm start\` (scripts/start.mjs picks the client from DATABASE_URL)` +
          (provider === 'sqlite' ? '' : ` or run Node with --conditions=${provider}`),
        { cause: error }
      )
    }
    throw error
  }
}
