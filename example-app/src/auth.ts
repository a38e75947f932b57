/**
 * Who reads what in the example library (docs/security.md): callers authenticate with a bearer
 * JWT, verified by Hono's own `hono/jwt` middleware; the access rules read its payload.
 * - Loans are private: an anonymous caller is asked to authenticate (401), a reader sees the
 *   loans they borrowed, a librarian sees every loan.
 * - Everything else is public.
 */
import type { Context, MiddlewareHandler } from 'hono'
import { jwt, sign } from 'hono/jwt'
import type { HydraAccess } from '#generated/hydra/index.js'

/** The development secret; a deployed server sets JWT_SECRET. */
export const DEFAULT_JWT_SECRET = 'prisma-hydra example: development secret, set JWT_SECRET'

/** What the example's tokens say about their caller. */
export interface LibraryClaims {
  /** The borrower's name, as loans record it (`Reader 3`). */
  sub: string
  role: 'reader' | 'librarian'
  /** Expiry, seconds since the epoch. */
  exp?: number
}

/**
 * Verifies a bearer token when one is sent (a bad or expired one is a 401) and leaves requests
 * without one anonymous: public resources stay public, and the access rules decide the rest.
 */
export function authenticate(secret: string): MiddlewareHandler {
  const verify = jwt({ secret, alg: 'HS256' })
  return (c, next) => (c.req.header('Authorization') === undefined ? next() : verify(c, next))
}

/** The verified claims of the request, or undefined for an anonymous caller. */
export function claimsOf(c: Context): LibraryClaims | undefined {
  return c.get('jwtPayload') as LibraryClaims | undefined
}

const isLibrarian = (c: Context) => claimsOf(c)?.role === 'librarian'

/** The example's access rules. */
export const libraryAccess: HydraAccess = {
  Loan: {
    guard: (c) => (claimsOf(c) ? 'allow' : 'unauthenticated'),
    scope: (c) => (isLibrarian(c) ? undefined : { borrower: claimsOf(c)?.sub ?? '' }),
  },
}

/** A signed token for `claims`, valid for `seconds` (default a day). */
export function tokenFor(
  claims: Omit<LibraryClaims, 'exp'>,
  secret: string,
  seconds = 24 * 60 * 60
): Promise<string> {
  return sign({ ...claims, exp: Math.floor(Date.now() / 1000) + seconds }, secret, 'HS256')
}
