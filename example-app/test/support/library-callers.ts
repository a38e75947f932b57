/**
 * The example's callers, as the MCP tests speak to it: anonymous, a reader (three loans of the
 * seed, src/database.ts) and a librarian, each a token's claims (src/auth.ts) or none.
 */
import { type LibraryClaims, tokenFor } from '../../src/auth.js'

export const CALLERS = {
  anonymous: undefined,
  reader: { sub: 'Reader 3', role: 'reader' },
  librarian: { sub: 'Librarian', role: 'librarian' },
} satisfies Record<string, Omit<LibraryClaims, 'exp'> | undefined>

/** One of the example's callers. */
export type Caller = keyof typeof CALLERS

/** The callers, in the order above. */
export const callers = Object.keys(CALLERS) as Caller[]

/** Each caller's token signed with `secret` (src/auth.ts), but the anonymous caller's: none. */
export async function callerTokens(secret: string): Promise<Map<Caller, string>> {
  const tokens = new Map<Caller, string>()
  for (const caller of callers) {
    const claims = CALLERS[caller]
    if (claims) tokens.set(caller, await tokenFor(claims, secret))
  }
  return tokens
}

/** The `Authorization` header a request with `token` sends; none without one. */
export const bearer = (token: string | undefined): Record<string, string> =>
  token ? { Authorization: `Bearer ${token}` } : {}
