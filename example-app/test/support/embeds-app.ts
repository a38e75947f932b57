/**
 * The embeds fixture (test/fixtures/embeds) as the declared-embed tests serve it: its schema, and
 * its routes behind the example's token check, with the errors answered as the example answers
 * them.
 */
import { hydraErrorHandler, hydraNotFound } from '@prisma-hydra/runtime'
import { Hono } from 'hono'
import {
  createHydraApp,
  type HydraAccess,
  type HydraAppOptions,
} from '#fixtures/embeds/hydra/index.js'
import { authenticate, type LibraryEnv } from '../../src/auth.js'
import { startServer } from './harness.js'

/** The fixture's schema, which each test pushes to a database of its own. */
export const EMBEDS_SCHEMA = new URL('../fixtures/embeds/schema.prisma', import.meta.url).pathname

/**
 * The fixture's routes behind the token check of `secret`, with the rules and options given;
 * typed, for `hc`, by the rules' own type `A`.
 */
export function embedsApp<A extends HydraAccess<LibraryEnv> = HydraAccess<LibraryEnv>>(
  secret: string,
  options: HydraAppOptions<A, LibraryEnv>
) {
  const app = new Hono<LibraryEnv>()
    .use(authenticate(secret))
    .route('/', createHydraApp<A, LibraryEnv>(options))
  app.onError(hydraErrorHandler)
  app.notFound(hydraNotFound)
  return app
}

/** A loan of the fixture, as its book's declared embed reads it. */
export interface EmbeddedLoanRow {
  id: number
  borrower: string
  returnedAt: Date | null
}

/**
 * A book's loans as its declaration (`first: 3`) writes them, from its loans in id order: the
 * first three, each with its `returnedAt` (left out when `hidden`) and `borrower`, and when there
 * are more a partial view naming the sub-collection's page of those three (loans let clients
 * choose the page size), with that page's first and next pages.
 */
export function declaredLoans(
  bookId: number,
  loans: readonly EmbeddedLoanRow[],
  hidden: boolean
): Record<string, unknown> {
  const iri = `/books/${bookId}/loans`
  const collection: Record<string, unknown> = {
    '@id': iri,
    '@type': 'hydra:Collection',
    'hydra:member': loans.slice(0, 3).map((loan) => ({
      '@id': `/loans/${loan.id}`,
      '@type': 'Loan',
      ...(hidden ? {} : { returnedAt: loan.returnedAt?.toISOString() ?? null }),
      borrower: loan.borrower,
    })),
  }
  if (loans.length > 3)
    collection['hydra:view'] = {
      '@id': `${iri}?itemsPerPage=3&page=1`,
      '@type': 'hydra:PartialCollectionView',
      'hydra:first': `${iri}?itemsPerPage=3&page=1`,
      'hydra:next': `${iri}?itemsPerPage=3&page=2`,
    }
  return collection
}

/**
 * The fixture's routes behind the token check of `secret` on both engines, over one client and
 * the shared adapter it was made with: the origins of the `prisma` and the `compiled` engine's
 * servers, and what closes both.
 */
export async function embedsOnBothEngines<A extends HydraAccess<LibraryEnv>>(
  secret: string,
  options: HydraAppOptions<A, LibraryEnv> & { adapter: NonNullable<HydraAppOptions['adapter']> }
): Promise<{ origins: [string, string]; close: () => Promise<void> }> {
  const own = await startServer(embedsApp(secret, options).fetch)
  const compiled = await startServer(embedsApp(secret, { ...options, engine: 'compiled' }).fetch)
  return {
    origins: [own.origin, compiled.origin],
    close: async () => {
      await own.close()
      await compiled.close()
    },
  }
}
