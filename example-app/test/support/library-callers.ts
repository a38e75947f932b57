/**
 * The example's callers, as the MCP tests speak to it: anonymous, a reader (three loans of the
 * seed, src/database.ts) and a librarian, each a token's claims (src/auth.ts) or none.
 */
import type { LibraryClaims } from '../../src/auth.js'

export const CALLERS = {
  anonymous: undefined,
  reader: { sub: 'Reader 3', role: 'reader' },
  librarian: { sub: 'Librarian', role: 'librarian' },
} satisfies Record<string, Omit<LibraryClaims, 'exp'> | undefined>

/** One of the example's callers. */
export type Caller = keyof typeof CALLERS

/** The callers, in the order above. */
export const callers = Object.keys(CALLERS) as Caller[]
