/**
 * The rules the shared-cache tests serve the library under (test/shared-cache.e2e.test.ts, the
 * Worker of test/workers-cache/): staff see every book, everyone else the books that are not
 * poetry, read from the token alone (`reads: 'credentials'`), so anonymous answers may be shared.
 */
import type { HydraAccess } from '#generated/hydra/index.js'
import { claimsOf, type LibraryEnv, libraryAccess } from '../../src/auth.js'

export const catalogueAccess = {
  Loan: libraryAccess.Loan,
  Book: {
    reads: 'credentials',
    scope: (c) => (claimsOf(c)?.role === 'librarian' ? undefined : { genre: { not: 'POETRY' } }),
  },
} satisfies HydraAccess<LibraryEnv>
