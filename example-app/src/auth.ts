/**
 * Who reads what in the example library (docs/security.md): callers authenticate with a bearer
 * JWT, verified by Hono's own `hono/jwt` middleware; the access rules read its payload, typed by
 * the app's Env (`LibraryEnv`).
 * - Loans are private: an anonymous caller is asked to authenticate (401), a reader sees the
 *   loans they borrowed, a librarian sees every loan, and its borrower while it is out.
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
 * The example's Hono Env: what its middleware puts on the context. `jwtPayload` is the verified
 * token's payload, absent for an anonymous caller; its type is the example's word for what its
 * own tokens hold (`tokenFor` signs them).
 */
export type LibraryEnv = { Variables: { jwtPayload?: LibraryClaims } }

/**
 * Verifies a bearer token when one is sent (a bad or expired one is a 401) and leaves requests
 * without one anonymous: public resources stay public, and the access rules decide the rest.
 */
export function authenticate(secret: string): MiddlewareHandler<LibraryEnv> {
  const verify = jwt({ secret, alg: 'HS256' })
  return (c, next) =>
    c.req.header('Authorization') === undefined
      ? next()
      : verify(c, async () => {
          // hono/jwt checks the signature, not the claims: claims of another shape (a `sub`
          // that is an object, say) name no caller here, so no rule reads them.
          if (!isLibraryClaims(c.get('jwtPayload'))) c.set('jwtPayload', undefined)
          await next()
        })
}

/**
 * Whether a verified payload holds the claims of the example's tokens. A `sub` holding NUL names
 * no caller either: the Loan scope hands it to a `where`, and the runtime refuses a scope's text
 * holding NUL as a fault, a 500 (docs/security.md, "Faulty scopes").
 */
function isLibraryClaims(payload: unknown): payload is LibraryClaims {
  if (typeof payload !== 'object' || payload === null) return false
  const { sub, role } = payload as Record<string, unknown>
  return (
    typeof sub === 'string' && !sub.includes('\0') && (role === 'reader' || role === 'librarian')
  )
}

/** The verified claims of the request, or undefined for an anonymous caller. */
export function claimsOf(c: Context<LibraryEnv>): LibraryClaims | undefined {
  return c.get('jwtPayload')
}

/**
 * The example's access rules, typed by its Env: each rule's `c` is a `Context<LibraryEnv>`.
 * `satisfies` keeps their own type, which tells `createHydraApp` what they may hide (a loan's
 * borrower).
 */
export const libraryAccess = {
  Loan: {
    guard: (c) => (c.get('jwtPayload') ? 'allow' : 'unauthenticated'),
    scope: (c) => {
      const claims = c.get('jwtPayload')
      // The guard let only callers with claims through.
      return claims?.role === 'librarian' ? undefined : { borrower: claims?.sub ?? '' }
    },
    // Who read a book is the reader's own: a librarian sees the borrower of a loan still out.
    shownWhere: (c) =>
      c.get('jwtPayload')?.role === 'librarian' ? { borrower: { returnedAt: null } } : undefined,
  },
} satisfies HydraAccess<LibraryEnv>

/** A signed token for `claims`, valid for `seconds` (default a day). */
export function tokenFor(
  claims: Omit<LibraryClaims, 'exp'>,
  secret: string,
  seconds = 24 * 60 * 60
): Promise<string> {
  return sign({ ...claims, exp: Math.floor(Date.now() / 1000) + seconds }, secret, 'HS256')
}
